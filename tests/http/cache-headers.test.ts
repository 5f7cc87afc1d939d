// Caching headers for each kind of answer: what is the same for every anonymous caller may be kept
// briefly by a shared cache (CDN, nginx proxy_cache); anything that depends on who asks, errors and
// writes never are. The Vary list names every header a shared answer depends on.
import { beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '@/lib/core/accounts/sessions';
import { getUserByUsername } from '@/lib/core/accounts/users';
import { appDatabase, baseUrl, basic, createPlot, newUser, RENDER_WAIT_MS, uploadGrid, type TestUser } from '../support/api';

const SHARED = 'public, max-age=0, s-maxage=10, stale-while-revalidate=30';
const SHARED_VARY = 'Accept, Accept-Encoding, Authorization, Plotly-Authorization, Cookie, X-Forwarded-Host, X-Forwarded-Proto';
const PRIVATE_VARY = 'Accept, Accept-Encoding, Authorization, Plotly-Authorization, Cookie';

interface Case {
  name: string;
  ask: () => Promise<{ status: number; headers: Headers }>;
  status: number;
  cacheControl: string;
  vary: string | null;
}

// Next.js lists its own router headers first on every answer (requests from our API clients and
// proxies never carry them); the rest is ours.
const NEXT_VARY = new Set(['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch']);
const varyOf = (headers: Headers) => {
  const ours = (headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v && !NEXT_VARY.has(v));
  return ours.length ? ours.join(', ') : null;
};

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl()}${path}`, { headers, redirect: 'manual' });
const imagePath = (fid: string, query = '') => {
  const [owner, n] = fid.split(':');
  return `/~${owner}/${n}.png${query}`;
};

/** The rendered image at `path` (not the placeholder, which is never cached). */
async function rendered(path: string, headers: Record<string, string> = {}) {
  const deadline = Date.now() + RENDER_WAIT_MS;
  for (;;) {
    const res = await get(path, headers);
    await res.arrayBuffer();
    if (res.headers.get('x-image-state') === 'rendered') return res;
    if (Date.now() > deadline) throw new Error(`${path} still a placeholder`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('cache headers', () => {
  let alice: TestUser;
  let cookie: string;
  let open: Record<string, any>;
  let mixed: Record<string, any>;
  let secret: Record<string, any>;

  beforeAll(async () => {
    alice = await newUser('cache');
    const { db } = await appDatabase();
    cookie = `pf_session=${await createSession(db, (await getUserByUsername(db, alice.username))!.id)}`;
    const publicGrid = await uploadGrid(alice, { x: [1, 2, 3], y: [3, 1, 2] });
    const privateGrid = await uploadGrid(alice, { y: [9, 8, 7] }, { world_readable: false });
    open = await createPlot(alice, { figure: { data: [{ type: 'bar', xsrc: publicGrid.src('x'), ysrc: publicGrid.src('y') }] } });
    mixed = await createPlot(alice, { figure: { data: [{ type: 'bar', xsrc: publicGrid.src('x'), ysrc: privateGrid.src('y') }] } });
    secret = await createPlot(alice, {
      figure: { data: [{ type: 'bar', ysrc: privateGrid.src('y') }] },
      world_readable: false,
      share_key_enabled: true,
    });
  });

  it.each([
    ['anonymous list', () => get('/v2/plots'), 200, SHARED, SHARED_VARY],
    ['anonymous feed', () => get('/v2/plots/feed'), 200, SHARED, SHARED_VARY],
    ['HEAD of the anonymous list', () => fetch(`${baseUrl()}/v2/plots`, { method: 'HEAD' }), 200, SHARED, SHARED_VARY],
    ['signed-in list (API key)', () => get('/v2/plots', { Authorization: alice.auth }), 200, 'private, no-store', SHARED_VARY],
    ['signed-in list (Plotly-Authorization)', () => get('/v2/plots', { 'Plotly-Authorization': alice.auth }), 200, 'private, no-store', SHARED_VARY],
    ['signed-in feed (session cookie)', () => get('/v2/plots/feed', { Cookie: cookie }), 200, 'private, no-store', SHARED_VARY],
  ] as const)('%s', async (_name, ask, status, cacheControl, vary) => {
    const res = await ask();
    expect(res.status).toBe(status);
    expect(res.headers.get('cache-control')).toBe(cacheControl);
    expect(varyOf(res.headers)).toBe(vary);
  });

  it('every kind of answer carries exactly its caching headers', async () => {
    const content = (plot: Record<string, any>, query = '') => `/v2/plots/${plot.fid}/content${query}`;
    const cases: Case[] = [
      { name: 'public content, anonymous', ask: () => get(content(open)), status: 200, cacheControl: SHARED, vary: SHARED_VARY },
      { name: 'public content with data, anonymous', ask: () => get(content(open, '?inline_data=true')), status: 200, cacheControl: SHARED, vary: SHARED_VARY },
      {
        name: 'public .json download, anonymous',
        ask: () => get(`/~${open.fid.replace(':', '/')}.json`),
        status: 200,
        cacheControl: SHARED,
        vary: SHARED_VARY,
      },
      {
        name: 'public content, signed in',
        ask: () => get(content(open), { Authorization: alice.auth }),
        status: 200,
        cacheControl: 'private, no-cache',
        vary: SHARED_VARY,
      },
      {
        name: 'public content, with a session cookie',
        ask: () => get(content(open), { Cookie: cookie }),
        status: 200,
        cacheControl: 'private, no-cache',
        vary: SHARED_VARY,
      },
      // The figure alone holds src references only; its data is what a private grid would change.
      { name: 'content by reference, a private grid', ask: () => get(content(mixed)), status: 200, cacheControl: SHARED, vary: SHARED_VARY },
      // The plot publishes what it draws: every reader gets the same data.
      {
        name: 'content with data, a private grid the plot draws',
        ask: () => get(content(mixed, '?inline_data=true')),
        status: 200,
        cacheControl: SHARED,
        vary: SHARED_VARY,
      },
      {
        name: 'content with mapped data, a private grid',
        ask: () => get(content(mixed, '?map_data=unreadable')),
        status: 200,
        cacheControl: 'private, no-cache',
        vary: PRIVATE_VARY,
      },
      {
        name: 'private plot content, owner',
        ask: () => get(content(secret, '?inline_data=true'), { Authorization: alice.auth }),
        status: 200,
        cacheControl: 'private, no-cache',
        vary: PRIVATE_VARY,
      },
      {
        name: 'secret link content',
        ask: () => get(content(secret, `?inline_data=true&share_key=${secret.share_key}`)),
        status: 200,
        cacheControl: 'private, no-cache',
        vary: PRIVATE_VARY,
      },
      {
        name: 'secret link record',
        ask: () => get(`/v2/plots/${secret.fid}?share_key=${secret.share_key}`),
        status: 200,
        cacheControl: 'private, no-store',
        vary: 'Accept, Accept-Encoding',
      },
      {
        name: 'a record, signed in',
        ask: () => get(`/v2/plots/${open.fid}`, { Authorization: alice.auth }),
        status: 200,
        cacheControl: 'private, no-store',
        vary: 'Accept, Accept-Encoding',
      },
      { name: 'private content, anonymous: 404', ask: () => get(content(secret)), status: 404, cacheControl: 'no-store', vary: 'Accept, Accept-Encoding' },
      { name: 'bad query: 400', ask: () => get('/v2/plots?page_size=nope'), status: 400, cacheControl: 'no-store', vary: 'Accept, Accept-Encoding' },
      {
        name: 'wrong key: 401',
        ask: () => get('/v2/plots', { Authorization: basic(alice.username, 'wrong') }),
        status: 401,
        cacheControl: 'no-store',
        vary: 'Accept, Accept-Encoding',
      },
      { name: 'unknown API path: 404', ask: () => get('/v2/nothing-here'), status: 404, cacheControl: 'no-store', vary: 'Accept, Accept-Encoding' },
      {
        name: 'POST answer',
        ask: () =>
          fetch(`${baseUrl()}/v2/grids`, {
            method: 'POST',
            headers: { Authorization: alice.auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ data: { cols: { a: { data: [1], order: 0 } } } }),
          }),
        status: 201,
        cacheControl: 'private, no-store',
        vary: 'Accept, Accept-Encoding',
      },
      {
        name: 'POST without a key: 401',
        ask: () => fetch(`${baseUrl()}/v2/grids`, { method: 'POST', body: '{}' }),
        status: 401,
        cacheControl: 'no-store',
        vary: 'Accept, Accept-Encoding',
      },
      { name: 'private image, anonymous: 404', ask: () => get(imagePath(secret.fid)), status: 404, cacheControl: 'no-store', vary: 'Accept-Encoding' },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      const res = await c.ask();
      const got = { status: res.status, cacheControl: res.headers.get('cache-control'), vary: varyOf(res.headers) };
      const want = { status: c.status, cacheControl: c.cacheControl, vary: c.vary };
      if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${c.name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
    expect(failures).toEqual([]);
  });

  it('a shared content answer revalidates to a 304 that keeps its caching headers', async () => {
    const first = await get(`/v2/plots/${open.fid}/content`);
    const again = await get(`/v2/plots/${open.fid}/content`, { 'If-None-Match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(SHARED);
    expect(varyOf(again.headers)).toBe(SHARED_VARY);
  });

  it(
    'images: versioned public for good, unversioned public briefly, private never shared and always revalidated',
    async () => {
      const unversioned = await rendered(imagePath(open.fid));
      expect(unversioned.headers.get('cache-control')).toBe(SHARED);
      expect(varyOf(unversioned.headers)).toBeNull();
      expect(unversioned.headers.get('etag')).toBeTruthy();
      const versioned = await rendered(imagePath(open.fid, '?v=1'));
      expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const owner = await rendered(imagePath(secret.fid), { Authorization: alice.auth });
      expect(owner.headers.get('cache-control')).toBe('private, no-cache');
      const ownerVersioned = await rendered(imagePath(secret.fid, '?v=1'), { Authorization: alice.auth });
      // Asked for again each time, even versioned: whoever loses access loses it from their browser too.
      expect(ownerVersioned.headers.get('cache-control')).toBe('private, no-cache');
      const link = await rendered(imagePath(secret.fid, `?share_key=${secret.share_key}`));
      expect(link.headers.get('cache-control')).toBe('private, no-cache');
    },
    2 * RENDER_WAIT_MS,
  );

  it('pages are never shared: each carries its own CSP nonce and may show who is signed in', async () => {
    for (const path of ['/', '/feed', `/~${alice.username}/`, `/~${open.fid.replace(':', '/')}/`]) {
      const res = await get(path);
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      const cc = res.headers.get('cache-control') ?? '';
      expect(cc, path).toMatch(/\bno-store\b/);
      expect(cc, path).not.toMatch(/\bpublic\b/);
    }
  });
});
