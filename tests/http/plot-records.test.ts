// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// Plot records (field set, formats, URL forms).
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, createPlot, expectError, newUser, uploadGrid, type Answer, type TestUser } from '../support/api';
import {
  CREATION_TIME,
  DATE_JOINED,
  DATE_MODIFIED,
  DETAIL_KEYS,
  expectedDetail,
  expectedRecord,
  findListed,
  HIDDEN_USER_FIELDS,
  keysOf,
  LIST_KEYS,
  n,
  pathOf,
  scatter,
  SECRET_DETAIL_KEYS,
  type Grid,
  type Rec,
} from '../support/plots';

const USER_KEYS = ['username', 'profile_url', 'avatar_url', 'background_url', 'bio', 'nickname', 'website', 'date_joined', ...HIDDEN_USER_FIELDS].sort();

const FORWARDED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'plots.example.org' };
const FORWARDED_ORIGIN = 'https://plots.example.org';

/** Time fields: the formats of the spec, and recent. */
function expectTimes(rec: Rec): void {
  expect(rec.creation_time).toMatch(CREATION_TIME);
  expect(rec.date_modified).toMatch(DATE_MODIFIED);
  expect(rec.user.date_joined).toMatch(DATE_JOINED);
  const now = Date.now();
  for (const t of [rec.creation_time, rec.date_modified, `${rec.user.date_joined.replace(' ', 'T')}Z`]) {
    expect(Math.abs(Date.parse(t) - now)).toBeLessThan(10 * 60_000);
  }
}

/** Every string in a value that looks like a URL. */
function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^[a-z]+:\/\//.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) urlsIn(v, out);
  return out;
}

