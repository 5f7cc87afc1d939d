// Browser sessions: the cookie identifies the user for reads, and for writes only from our own
// origin (CSRF); /signout ends the session.
import { beforeAll, describe, expect, it } from 'vitest';
import { getUserByUsername } from '@/lib/core/accounts/users';
import { createSession } from '@/lib/core/accounts/sessions';
import { appDatabase, baseUrl, basic, call, expectError, newUser, uploadGrid, type TestUser } from '../support/api';

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

describe('sessions end with the key and /signout takes any headers', () => {
  it('rotating the API key ends every browser session of that user (reads and writes)', async () => {
    const bob = await newUser('rot');
    const { db } = await appDatabase();
    const user = await getUserByUsername(db, bob.username);
    const cookies = [await createSession(db, user!.id), await createSession(db, user!.id)].map((t) => `pf_session=${t}`);
    for (const cookie of cookies) expect((await call('GET', '/v2/users/current', { headers: { Cookie: cookie } })).status).toBe(200);
    const rotated = await call('POST', '/v2/users/current/api_key', { headers: { Cookie: cookies[0], Origin: baseUrl() } });
    expect(rotated.status).toBe(200);
    for (const cookie of cookies) {
      expectError(await call('GET', '/v2/users/current', { headers: { Cookie: cookie } }), 401);
      expectError(await call('POST', '/v2/users/current/api_key', { headers: { Cookie: cookie, Origin: baseUrl() } }), 401);
    }
    // The new key works; the old one does not.
    expect((await call('GET', '/v2/users/current', { headers: { Authorization: basic(bob.username, rotated.json.api_key) } })).status).toBe(200);
    expectError(await call('GET', '/v2/users/current', { user: bob }), 401, 'Bad API key');
  });

  it.each<Record<string, string>>([{ Referer: 'not a url' }, { Referer: 'http://[::1' }, { Referer: '' }, { Origin: 'null' }])(
    'POST /signout with %o and no session answers 403, never 500',
    async (headers) => {
      const res = await fetch(`${baseUrl()}/signout`, { method: 'POST', headers, redirect: 'manual' });
      expect(res.status).toBe(403);
    },
  );
});
