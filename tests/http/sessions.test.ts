// Browser sessions: the cookie identifies the user for reads, and for writes only from our own
// origin (CSRF); /signout ends the session.
import { beforeAll, describe, expect, it } from 'vitest';
import { getUserByUsername } from '@/lib/users';
import { createSession } from '@/lib/sessions';
import { appDatabase, baseUrl, call, expectError, newUser, uploadGrid, type TestUser } from '../support/api';

describe('session cookies', () => {
  let alice: TestUser;
  let cookie: string;
  let figure: unknown;

  beforeAll(async () => {
    alice = await newUser('sess');
    const { db } = await appDatabase();
    const user = await getUserByUsername(db, alice.username);
    cookie = `pf_session=${await createSession(db, user!.id)}`;
    const grid = await uploadGrid(alice, { y: [1, 2, 3] });
    figure = { data: [{ type: 'bar', ysrc: grid.src('y') }] };
  });

  it('identifies the user on reads', async () => {
    const res = await call('GET', '/v2/users/current', { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.json.username).toBe(alice.username);
  });

  it('is anonymous with an unknown or malformed session token', async () => {
    for (const value of ['pf_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'pf_session=x', 'pf_session=']) {
      expectError(await call('GET', '/v2/users/current', { headers: { Cookie: value } }), 401, 'Authentication credentials were not provided.');
    }
  });

  it('writes only from our own origin', async () => {
    const origin = baseUrl();
    const ok = await call('POST', '/v2/plots', { headers: { Cookie: cookie, Origin: origin }, body: { figure } });
    expect(ok.status).toBe(200);
    expect(ok.json.file.owner).toBe(alice.username);
    const viaReferer = await call('POST', '/v2/plots', { headers: { Cookie: cookie, Referer: `${origin}/~${alice.username}/` }, body: { figure } });
    expect(viaReferer.status).toBe(200);
    const foreign: Record<string, string>[] = [{ Origin: 'https://evil.example' }, { Referer: 'https://evil.example/page' }, {}];
    for (const headers of foreign) {
      expectError(await call('POST', '/v2/plots', { headers: { Cookie: cookie, ...headers }, body: { figure } }), 401);
    }
  });

  it('/signout refuses other origins, then ends the session', async () => {
    const foreign = await fetch(`${baseUrl()}/signout`, { method: 'POST', headers: { Cookie: cookie, Origin: 'https://evil.example' }, redirect: 'manual' });
    expect(foreign.status).toBe(403);
    expect((await call('GET', '/v2/users/current', { headers: { Cookie: cookie } })).status).toBe(200);
    const res = await fetch(`${baseUrl()}/signout`, { method: 'POST', headers: { Cookie: cookie, Origin: baseUrl() }, redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/pf_session=;.*Max-Age=0/i);
    expectError(await call('GET', '/v2/users/current', { headers: { Cookie: cookie } }), 401);
  });
});