describe('plot records: the spec 2.1 field set, formats and URL forms', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;
  let figure: Rec;
  let plot: Rec;
  let created: Answer;

  beforeAll(async () => {
    alice = await newUser('rec');
    bob = await newUser('recb');
    grid = await uploadGrid(alice, { x: [1, 2, 3], y: [4, 5, 6] });
    figure = {
      data: [scatter(grid, { mode: 'lines', name: 'first', marker: { color: 'red' } })],
      layout: { title: { text: 'Record title' }, width: 640, height: 480, autosize: false, xaxis: { range: [0, 4] } },
    };
    created = await call('POST', '/v2/plots', { user: alice, body: { figure, filename: 'record plot', caption: 'a caption' } });
    expect(created.status).toBe(200);
    plot = created.json.file;
  });

  const known = () => ({ filename: 'record plot', figure, title: 'Record title', caption: 'a caption', width: 640, height: 480, autosize: false });

  it('create answers 200 with {"file": detail record} and fid owner:2 after the grid owner:1', async () => {
    expect(grid.fid).toBe(`${alice.username}:1`);
    expect(keysOf(created.json)).toEqual(['file']);
    expect(created.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(plot).toEqual(expectedDetail(alice.username, 2, { ...known(), permission: 'write' }));
    expect(keysOf(plot)).toEqual(DETAIL_KEYS);
    expectTimes(plot);
  });

  const views: { name: string; keys: string[]; get: () => Promise<Rec | undefined>; permission: 'read' | 'write' }[] = [
    { name: 'detail, anonymous', keys: DETAIL_KEYS, permission: 'read', get: async () => (await call('GET', `/v2/plots/${plot.fid}`)).json },
    { name: 'detail, another user', keys: DETAIL_KEYS, permission: 'read', get: async () => (await call('GET', `/v2/plots/${plot.fid}`, { user: bob })).json },
    { name: 'detail, the owner', keys: DETAIL_KEYS, permission: 'write', get: async () => (await call('GET', `/v2/plots/${plot.fid}`, { user: alice })).json },
    { name: 'list, anonymous', keys: LIST_KEYS, permission: 'read', get: () => findListed('/v2/plots?page_size=100', plot.fid) },
    { name: 'list, another user', keys: LIST_KEYS, permission: 'read', get: () => findListed('/v2/plots?page_size=100', plot.fid, bob) },
    { name: 'list, the owner', keys: LIST_KEYS, permission: 'write', get: () => findListed('/v2/plots/?page_size=100', plot.fid, alice) },
    {
      name: 'list by -views, the owner',
      keys: LIST_KEYS,
      permission: 'write',
      get: () => findListed('/v2/plots?order_by=-views&page_size=100', plot.fid, alice),
    },
  ];

  it.each(views)('$name: exactly the field set, values and current_user_permission', async ({ keys, get, permission }) => {
    const rec = await get();
    expect(rec, 'record not found').toBeDefined();
    expect(keysOf(rec!)).toEqual(keys);
    expect(keysOf(rec!.user)).toEqual(USER_KEYS);
    const expected =
      keys === DETAIL_KEYS ? expectedDetail(alice.username, 2, { ...known(), permission }) : expectedRecord(alice.username, 2, { ...known(), permission });
    expect(rec).toEqual(expected);
    expect(rec!.creation_time).toBe(plot.creation_time);
    expectTimes(rec!);
  });

  it('a list record is the detail record without share_url, content_url and source_fid', async () => {
    const detail = (await call('GET', `/v2/plots/${plot.fid}`, { user: bob })).json;
    const listed = await findListed('/v2/plots?page_size=100', plot.fid, bob);
    const { share_url: _s, content_url: _c, source_fid: _f, ...rest } = detail;
    expect(listed).toEqual(rest);
  });

  it('user: the hidden fields are null, also for the owner reading their own plot', async () => {
    for (const who of [null, alice, bob]) {
      const rec = (await call('GET', `/v2/plots/${plot.fid}`, { user: who })).json;
      for (const k of HIDDEN_USER_FIELDS) expect(rec.user[k], `user.${k}`).toBeNull();
      expect(rec.user.username).toBe(alice.username);
    }
  });

  it('creation_time has microseconds, date_modified milliseconds, date_joined seconds, all UTC and consistent', async () => {
    const rec = (await call('GET', `/v2/plots/${plot.fid}`)).json;
    expect(rec.creation_time).toMatch(CREATION_TIME);
    expect(rec.date_modified).toMatch(DATE_MODIFIED);
    // Created and not modified since: the same instant to the millisecond.
    expect(rec.date_modified.slice(0, 23)).toBe(rec.creation_time.slice(0, 23));
    expect(Date.parse(`${rec.user.date_joined.replace(' ', 'T')}Z`)).toBeLessThanOrEqual(Date.parse(rec.creation_time));
  });

  it('X-Forwarded-Proto/Host change the origin of every emitted URL (create, detail, list, page links, PUT)', async () => {
    const headers = FORWARDED;
    const grid2 = await uploadGrid(alice, { x: [1], y: [2] });
    const fig = { data: [scatter(grid2)], layout: {} };
    const res = await call('POST', '/v2/plots', { user: alice, body: { figure: fig, filename: 'forwarded' }, headers });
    expect(res.status).toBe(200);
    const num = n(res.json.file.fid);
    expect(res.json.file).toEqual(expectedDetail(alice.username, num, { filename: 'forwarded', figure: fig, permission: 'write' }, FORWARDED_ORIGIN));
    const detail = await call('GET', `/v2/plots/${res.json.file.fid}`, { headers });
    expect(detail.json).toEqual(expectedDetail(alice.username, num, { filename: 'forwarded', figure: fig, permission: 'read' }, FORWARDED_ORIGIN));
    const put = await call('PUT', `/v2/plots/${res.json.file.fid}`, { user: alice, body: { caption: 'c' }, headers });
    expect(put.json).toEqual(expectedDetail(alice.username, num, { filename: 'forwarded', figure: fig, caption: 'c', permission: 'write' }, FORWARDED_ORIGIN));
    const listed = await findListed('/v2/plots?page_size=100', res.json.file.fid, null, headers);
    expect(listed).toEqual(expectedRecord(alice.username, num, { filename: 'forwarded', figure: fig, caption: 'c', permission: 'read' }, FORWARDED_ORIGIN));
    const page = await call('GET', '/v2/plots?page_size=1', { headers });
    expect(page.json.next).toMatch(/^https:\/\/plots\.example\.org\/v2\/plots\?/);
    const page2 = await call('GET', pathOf(page.json.next), { headers });
    expect(page2.json.previous).toMatch(/^https:\/\/plots\.example\.org\/v2\/plots\?/);
    for (const text of [res.text, detail.text, put.text, page.text, page2.text]) {
      expect(text).not.toContain(new URL(baseUrl()).host);
    }
    for (const url of urlsIn([res.json, detail.json, put.json, page.json, page2.json])) expect(url.startsWith(`${FORWARDED_ORIGIN}/`), url).toBe(true);
  });

  it('without forwarding headers every emitted URL starts with the request origin', async () => {
    const detail = (await call('GET', `/v2/plots/${plot.fid}`)).json;
    const urls = urlsIn(detail);
    expect(urls.length).toBeGreaterThanOrEqual(15);
    for (const url of urls) expect(url.startsWith(`${baseUrl()}/`), url).toBe(true);
  });

  const titles: { name: string; body: (g: Grid) => Rec; title: string }[] = [
    { name: 'layout.title as a string', title: 'String title', body: (g) => ({ figure: { data: [scatter(g)], layout: { title: 'String title' } } }) },
    {
      name: 'layout.title as {text}',
      title: 'Object title',
      body: (g) => ({ figure: { data: [scatter(g)], layout: { title: { text: 'Object title', x: 0.5 } } } }),
    },
    {
      name: 'explicit title wins over layout',
      title: 'Explicit',
      body: (g) => ({ title: 'Explicit', figure: { data: [scatter(g)], layout: { title: { text: 'Layout' } } } }),
    },
    { name: 'explicit empty title wins over layout', title: '', body: (g) => ({ title: '', figure: { data: [scatter(g)], layout: { title: 'Layout' } } }) },
    {
      name: 'explicit title without layout title',
      title: 'Only explicit',
      body: (g) => ({ title: 'Only explicit', figure: { data: [scatter(g)], layout: {} } }),
    },
    { name: 'no title anywhere', title: '', body: (g) => ({ figure: { data: [scatter(g)], layout: { xaxis: { title: { text: 'axis title' } } } } }) },
    { name: 'layout.title without text', title: '', body: (g) => ({ figure: { data: [scatter(g)], layout: { title: { font: { size: 20 } } } } }) },
    { name: 'no layout at all', title: '', body: (g) => ({ figure: { data: [scatter(g)] } }) },
  ];

  it.each(titles)('title: $name → "$title" (create answer, detail and list)', async ({ body, title }) => {
    const rec = await createPlot(alice, body(grid));
    expect(rec.title).toBe(title);
    expect((await call('GET', `/v2/plots/${rec.fid}`)).json.title).toBe(title);
    expect((await findListed('/v2/plots?page_size=100', rec.fid))?.title).toBe(title);
  });

  it('width, height and autosize come from the layout', async () => {
    const a = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { width: 800, height: 600, autosize: true } } });
    expect([a.width, a.height, a.autosize]).toEqual([800, 600, true]);
    const b = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { width: 300, height: 200, autosize: false } } });
    expect([b.width, b.height, b.autosize]).toEqual([300, 200, false]);
    const c = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} } });
    expect([c.width, c.height]).toEqual([null, null]);
  });

  it('a record without frames keeps its figure as given; one with frames keeps them', async () => {
    const fig = { data: [scatter(grid)], layout: { title: 'f' }, frames: [{ name: 'a', data: [{ ysrc: grid.src('x') }] }] };
    const rec = await createPlot(alice, { figure: fig });
    expect(rec.figure).toEqual(fig);
    expect((await call('GET', `/v2/plots/${rec.fid}`)).json.figure).toEqual(fig);
  });

  it('a secret plot: the owner gets share_key and the share_url; others reading by key do not get the key', async () => {
    const res = await call('POST', '/v2/plots', {
      user: alice,
      body: { figure: { data: [scatter(grid)], layout: {} }, filename: 'secret record', world_readable: false, share_key_enabled: true },
    });
    expect(res.status).toBe(200);
    const rec = res.json.file;
    expect(keysOf(rec)).toEqual(SECRET_DETAIL_KEYS);
    expect(typeof rec.share_key).toBe('string');
    expect(rec.share_key.length).toBeGreaterThan(0);
    const key = rec.share_key as string;
    const fig = { data: [scatter(grid)], layout: {} };
    expect(rec).toEqual(
      expectedDetail(alice.username, n(rec.fid), { filename: 'secret record', figure: fig, permission: 'write', worldReadable: false, shareKey: key }),
    );
    const owner = await call('GET', `/v2/plots/${rec.fid}`, { user: alice });
    expect(owner.json).toEqual(rec);
    const anon = await call('GET', `/v2/plots/${rec.fid}?share_key=${encodeURIComponent(key)}`);
    expect(anon.status).toBe(200);
    expect(keysOf(anon.json)).toEqual(DETAIL_KEYS);
    expect(anon.json.current_user_permission).toBe('read');
    const other = await call('GET', `/v2/plots/${rec.fid}?share_key=${encodeURIComponent(key)}`, { user: bob });
    expect(other.status).toBe(200);
    expect(keysOf(other.json)).toEqual(DETAIL_KEYS);
    expect(other.json.share_key).toBeUndefined();
  });

  it('private plots: 404 for anonymous and other users (the same 404 as a missing fid), 200 for the owner', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} }, world_readable: false });
    const missing = await call('GET', `/v2/plots/${alice.username}:99999`);
    expectError(missing, 404);
    for (const who of [null, bob]) {
      const res = await call('GET', `/v2/plots/${rec.fid}`, { user: who });
      expectError(res, 404);
      expect(res.json).toEqual(missing.json);
    }
    const wrongKey = await call('GET', `/v2/plots/${rec.fid}?share_key=nope`);
    expectError(wrongKey, 404);
    const own = await call('GET', `/v2/plots/${rec.fid}`, { user: alice });
    expect(own.status).toBe(200);
    expect(own.json.world_readable).toBe(false);
    expect(own.json.current_user_permission).toBe('write');
    expect(own.json.share_key).toBeUndefined();
  });

  it.each([
    ['a malformed fid', () => '/v2/plots/not-a-fid'],
    ['a zero number', () => `/v2/plots/${alice.username}:0`],
    ['a fractional number', () => `/v2/plots/${alice.username}:2.5`],
    ['a missing number', () => `/v2/plots/${alice.username}:424242`],
    ['a missing owner', () => '/v2/plots/nosuchuser0000:1'],
    ['a grid fid', () => `/v2/plots/${grid.fid}`],
  ])('detail of %s is 404 with the error body', async (_name, path) => {
    expectError(await call('GET', path()), 404);
  });
});
