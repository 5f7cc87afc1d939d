// Every answer carries nosniff and a referrer policy (next.config.mjs). The API, downloads and
// scripts skip the proxy (no per-request CSP, no buffered bodies); pages get a fresh CSP nonce each.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createPlot, newUser, uploadGrid, type TestUser } from '../support/api';

describe('security headers', () => {
  let alice: TestUser;
  let fid: string;
  beforeAll(async () => {
    alice = await newUser('sec');
    const grid = await uploadGrid(alice, { x: [1, 2, 3], y: [2, 4, 8] }, { world_readable: true });
    fid = (
      await createPlot(alice, { filename: 'headers', world_readable: true, figure: { data: [{ type: 'scatter', xsrc: grid.src('x'), ysrc: grid.src('y') }] } })
    ).fid;
  });

  const expectCommon = (headers: Headers, what: string) => {
    expect(headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  };

  it('on API answers, errors, downloads and scripts: nosniff and a referrer policy, no page policy', async () => {
    const [owner, n] = fid.split(':');
    const answers: [string, string, number, TestUser | null][] = [
      ['GET', '/v2/plots?page_size=1', 200, null],
      ['GET', '/v2', 200, null],
      ['GET', '/v2/', 200, null],
      ['GET', '/v2/openapi.json', 200, null],
      ['GET', `/v2/plots/${fid}/content?inline_data=true`, 200, null],
      ['GET', '/v2/users/current', 200, alice],
      ['GET', '/v2/users/current', 401, null],
      ['POST', '/v2/plots', 400, alice],
      ['GET', '/v2/plots/nobody:1', 404, null],
      ['GET', '/v2/plots/%zz', 404, null],
      ['GET', `/~${owner}/${n}.json`, 200, null],
      ['GET', `/~${owner}/${n}.csv`, 200, null],
      ['GET', '/assets/plotly-geo-assets.js', 200, null],
    ];
    for (const [method, path, status, user] of answers) {
      const res = await call(method, path, { user, ...(method === 'POST' ? { body: {} } : {}) });
      const what = `${method} ${path}`;
      expect(res.status, what).toBe(status);
      expectCommon(res.headers, what);
      expect(res.headers.get('content-security-policy'), what).toBeNull();
      expect(res.headers.get('x-frame-options'), what).toBeNull();
    }
  });

  it('on pages: a fresh nonce each time, framing denied except for the embed page', async () => {
    const [owner, n] = fid.split(':');
    const nonces = new Set<string>();
    // The data table too: the embed's link to it opens a tab of its own.
    for (const path of ['/signin', '/signin', `/~${owner}/${n}/`, `/~${owner}/${n}/data-table`, `/~${owner}/%zz`, '/docs/api']) {
      const res = await call('GET', path);
      expectCommon(res.headers, path);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      nonces.add(/'nonce-([^']+)'/.exec(csp)?.[1] ?? '');
    }
    expect(nonces.size).toBe(6);
    for (const path of [`/~${owner}/${n}.embed`, `/files/${owner}/${n}/embed`]) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-frame-options'), path).toBeNull();
      expect(res.headers.get('content-security-policy'), path).toMatch(/(^|; )frame-ancestors \*(;|$)/);
    }
  });
});
