// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// GET /v2/plots (the list).
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, createPlot, expectError, newUser, uploadGrid, type TestUser } from '../support/api';
import { DETAIL_KEYS, keysOf, LIST_KEYS, mine, pathOf, scatter, setPlot, walk, type Grid, type Rec } from '../support/plots';

const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';

describe('GET /v2/plots: the list', () => {
  let alice: TestUser;
  let grid: Grid;
  let p: Rec[];

  beforeAll(async () => {
    alice = await newUser('list');
    grid = await uploadGrid(alice, { x: [1], y: [2] });
    p = [];
    for (let i = 0; i < 4; i++) p.push(await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: `list ${i}` }));
    // p0..p2: quality 10 (rare, so the filtered walks are short); p3: quality 4.
    await setPlot(p[0].fid, { quality: 10, views: 5 });
    await setPlot(p[1].fid, { quality: 10, views: 9 });
    await setPlot(p[2].fid, { quality: 10, views: 5 });
    await setPlot(p[3].fid, { quality: 4, views: 1 });
  });

  it.each(['/v2/plots', '/v2/plots/'])("GET %s: 200 directly (no redirect), the page shape and the contract's headers", async (path) => {
    const res = await call('GET', `${path}?page_size=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(
      res.headers
        .get('vary')
        ?.split(',')
        .map((v) => v.trim().toLowerCase()),
    ).toContain('accept');
    expect(res.headers.get('allow')).toBe(LIST_ALLOW);
    expect(keysOf(res.json)).toEqual(['next', 'previous', 'results']);
    expect(res.json.previous).toBeNull();
    expect(res.json.results).toHaveLength(2);
    expect(res.json.next).toMatch(new RegExp(`^${baseUrl()}/v2/plots/?\\?`));
    expect(new URL(res.json.next).searchParams.get('cursor')).toBeTruthy();
    for (const r of res.json.results) expect(keysOf(r)).toEqual(LIST_KEYS);
  });

  it.each(['/v2/plots', '/v2/plots/'])("HEAD %s: GET's status and headers, no body", async (path) => {
    const get = await call('GET', `${path}?page_size=1`);
    const head = await call('HEAD', `${path}?page_size=1`);
    expect(head.status).toBe(get.status);
    expect(head.text).toBe('');
    for (const h of ['content-type', 'vary', 'allow']) expect(head.headers.get(h), h).toBe(get.headers.get(h));
  });

  it("HEAD with a bad query answers GET's 400 status", async () => {
    const head = await call('HEAD', '/v2/plots?page_size=0');
    expect(head.status).toBe(400);
    expect(head.text).toBe('');
  });

  it.each(['/v2/plots', '/v2/plots/'])('OPTIONS %s: 200 with Allow', async (path) => {
    const res = await call('OPTIONS', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('allow')).toBe(LIST_ALLOW);
  });

  it.each(['PATCH', 'PUT', 'DELETE'])('%s /v2/plots → 405 with Allow and the error body', async (method) => {
    const res = await call(method, '/v2/plots', { user: alice, body: {} });
    expectError(res, 405);
    expect(res.headers.get('allow')).toBe(LIST_ALLOW);
  });

  it('PATCH /v2/plots/ (trailing slash) → 405 with Allow', async () => {
    const res = await call('PATCH', '/v2/plots/', { body: {} });
    expectError(res, 405);
    expect(res.headers.get('allow')).toBe(LIST_ALLOW);
  });

  it('POST /v2/plots/ (trailing slash) creates too', async () => {
    // Another user: this suite's own plots keep the qualities the filters below expect.
    const slash = await newUser('slash');
    const res = await call('POST', '/v2/plots/', { user: slash, body: { figure: { data: [] } } });
    expect(res.status).toBe(200);
    expect(res.json.file.fid).toBe(`${slash.username}:1`);
    expect(keysOf(res.json.file)).toEqual(DETAIL_KEYS);
  });

  const badQueries: [string, string][] = [
    ['order_by=title', 'order_by'],
    ['order_by=-creation_time', 'order_by'],
    ['order_by=VIEWS', 'order_by'],
    ['order_by=views,title', 'order_by'],
    ['min_quality=abc', 'min_quality'],
    ['min_quality=1.5', 'min_quality'],
    ['min_quality=', 'min_quality'],
    ['max_quality=x', 'max_quality'],
    ['max_quality=2e3', 'max_quality'],
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=-1', 'page_size'],
    ['page_size=abc', 'page_size'],
    ['page_size=2.5', 'page_size'],
    ['cursor=garbage', 'cursor'],
    ['cursor=a.b', 'cursor'],
    ['cursor=...', 'cursor'],
  ];

  it.each(badQueries)('?%s → 400 naming %s', async (query, needle) => {
    expectError(await call('GET', `/v2/plots?${query}`), 400, needle);
    expectError(await call('GET', `/v2/plots/?${query}`), 400, needle);
  });

  it.each([
    'page_size=1',
    'page_size=100',
    'order_by=views',
    'order_by=-views',
    'min_quality=0',
    'max_quality=10',
    'min_quality=-3',
    'format=api',
    'format=json',
  ])('?%s → 200', async (query) => {
    const res = await call('GET', `/v2/plots?${query}`);
    expect(res.status).toBe(200);
    expect(keysOf(res.json)).toEqual(['next', 'previous', 'results']);
  });

  it('page_size defaults to 20 and is honoured', async () => {
    // At least 20 public plots exist by now (this suite alone made 5); the default page holds exactly 20.
    const extra = await newUser('fill');
    const g = await uploadGrid(extra, { x: [1], y: [2] });
    for (let i = 0; i < 20; i++) await createPlot(extra, { figure: { data: [scatter(g)] } });
    expect((await call('GET', '/v2/plots')).json.results).toHaveLength(20);
    expect((await call('GET', '/v2/plots?page_size=3')).json.results).toHaveLength(3);
    expect((await call('GET', '/v2/plots?page_size=100')).json.results.length).toBeGreaterThanOrEqual(21);
  });

  it('forged, truncated and tampered cursors → 400', async () => {
    const first = await call('GET', '/v2/plots?page_size=1');
    const real = new URL(first.json.next).searchParams.get('cursor')!;
    expect((await call('GET', `/v2/plots?page_size=1&cursor=${encodeURIComponent(real)}`)).status).toBe(200);
    const [payload, mac] = real.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ o: '-creation_time', d: 'n', k: ['2000-01-01T00:00:00.000000Z', 1] })).toString('base64url');
    const cases = [
      real.slice(0, -2),
      real.slice(0, Math.floor(real.length / 2)),
      `${forgedPayload}.${mac ?? 'AAAAAAAAAAAAAAAAAAAAAA'}`,
      `${forgedPayload}.AAAAAAAAAAAAAAAAAAAAAA`,
      forgedPayload,
      `${payload}x.${mac}`,
      `${real}.extra`,
      Buffer.from('{"offset": 20}').toString('base64'),
      'cD0yMDIwLTAxLTAxKzAwJTNBMDAlM0EwMC4wMDAwMDAlMkIwMCUzQTAw', // a DRF-style cursor ("p=2020-01-01...")
    ];
    for (const cursor of cases) {
      expectError(await call('GET', `/v2/plots?page_size=1&cursor=${encodeURIComponent(cursor)}`), 400, 'cursor');
    }
  });

  it('format=api and every other query parameter are carried into next and previous; first page previous null', async () => {
    const first = await call('GET', '/v2/plots?format=api&page_size=1&min_quality=0');
    expect(first.status).toBe(200);
    expect(first.json.previous).toBeNull();
    const next = new URL(first.json.next);
    expect(next.searchParams.get('format')).toBe('api');
    expect(next.searchParams.get('page_size')).toBe('1');
    expect(next.searchParams.get('min_quality')).toBe('0');
    expect(next.searchParams.get('cursor')).toBeTruthy();
    const second = await call('GET', pathOf(first.json.next));
    expect(second.status).toBe(200);
    const prev = new URL(second.json.previous);
    expect(prev.searchParams.get('format')).toBe('api');
    expect(prev.searchParams.get('page_size')).toBe('1');
    expect(prev.searchParams.get('cursor')).toBeTruthy();
    expect(second.json.results[0].fid).not.toBe(first.json.results[0].fid);
  });

  it('keyset paging: next then previous returns the same page; no plot twice in a walk', async () => {
    const q = 'min_quality=10&page_size=1';
    const page1 = await call('GET', `/v2/plots?${q}`);
    const page2 = await call('GET', pathOf(page1.json.next));
    const back = await call('GET', pathOf(page2.json.previous));
    expect(back.json.results.map((r: Rec) => r.fid)).toEqual(page1.json.results.map((r: Rec) => r.fid));
    expect(back.json.next).toBeTruthy();
    const all = await walk(`/v2/plots?${q}`);
    const fids = all.map((r) => r.fid);
    expect(new Set(fids).size).toBe(fids.length);
  });

  it('default order is newest first (across pages)', async () => {
    const all = await walk('/v2/plots?min_quality=10&page_size=2');
    expect(mine(all, alice.username)).toEqual([p[2].fid, p[1].fid, p[0].fid]);
    const times = all.map((r) => Date.parse(r.creation_time));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
  });

  it('order_by=-views: most viewed first, ties newest first (across pages)', async () => {
    const all = await walk('/v2/plots?min_quality=10&order_by=-views&page_size=2');
    expect(mine(all, alice.username)).toEqual([p[1].fid, p[2].fid, p[0].fid]);
    for (let i = 1; i < all.length; i++) expect(all[i].views).toBeLessThanOrEqual(all[i - 1].views);
    expect(all.find((r) => r.fid === p[1].fid)?.views).toBe(9);
  });

  it('order_by=views: least viewed first, ties newest first (across pages)', async () => {
    const all = await walk('/v2/plots?min_quality=10&order_by=views&page_size=2');
    expect(mine(all, alice.username)).toEqual([p[2].fid, p[0].fid, p[1].fid]);
    for (let i = 1; i < all.length; i++) expect(all[i].views).toBeGreaterThanOrEqual(all[i - 1].views);
  });

  it('order_by=-views with previous: walking back gives the page before', async () => {
    const page1 = await call('GET', '/v2/plots?min_quality=10&order_by=-views&page_size=1');
    const page2 = await call('GET', pathOf(page1.json.next));
    expect(new URL(page2.json.previous).searchParams.get('order_by')).toBe('-views');
    const back = await call('GET', pathOf(page2.json.previous));
    expect(back.json.results.map((r: Rec) => r.fid)).toEqual(page1.json.results.map((r: Rec) => r.fid));
  });

  it.each([
    ['min_quality=10', [0, 1, 2]],
    ['max_quality=4', [3]],
    ['min_quality=4&max_quality=4', [3]],
    ['min_quality=4&max_quality=10', [0, 1, 2, 3]],
    ['min_quality=11', []],
    ['max_quality=3', []],
  ] as [string, number[]][])('?%s keeps the plots with that quality', async (query, which) => {
    const all = await walk(`/v2/plots?${query}&page_size=100`);
    expect(mine(all, alice.username).sort()).toEqual(which.map((i) => p[i].fid).sort());
  });

  it('only public, live plots are listed: never private, secret, trashed or deleted ones', async () => {
    const bob = await newUser('only');
    const g = await uploadGrid(bob, { x: [1], y: [2] });
    const pub = await createPlot(bob, { figure: { data: [scatter(g)] } });
    const priv = await createPlot(bob, { figure: { data: [scatter(g)] }, world_readable: false });
    const secret = await createPlot(bob, { figure: { data: [scatter(g)] }, world_readable: false, share_key_enabled: true });
    const trashed = await createPlot(bob, { figure: { data: [scatter(g)] } });
    const deleted = await createPlot(bob, { figure: { data: [scatter(g)] } });
    expect((await call('POST', `/v2/plots/${trashed.fid}/trash`, { user: bob })).status).toBe(200);
    expect((await call('DELETE', `/v2/plots/${deleted.fid}/permanent_delete`, { user: bob })).status).toBe(204);
    expect([priv.fid, secret.fid]).toHaveLength(2);
    for (const query of ['', '&order_by=-views', '&order_by=views', '&min_quality=0']) {
      for (const who of [null, bob]) {
        const all = await walk(`/v2/plots?page_size=100${query}`, { user: who });
        expect(mine(all, bob.username), `${query} as ${who ? 'owner' : 'anonymous'}`).toEqual([pub.fid]);
      }
    }
  });
});
