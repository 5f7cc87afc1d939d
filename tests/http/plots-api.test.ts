// The plots endpoints over HTTP against plots-endpoint.md (the user's spec) and API.md (the contract).
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, plots, users } from '@/db/schema';
import { appDatabase, baseUrl, call, createPlot, expectError, newUser, uploadGrid, type Answer, type TestUser } from '../support/api';

type Rec = Record<string, any>;
type Grid = Awaited<ReturnType<typeof uploadGrid>>;

// ---------------------------------------------------------------------------------------------
// Helpers

const LIST_KEYS = [
  'creation_time', 'date_modified', 'comments', 'stars', 'collaborators', 'parented', 'embed_url', 'fid', 'filename',
  'filetype', 'img_url', 'image_urls', 'api_urls', 'owner', 'parent', 'preview', 'referencers', 'references', 'title',
  'views', 'web_url', 'world_readable', 'share_key_enabled', 'subfolder_count', 'refresh_interval', 'organize_view_url',
  'current_user_permission', 'is_theme', 'is_template', 'autosize', 'caption', 'figure', 'height', 'width', 'user',
].sort();
const DETAIL_KEYS = [...LIST_KEYS, 'share_url', 'content_url', 'source_fid'].sort();
const SECRET_DETAIL_KEYS = [...DETAIL_KEYS, 'share_key'].sort();
const HIDDEN_USER_FIELDS = [
  'stream_tokens', 'feature_set_id', 'csrf_token', 'map_access_tokens', 'has_password', 'email', 'is_active', 'readonly',
  'is_dash_creator', 'dash_created_count', 'is_chart_creator', 'charts_created_count',
];
const USER_KEYS = ['username', 'profile_url', 'avatar_url', 'background_url', 'bio', 'nickname', 'website', 'date_joined', ...HIDDEN_USER_FIELDS].sort();

const CREATION_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DATE_MODIFIED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DATE_JOINED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const EMPTY = { results: [], count: 0 };
const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';
const AUTH_REQUIRED = 'Authentication credentials were not provided.';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keysOf = (o: object) => Object.keys(o).sort();
const n = (fid: string) => Number(fid.split(':')[1]);
/** A path (with query) from an absolute URL the service emitted. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const FORWARDED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'plots.example.org' };
const FORWARDED_ORIGIN = 'https://plots.example.org';

/** The full record the contract fixes for a plot; `extra` holds the fields whose values the test knows. */
function expectedRecord(
  owner: string,
  num: number,
  extra: { filename: string; figure: unknown; permission: 'read' | 'write'; title?: string; caption?: string; parent?: number; worldReadable?: boolean; shareKeyEnabled?: boolean; views?: number; width?: number | null; height?: number | null; autosize?: boolean; isTheme?: unknown; isTemplate?: unknown },
  origin = baseUrl(),
): Rec {
  const base = `${origin}/~${owner}/${num}`;
  const fid = `${owner}:${num}`;
  const parent = extra.parent ?? -1;
  return {
    creation_time: expect.stringMatching(CREATION_TIME),
    date_modified: expect.stringMatching(DATE_MODIFIED),
    comments: EMPTY,
    stars: EMPTY,
    collaborators: EMPTY,
    parented: parent !== -1,
    embed_url: `${base}.embed`,
    fid,
    filename: extra.filename,
    filetype: 'plot',
    img_url: `${base}.png?size=list-thumb`,
    image_urls: { default: `${base}.png`, 'block-thumb': `${base}.png?size=block-thumb`, 'list-thumb': `${base}.png?size=list-thumb` },
    api_urls: {
      files: `${origin}/v2/files/${fid}`,
      plots: `${origin}/v2/plots/${fid}`,
      parent: parent === -1 ? `${origin}/v2/folders/home?user=${owner}` : `${origin}/v2/folders/${owner}:${parent}`,
    },
    owner,
    parent,
    preview: '',
    referencers: [],
    references: [],
    title: extra.title ?? '',
    views: extra.views ?? 0,
    web_url: `${base}/`,
    world_readable: extra.worldReadable ?? true,
    share_key_enabled: extra.shareKeyEnabled ?? false,
    subfolder_count: null,
    refresh_interval: null,
    organize_view_url: `${origin}/~${owner}/`,
    current_user_permission: extra.permission,
    is_theme: extra.isTheme ?? null,
    is_template: extra.isTemplate ?? null,
    autosize: extra.autosize ?? expect.any(Boolean),
    caption: extra.caption ?? '',
    figure: extra.figure,
    height: extra.height === undefined ? null : extra.height,
    width: extra.width === undefined ? null : extra.width,
    user: expectedUser(owner, origin),
  };
}

function expectedUser(owner: string, origin = baseUrl()): Rec {
  return {
    username: owner,
    profile_url: `${origin}/~${owner}/`,
    avatar_url: expect.stringMatching(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/`)),
    background_url: expect.stringMatching(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/`)),
    bio: '',
    nickname: '',
    website: '',
    date_joined: expect.stringMatching(DATE_JOINED),
    ...Object.fromEntries(HIDDEN_USER_FIELDS.map((k) => [k, null])),
  };
}

function expectedDetail(owner: string, num: number, extra: Parameters<typeof expectedRecord>[2] & { sourceFid?: string | null; shareKey?: string }, origin = baseUrl()): Rec {
  const rec = expectedRecord(owner, num, { shareKeyEnabled: extra.shareKey !== undefined, ...extra }, origin);
  const fid = `${owner}:${num}`;
  return {
    ...rec,
    share_url: extra.shareKey ? `${rec.web_url}?share_key=${extra.shareKey}` : rec.web_url,
    content_url: `${origin}/v2/plots/${fid}/content`,
    source_fid: extra.sourceFid ?? null,
    ...(extra.shareKey ? { share_key: extra.shareKey } : {}),
  };
}

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

/** Walks a page list from `path` along `next`, returning every record (at most `maxPages` pages). */
async function walk(path: string, opts: { user?: TestUser | null; headers?: Record<string, string>; maxPages?: number } = {}): Promise<Rec[]> {
  const out: Rec[] = [];
  let next: string | null = path;
  for (let page = 0; next && page < (opts.maxPages ?? 1000); page++) {
    const res: Answer = await call('GET', next, { user: opts.user, headers: opts.headers });
    if (res.status !== 200) throw new Error(`walk ${next}: ${res.status} ${res.text.slice(0, 300)}`);
    out.push(...res.json.results);
    next = res.json.next ? pathOf(res.json.next) : null;
  }
  return out;
}

const mine = (records: Rec[], owner: string) => records.filter((r) => r.owner === owner).map((r) => r.fid);

/** The first list record with `fid`, walking from `path`. */
async function findListed(path: string, fid: string, user?: TestUser | null, headers?: Record<string, string>): Promise<Rec | undefined> {
  let next: string | null = path;
  while (next) {
    const res: Answer = await call('GET', next, { user, headers });
    if (res.status !== 200) throw new Error(`list ${next}: ${res.status} ${res.text.slice(0, 300)}`);
    const hit = res.json.results.find((r: Rec) => r.fid === fid);
    if (hit) return hit;
    next = res.json.next ? pathOf(res.json.next) : null;
  }
  return undefined;
}

async function fileIdOf(fid: string): Promise<number> {
  const { db } = await appDatabase();
  const [owner, num] = fid.split(':');
  const [row] = await db
    .select({ id: files.id })
    .from(files)
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(and(eq(users.username, owner), eq(files.n, Number(num))));
  if (!row) throw new Error(`no file ${fid}`);
  return row.id;
}

async function setPlot(fid: string, changes: Partial<{ views: number; quality: number; handpicked: boolean }>): Promise<void> {
  const { db } = await appDatabase();
  await db.update(plots).set(changes).where(eq(plots.fileId, await fileIdOf(fid)));
}

/** How many files (of any type, live or trashed) and plots a user owns in the database. */
async function counts(user: TestUser): Promise<{ files: number; plots: number }> {
  const { db } = await appDatabase();
  const [f] = await db
    .select({ c: sql<number>`count(*)::int` })
    .from(files)
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(eq(users.username, user.username));
  const [p] = await db
    .select({ c: sql<number>`count(*)::int` })
    .from(plots)
    .innerJoin(files, eq(files.id, plots.fileId))
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(eq(users.username, user.username));
  return { files: Number(f.c), plots: Number(p.c) };
}

async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { redirect: 'manual', headers });
  await res.arrayBuffer();
  return res.status;
}

const scatter = (g: Grid, extra: Rec = {}) => ({ type: 'scatter', xsrc: g.src('x'), ysrc: g.src('y'), ...extra });
const typedF8 = (values: number[]) => ({ dtype: 'f8', bdata: Buffer.from(new Float64Array(values).buffer).toString('base64') });

/** Every string in a value that looks like a URL. */
function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^[a-z]+:\/\//.test(value)) out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => urlsIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => urlsIn(v, out));
  return out;
}

// ---------------------------------------------------------------------------------------------
// 1. Record shape

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
    { name: 'list by -views, the owner', keys: LIST_KEYS, permission: 'write', get: () => findListed('/v2/plots?order_by=-views&page_size=100', plot.fid, alice) },
  ];

  it.each(views)('$name: exactly the field set, values and current_user_permission', async ({ keys, get, permission }) => {
    const rec = await get();
    expect(rec, 'record not found').toBeDefined();
    expect(keysOf(rec!)).toEqual(keys);
    expect(keysOf(rec!.user)).toEqual(USER_KEYS);
    const expected = keys === DETAIL_KEYS ? expectedDetail(alice.username, 2, { ...known(), permission }) : expectedRecord(alice.username, 2, { ...known(), permission });
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
    { name: 'layout.title as {text}', title: 'Object title', body: (g) => ({ figure: { data: [scatter(g)], layout: { title: { text: 'Object title', x: 0.5 } } } }) },
    { name: 'explicit title wins over layout', title: 'Explicit', body: (g) => ({ title: 'Explicit', figure: { data: [scatter(g)], layout: { title: { text: 'Layout' } } } }) },
    { name: 'explicit empty title wins over layout', title: '', body: (g) => ({ title: '', figure: { data: [scatter(g)], layout: { title: 'Layout' } } }) },
    { name: 'explicit title without layout title', title: 'Only explicit', body: (g) => ({ title: 'Only explicit', figure: { data: [scatter(g)], layout: {} } }) },
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
    expect(rec).toEqual(expectedDetail(alice.username, n(rec.fid), { filename: 'secret record', figure: fig, permission: 'write', worldReadable: false, shareKey: key }));
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

// ---------------------------------------------------------------------------------------------
// 2. Every URL a record emits answers

describe('every URL a plot record emits answers 200', () => {
  let alice: TestUser;
  let pub: Rec;
  let foldered: Rec;
  let secret: Rec;

  beforeAll(async () => {
    alice = await newUser('urls');
    const grid = await uploadGrid(alice, { x: [1, 2], y: [3, 4] });
    pub = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} }, filename: 'urls public' });
    const folder = await call('POST', '/v2/folders', { user: alice, body: { path: 'dir/sub' } });
    expect(folder.status).toBe(201);
    foldered = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} }, filename: 'urls foldered', parent_path: 'dir/sub' });
    secret = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} }, filename: 'urls secret', world_readable: false, share_key_enabled: true });
  });

  const fields: [string, (r: Rec) => string][] = [
    ['web_url', (r) => r.web_url],
    ['web_url without its trailing slash', (r) => r.web_url.slice(0, -1)],
    ['embed_url', (r) => r.embed_url],
    ['img_url', (r) => r.img_url],
    ['image_urls.default', (r) => r.image_urls.default],
    ['image_urls.block-thumb', (r) => r.image_urls['block-thumb']],
    ['image_urls.list-thumb', (r) => r.image_urls['list-thumb']],
    ['api_urls.files', (r) => r.api_urls.files],
    ['api_urls.plots', (r) => r.api_urls.plots],
    ['api_urls.parent', (r) => r.api_urls.parent],
    ['organize_view_url', (r) => r.organize_view_url],
    ['user.profile_url', (r) => r.user.profile_url],
    ['user.avatar_url', (r) => r.user.avatar_url],
    ['user.background_url', (r) => r.user.background_url],
    ['content_url', (r) => r.content_url],
    ['share_url', (r) => r.share_url],
  ];

  it.each(fields)('public plot: %s answers 200 anonymously', async (_name, pick) => {
    const detail = (await call('GET', `/v2/plots/${pub.fid}`)).json;
    expect(await status(pick(detail))).toBe(200);
  });

  it.each(fields)('plot in a folder: %s answers 200 anonymously', async (_name, pick) => {
    const detail = (await call('GET', `/v2/plots/${foldered.fid}`)).json;
    expect(await status(pick(detail))).toBe(200);
  });

  it('the plot in a folder names the folder as parent, and api_urls.parent is that folder', async () => {
    const detail = (await call('GET', `/v2/plots/${foldered.fid}`)).json;
    expect(detail.parented).toBe(true);
    const folder = await call('GET', pathOf(detail.api_urls.parent));
    expect(folder.status).toBe(200);
    expect(folder.json.fid).toBe(`${alice.username}:${detail.parent}`);
    expect(folder.json.filename).toBe('sub');
  });

  it('api_urls.files and api_urls.plots describe the same plot', async () => {
    const detail = (await call('GET', `/v2/plots/${pub.fid}`)).json;
    const viaFiles = await call('GET', pathOf(detail.api_urls.files));
    expect(viaFiles.json.fid).toBe(pub.fid);
    expect(viaFiles.json.filetype).toBe('plot');
    const viaPlots = await call('GET', pathOf(detail.api_urls.plots));
    expect(viaPlots.json).toEqual(detail);
  });

  it('secret plot: the client-built secret link web_url[:-1] + "?share_key=" + key answers 200 anonymously', async () => {
    const key = secret.share_key as string;
    expect(await status(`${secret.web_url.slice(0, -1)}?share_key=${key}`)).toBe(200);
    expect(await status(secret.share_url)).toBe(200);
    expect(await status(`${secret.content_url}?share_key=${key}`)).toBe(200);
    expect(await status(`${secret.image_urls.default}?share_key=${key}`)).toBe(200);
    expect(await status(`${secret.embed_url}?share_key=${key}`)).toBe(200);
  });

  it('secret plot: without the key (or with a wrong one) its pages are the 404 of a missing file', async () => {
    const missingWeb = `${baseUrl()}/~${alice.username}/99999/`;
    expect(await status(missingWeb)).toBe(404);
    expect(await status(secret.web_url)).toBe(404);
    expect(await status(`${secret.web_url.slice(0, -1)}?share_key=wrong`)).toBe(404);
    expect(await status(secret.content_url)).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Create rules

describe('POST /v2/plots: create rules', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;
  let bobPrivate: Grid;
  let bobPublic: Grid;
  let deletedGrid: Grid;
  let bobPrivatePlot: Rec;
  let bobPublicPlot: Rec;
  let alicePlot: Rec;

  beforeAll(async () => {
    alice = await newUser('create');
    bob = await newUser('createb');
    grid = await uploadGrid(alice, { x: [1, 2, 3], y: [4, 5, 6], c: [7, 8, 9] });
    deletedGrid = await uploadGrid(alice, { x: [1], y: [2] });
    expect((await call('DELETE', `/v2/grids/${deletedGrid.fid}`, { user: alice })).status).toBe(204);
    bobPrivate = await uploadGrid(bob, { x: [1], y: [2] }, { world_readable: false });
    bobPublic = await uploadGrid(bob, { x: [1], y: [2] });
    bobPrivatePlot = await createPlot(bob, { figure: { data: [scatter(bobPublic)], layout: {} }, world_readable: false });
    bobPublicPlot = await createPlot(bob, { figure: { data: [scatter(bobPublic)], layout: {} } });
    alicePlot = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} } });
  });

  /** A failed create: the status, the error body naming every needle, and nothing created. */
  async function rejected(user: TestUser, body: unknown, statusCode: number, ...needles: string[]): Promise<Answer> {
    const before = await counts(user);
    const res = await call('POST', '/v2/plots', { user, body });
    expectError(res, statusCode);
    for (const needle of needles) expect(res.json.detail, `message names ${needle}`).toContain(needle);
    expect(await counts(user)).toEqual(before);
    return res;
  }

  it('no figure (an empty body object) is 400 with message "figure: This field is required."', async () => {
    const res = await rejected(alice, {}, 400);
    expect(res.json.detail).toBe('figure: This field is required.');
    expect(res.json.errors).toHaveLength(1);
    expect(res.json.errors[0]).toMatchObject({ code: 'INVALID', message: 'figure: This field is required.', field: 'figure' });
  });

  it('no figure: the body is exactly the contract\'s example error body', async () => {
    const res = await call('POST', '/v2/plots', { user: alice, body: {} });
    expect(res.json).toEqual({
      errors: [{ code: 'INVALID', message: 'figure: This field is required.', path: null, field: 'figure' }],
      detail: 'figure: This field is required.',
    });
  });

  it('a body with other fields but no figure is 400 "figure: This field is required."', async () => {
    const res = await rejected(alice, { filename: 'nofig', title: 't' }, 400);
    expect(res.json.detail).toBe('figure: This field is required.');
  });

  const shapes: { name: string; figure: unknown; needle: string }[] = [
    { name: 'figure a string', figure: 'data', needle: 'figure' },
    { name: 'figure a number', figure: 5, needle: 'figure' },
    { name: 'figure an array', figure: [{ data: [] }], needle: 'figure' },
    { name: 'figure null', figure: null, needle: 'figure' },
    { name: 'figure true', figure: true, needle: 'figure' },
    { name: 'figure {} (no data)', figure: {}, needle: 'figure.data' },
    { name: 'figure with layout only', figure: { layout: { title: 'x' } }, needle: 'figure.data' },
    { name: 'data a string', figure: { data: 'scatter' }, needle: 'figure.data' },
    { name: 'data an object', figure: { data: { type: 'scatter' } }, needle: 'figure.data' },
    { name: 'data null', figure: { data: null }, needle: 'figure.data' },
    { name: 'data holding a number', figure: { data: [1] }, needle: 'figure.data[0]' },
    { name: 'data holding null', figure: { data: [null] }, needle: 'figure.data[0]' },
    { name: 'data holding a string', figure: { data: ['scatter'] }, needle: 'figure.data[0]' },
    { name: 'data holding an array', figure: { data: [[{ type: 'scatter' }]] }, needle: 'figure.data[0]' },
    { name: 'second trace not an object', figure: { data: [{ type: 'scatter' }, 7] }, needle: 'figure.data[1]' },
    { name: 'layout an array', figure: { data: [], layout: [] }, needle: 'figure.layout' },
    { name: 'layout a string', figure: { data: [], layout: 'big' }, needle: 'figure.layout' },
    { name: 'frames an object', figure: { data: [], frames: { data: [] } }, needle: 'figure.frames' },
    { name: 'frame not an object', figure: { data: [], frames: [3] }, needle: 'figure.frames[0]' },
    { name: 'frame data not an array', figure: { data: [], frames: [{ data: 'x' }] }, needle: 'figure.frames[0].data' },
  ];

  it.each(shapes)('figure shape: $name → 400 naming $needle', async ({ figure, needle }) => {
    await rejected(alice, { figure }, 400, needle);
  });

  const raw: { name: string; figure: (g: Grid) => Rec; path: string }[] = [
    { name: 'y at top level', path: 'figure.data[0].y', figure: () => ({ data: [{ type: 'scatter', y: [1, 2, 3] }] }) },
    { name: 'x in a trace without type (scatter)', path: 'figure.data[0].x', figure: () => ({ data: [{ x: [1, 2] }] }) },
    { name: 'raw y next to a valid xsrc', path: 'figure.data[0].y', figure: (g) => ({ data: [{ type: 'scatter', xsrc: g.src('x'), y: [1] }] }) },
    { name: 'raw x in the second trace', path: 'figure.data[1].x', figure: (g) => ({ data: [scatter(g), { type: 'bar', x: ['a'], ysrc: g.src('y') }] }) },
    { name: 'empty raw array', path: 'figure.data[0].y', figure: () => ({ data: [{ type: 'scatter', y: [] }] }) },
    { name: 'text array (arrayOk)', path: 'figure.data[0].text', figure: (g) => ({ data: [scatter(g, { text: ['a', 'b', 'c'] })] }) },
    { name: 'customdata', path: 'figure.data[0].customdata', figure: (g) => ({ data: [scatter(g, { customdata: [1, 2, 3] })] }) },
    { name: 'nested marker.color', path: 'figure.data[0].marker.color', figure: (g) => ({ data: [scatter(g, { marker: { color: ['red', 'blue', 'green'] } })] }) },
    { name: 'nested marker.size', path: 'figure.data[0].marker.size', figure: (g) => ({ data: [scatter(g, { marker: { size: [1, 2, 3] } })] }) },
    { name: 'nested textfont.size', path: 'figure.data[0].textfont.size', figure: (g) => ({ data: [scatter(g, { textfont: { size: [10, 12, 14] } })] }) },
    { name: 'nested error_y.array', path: 'figure.data[0].error_y.array', figure: (g) => ({ data: [scatter(g, { error_y: { type: 'data', array: [0.1, 0.2, 0.3] } })] }) },
    { name: 'deep marker.line.color', path: 'figure.data[0].marker.line.color', figure: (g) => ({ data: [scatter(g, { marker: { line: { color: ['red'] } } })] }) },
    { name: 'pie values', path: 'figure.data[0].values', figure: (g) => ({ data: [{ type: 'pie', labelssrc: g.src('x'), values: [1, 2, 3] }] }) },
    { name: 'heatmap z (2-d)', path: 'figure.data[0].z', figure: () => ({ data: [{ type: 'heatmap', z: [[1, 2], [3, 4]] }] }) },
    { name: 'candlestick open', path: 'figure.data[0].open', figure: (g) => ({ data: [{ type: 'candlestick', xsrc: g.src('x'), open: [1, 2, 3] }] }) },
    { name: 'choropleth locations', path: 'figure.data[0].locations', figure: () => ({ data: [{ type: 'choropleth', locations: ['FRA'] }] }) },
    { name: 'scatter3d z', path: 'figure.data[0].z', figure: (g) => ({ data: [{ type: 'scatter3d', xsrc: g.src('x'), ysrc: g.src('y'), z: [1, 2, 3] }] }) },
    { name: 'in frames', path: 'figure.frames[0].data[0].y', figure: (g) => ({ data: [scatter(g)], frames: [{ name: 'f0', data: [{ y: [1, 2, 3] }] }] }) },
    { name: 'in a later frame, nested', path: 'figure.frames[1].data[0].marker.color', figure: (g) => ({ data: [scatter(g)], frames: [{ data: [{ ysrc: g.src('y') }] }, { data: [{ marker: { color: [1, 2] } }] }] }) },
    { name: 'parcoords dimensions[0].values', path: 'figure.data[0].dimensions[0].values', figure: () => ({ data: [{ type: 'parcoords', dimensions: [{ label: 'a', values: [1, 2, 3] }] }] }) },
    { name: 'parcoords dimensions[1].values', path: 'figure.data[0].dimensions[1].values', figure: (g) => ({ data: [{ type: 'parcoords', dimensions: [{ valuessrc: g.src('x') }, { values: [4, 5, 6] }] }] }) },
    { name: 'typed array y (f8)', path: 'figure.data[0].y', figure: (g) => ({ data: [{ type: 'scatter', xsrc: g.src('x'), y: typedF8([1, 2, 3]) }] }) },
    { name: 'typed array nested marker.color', path: 'figure.data[0].marker.color', figure: (g) => ({ data: [scatter(g, { marker: { color: { dtype: 'i4', bdata: 'AQAAAAIAAAA=' } } })] }) },
    { name: 'typed array with shape (z)', path: 'figure.data[0].z', figure: () => ({ data: [{ type: 'heatmap', z: { ...typedF8([1, 2, 3, 4]), shape: '2, 2' } }] }) },
    { name: 'typed array in frames', path: 'figure.frames[0].data[0].x', figure: (g) => ({ data: [scatter(g)], frames: [{ data: [{ x: typedF8([1]) }] }] }) },
  ];

  it.each(raw)('raw data: $name → 400 naming $path', async ({ figure, path }) => {
    await rejected(alice, { figure: figure(grid) }, 400, path);
  });

  it('raw data: the message explains the src reference form', async () => {
    const res = await rejected(alice, { figure: { data: [{ type: 'scatter', y: [1, 2] }] } }, 400, 'figure.data[0].y');
    expect(res.json.detail).toMatch(/ysrc/);
  });

  const accepted: { name: string; figure: (g: Grid) => Rec }[] = [
    { name: 'srcs only', figure: (g) => ({ data: [scatter(g)], layout: {} }) },
    { name: 'empty data', figure: () => ({ data: [] }) },
    { name: 'a trace without src (empty scatter)', figure: () => ({ data: [{ type: 'scatter', mode: 'markers', name: 'n' }] }) },
    { name: 'marker.colorscale (settings array)', figure: (g) => ({ data: [scatter(g, { marker: { colorsrc: g.src('c'), colorscale: [[0, 'red'], [1, 'blue']] } })] }) },
    { name: 'heatmap colorscale', figure: (g) => ({ data: [{ type: 'heatmap', zsrc: g.src('x'), colorscale: [[0, '#000'], [1, '#fff']] }] }) },
    { name: 'scalar marker.color and textfont.size', figure: (g) => ({ data: [scatter(g, { marker: { color: 'red', size: 6 }, textfont: { size: 12 } })] }) },
    { name: 'layout xaxis.range and tickvals', figure: (g) => ({ data: [scatter(g)], layout: { xaxis: { range: [0, 10], tickvals: [1, 2, 3], ticktext: ['a', 'b', 'c'] } } }) },
    {
      name: 'layout.template with arrays',
      figure: (g) => ({
        data: [scatter(g)],
        layout: { template: { data: { scatter: [{ type: 'scatter', marker: { color: ['red', 'blue'] } }] }, layout: { colorway: ['#111', '#222'] } } },
      }),
    },
    { name: 'layout annotations and shapes', figure: (g) => ({ data: [scatter(g)], layout: { annotations: [{ x: 1, y: 2, text: 'a' }], shapes: [{ type: 'line', x0: 0, x1: 1 }] } }) },
    { name: 'nested srcs (marker.colorsrc, textfont.sizesrc, error_y.arraysrc)', figure: (g) => ({ data: [scatter(g, { marker: { colorsrc: g.src('c') }, textfont: { sizesrc: g.src('x') }, error_y: { arraysrc: g.src('y') } })] }) },
    { name: 'multi-uid srcs', figure: (g) => ({ data: [{ type: 'heatmap', zsrc: g.src('x', 'y', 'c') }, scatter(g, { xsrc: g.src('y', 'x') })] }) },
    { name: 'parcoords with valuessrc and a range setting', figure: (g) => ({ data: [{ type: 'parcoords', dimensions: [{ label: 'a', valuessrc: g.src('x'), range: [0, 5] }] }] }) },
    { name: 'frames with srcs', figure: (g) => ({ data: [scatter(g)], frames: [{ name: 'f', data: [{ ysrc: g.src('c') }], layout: { xaxis: { range: [0, 1] } } }] }) },
    { name: 'pie labelssrc/valuessrc', figure: (g) => ({ data: [{ type: 'pie', labelssrc: g.src('x'), valuessrc: g.src('y') }] }) },
    { name: 'candlestick open/high/low/close srcs', figure: (g) => ({ data: [{ type: 'candlestick', xsrc: g.src('x'), opensrc: g.src('x'), highsrc: g.src('y'), lowsrc: g.src('x'), closesrc: g.src('c') }] }) },
  ];

  it.each(accepted)('accepted: $name → 200, figure stored as given', async ({ figure }) => {
    const fig = figure(grid);
    const res = await call('POST', '/v2/plots', { user: alice, body: { figure: fig } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.file.figure).toEqual({ layout: {}, ...fig });
    const content = await call('GET', `/v2/plots/${res.json.file.fid}/content`);
    expect(content.json).toEqual({ layout: {}, ...fig });
  });

  it('accepted: a src into another user\'s public grid and into one\'s own private grid', async () => {
    const own = await uploadGrid(alice, { x: [1], y: [2] }, { world_readable: false });
    const res = await call('POST', '/v2/plots', { user: alice, body: { figure: { data: [scatter(bobPublic), scatter(own)] } } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
  });

  const srcs: { name: string; trace: () => Rec; path: string; src?: () => string }[] = [
    { name: 'malformed (no colons)', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: 'nonsense' }), src: () => 'nonsense' },
    { name: 'grid fid without a column', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: grid.fid }), src: () => grid.fid },
    { name: 'non-numeric grid number', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: `${alice.username}:one:abcdef` }), src: () => `${alice.username}:one:abcdef` },
    { name: 'empty uid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: `${grid.fid}:` }), src: () => `${grid.fid}:` },
    { name: 'trailing comma', path: 'figure.data[0].xsrc', trace: () => ({ type: 'scatter', xsrc: `${grid.src('x')},` }), src: () => `${grid.src('x')},` },
    { name: 'a number', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: 42 }) },
    { name: 'an array', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: [grid.src('y')] }) },
    { name: 'another user\'s private grid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: bobPrivate.src('y') }), src: () => bobPrivate.src('y') },
    { name: 'a missing grid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: `${alice.username}:99999:abcdef` }), src: () => `${alice.username}:99999:abcdef` },
    { name: 'a missing owner', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: 'nosuchowner00:1:abcdef' }), src: () => 'nosuchowner00:1:abcdef' },
    { name: 'a deleted grid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: deletedGrid.src('y') }), src: () => deletedGrid.src('y') },
    { name: 'a plot, not a grid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: `${alicePlot.fid}:abcdef` }), src: () => `${alicePlot.fid}:abcdef` },
    { name: 'a missing column uid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: `${grid.fid}:zzzzzz` }), src: () => `${grid.fid}:zzzzzz` },
    { name: 'multi-uid with one missing column', path: 'figure.data[0].xsrc', trace: () => ({ type: 'scatter', xsrc: `${grid.src('x', 'y')},zzzzzz` }), src: () => `${grid.src('x', 'y')},zzzzzz` },
    { name: 'nested marker.colorsrc to a missing grid', path: 'figure.data[0].marker.colorsrc', trace: () => scatter(grid, { marker: { colorsrc: `${alice.username}:88888:abcdef` } }), src: () => `${alice.username}:88888:abcdef` },
    { name: 'a column of another grid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: `${grid.fid}:${bobPublic.file.cols[0].uid}` }), src: () => `${grid.fid}:${bobPublic.file.cols[0].uid}` },
  ];

  it.each(srcs)('bad src: $name → 400 naming $path and the src', async ({ trace, path, src }) => {
    await rejected(alice, { figure: { data: [trace()] } }, 400, path, ...(src ? [src()] : []));
  });

  it('bad src in a frame → 400 naming figure.frames[0].data[0].ysrc', async () => {
    const bad = `${alice.username}:77777:abcdef`;
    await rejected(alice, { figure: { data: [scatter(grid)], frames: [{ data: [{ ysrc: bad }] }] } }, 400, 'figure.frames[0].data[0].ysrc', bad);
  });

  it('bad src in the second trace → 400 naming figure.data[1].ysrc', async () => {
    await rejected(alice, { figure: { data: [scatter(grid), { type: 'bar', ysrc: bobPrivate.src('y') }] } }, 400, 'figure.data[1].ysrc', bobPrivate.src('y'));
  });

  it('source_fid naming a readable plot is kept and echoed canonically in the detail', async () => {
    const res = await call('POST', '/v2/plots', {
      user: alice,
      body: { figure: { data: [scatter(grid)] }, source_fid: bobPublicPlot.fid.toUpperCase() },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.file.source_fid).toBe(bobPublicPlot.fid);
    expect((await call('GET', `/v2/plots/${res.json.file.fid}`)).json.source_fid).toBe(bobPublicPlot.fid);
    const own = await createPlot(alice, { figure: { data: [scatter(grid)] }, source_fid: alicePlot.fid });
    expect(own.source_fid).toBe(alicePlot.fid);
    const none = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect(none.source_fid).toBeNull();
    const nullSource = await createPlot(alice, { figure: { data: [scatter(grid)] }, source_fid: null });
    expect(nullSource.source_fid).toBeNull();
  });

  it('source_fid: the owner may name their own private plot', async () => {
    const rec = await createPlot(bob, { figure: { data: [scatter(bobPublic)] }, source_fid: bobPrivatePlot.fid });
    expect(rec.source_fid).toBe(bobPrivatePlot.fid);
  });

  it.each([
    ['a malformed fid', () => 'nope'],
    ['a missing plot', () => `${bob.username}:99999`],
    ['another user\'s private plot', () => bobPrivatePlot.fid],
    ['a grid', () => grid.fid],
    ['a missing owner', () => 'nosuchowner00:1'],
  ])('source_fid naming %s → 400 naming source_fid', async (_name, value) => {
    await rejected(alice, { figure: { data: [scatter(grid)] }, source_fid: value() }, 400, 'source_fid');
  });

  it('source_fid naming a trashed plot → 400', async () => {
    const gone = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect((await call('POST', `/v2/plots/${gone.fid}/trash`, { user: alice })).status).toBe(200);
    await rejected(alice, { figure: { data: [scatter(grid)] }, source_fid: gone.fid }, 400, 'source_fid');
  });

  it('1000 traces are accepted; 1001 are 400 naming figure.data and the limit', async () => {
    const ok = await call('POST', '/v2/plots', { user: alice, body: { figure: { data: Array.from({ length: 1000 }, () => ({ type: 'scatter' })) } } });
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    await rejected(alice, { figure: { data: Array.from({ length: 1001 }, () => ({ type: 'scatter' })) } }, 400, 'figure.data', '1000');
  });

  it('a duplicate filename is 400 "Sorry, a file named \'...\' already exists"; also against a grid\'s name', async () => {
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'dup name' });
    const res = await rejected(alice, { figure: { data: [scatter(grid)] }, filename: 'dup name' }, 400, 'already exists');
    expect(res.json.detail).toContain("Sorry, a file named 'dup name' already exists");
    await uploadGrid(alice, { a: [1] }, { filename: 'grid name' });
    await rejected(alice, { figure: { data: [scatter(grid)] }, filename: 'grid name' }, 400, 'already exists');
  });

  it('the same filename is fine for another owner, in another folder, and after the old one is trashed', async () => {
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'shared name' });
    expect((await call('POST', '/v2/plots', { user: bob, body: { figure: { data: [scatter(bobPublic)] }, filename: 'shared name' } })).status).toBe(200);
    expect((await call('POST', '/v2/folders', { user: alice, body: { path: 'elsewhere' } })).status).toBe(201);
    const other = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'shared name', parent_path: 'elsewhere' });
    expect(other.filename).toBe('shared name');
    const first = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'reused name' });
    expect((await call('POST', `/v2/plots/${first.fid}/trash`, { user: alice })).status).toBe(200);
    const again = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'reused name' });
    expect(again.filename).toBe('reused name');
  });

  it('parent_path to a missing folder → 400 naming parent_path, nothing created', async () => {
    await rejected(alice, { figure: { data: [scatter(grid)] }, parent_path: 'no/such/folder' }, 400, 'parent_path');
  });

  it('parent_path to another user\'s folder name → 400 (folders are per owner)', async () => {
    expect((await call('POST', '/v2/folders', { user: bob, body: { path: 'bobs folder' } })).status).toBe(201);
    await rejected(alice, { figure: { data: [scatter(grid)] }, parent_path: 'bobs folder' }, 400, 'parent_path');
  });

  it('parent_path to a folder made by POST /v2/folders → 200 with parent = the folder\'s number', async () => {
    const folder = await call('POST', '/v2/folders', { user: alice, body: { path: 'reports/q1' } });
    expect(folder.status).toBe(201);
    const q1 = n(folder.json.file.fid);
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, parent_path: 'reports/q1', filename: 'in q1' });
    expect(rec.parent).toBe(q1);
    expect(rec.parented).toBe(true);
    expect(rec.api_urls.parent).toBe(`${baseUrl()}/v2/folders/${alice.username}:${q1}`);
    const lookup = await call('GET', `/v2/files/lookup?path=${encodeURIComponent('reports/q1/in q1')}`, { user: alice });
    expect(lookup.status).toBe(200);
    expect(lookup.json.fid).toBe(rec.fid);
    const reports = await call('GET', `/v2/files/lookup?path=reports`, { user: alice });
    const top = await createPlot(alice, { figure: { data: [scatter(grid)] }, parent_path: 'reports' });
    expect(top.parent).toBe(n(reports.json.fid));
  });

  it('anonymous create → 401 "Authentication credentials were not provided."', async () => {
    const res = await call('POST', '/v2/plots', { body: { figure: { data: [] } } });
    expectError(res, 401, AUTH_REQUIRED);
    expect(res.json.detail).toBe(AUTH_REQUIRED);
  });

  it('anonymous create without a figure is still 401 (authentication first)', async () => {
    expectError(await call('POST', '/v2/plots', { body: {} }), 401, AUTH_REQUIRED);
  });

  it('a wrong API key → 401 "Bad API key", nothing created', async () => {
    const before = await counts(alice);
    const res = await call('POST', '/v2/plots', { headers: { Authorization: `Basic ${Buffer.from(`${alice.username}:wrongwrongwrongwrong`).toString('base64')}` }, body: { figure: { data: [] } } });
    expectError(res, 401, 'Bad API key');
    expect(await counts(alice)).toEqual(before);
  });

  it('Plotly-Authorization is accepted as the credential', async () => {
    const res = await call('POST', '/v2/plots', { headers: { 'Plotly-Authorization': alice.auth, 'Plotly-Client-Platform': 'python 5.0' }, body: { figure: { data: [] } } });
    expect(res.status).toBe(200);
    expect(res.json.file.owner).toBe(alice.username);
  });

  it.each([
    ['malformed JSON', '{"figure": {', 400],
    ['a JSON array body', '[]', 400],
    ['a JSON null body', 'null', 400],
    ['an empty body', '', 400],
  ] as const)('%s → %i, nothing created', async (_name, raw, code) => {
    const before = await counts(alice);
    expectError(await call('POST', '/v2/plots', { user: alice, raw, headers: { 'Content-Type': 'application/json' } }), code);
    expect(await counts(alice)).toEqual(before);
  });

  it('a non-JSON content type → 415', async () => {
    expectError(await call('POST', '/v2/plots', { user: alice, raw: 'figure=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415);
  });

  it('a body over 10 MiB → 413 naming the limit', async () => {
    const big = JSON.stringify({ figure: { data: [], layout: { pad: 'x'.repeat(10 * 1024 * 1024 + 10) } } });
    const res = await call('POST', '/v2/plots', { user: alice, raw: big, headers: { 'Content-Type': 'application/json' } });
    expectError(res, 413, '10 MiB');
  });

  it('nesting deeper than 100 levels → 400', async () => {
    let deep: Rec = {};
    for (let i = 0; i < 150; i++) deep = { a: deep };
    expectError(await call('POST', '/v2/plots', { user: alice, body: { figure: { data: [], layout: deep } } }), 400);
  });

  it('wrong field types (world_readable, title, filename) → 400 naming the field', async () => {
    await rejected(alice, { figure: { data: [] }, world_readable: 'yes' }, 400, 'world_readable');
    await rejected(alice, { figure: { data: [] }, title: 5 }, 400, 'title');
    await rejected(alice, { figure: { data: [] }, filename: '' }, 400, 'filename');
  });

  it('fids count per owner across grids and plots: grid owner:1, plot owner:2, plot owner:3', async () => {
    const carol = await newUser('fids');
    const g = await uploadGrid(carol, { x: [1], y: [2] });
    expect(g.fid).toBe(`${carol.username}:1`);
    const p1 = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(p1.fid).toBe(`${carol.username}:2`);
    const p2 = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(p2.fid).toBe(`${carol.username}:3`);
    const g2 = await uploadGrid(carol, { x: [1], y: [2] });
    expect(g2.fid).toBe(`${carol.username}:4`);
    const p3 = await createPlot(carol, { figure: { data: [scatter(g2)] } });
    expect(p3.fid).toBe(`${carol.username}:5`);
  });

  it('a new owner\'s first plot (no grid) is owner:1', async () => {
    const dave = await newUser('first');
    const p = await createPlot(dave, { figure: { data: [] } });
    expect(p.fid).toBe(`${dave.username}:1`);
  });

  it('concurrent creates by one owner get distinct numbers', async () => {
    const erin = await newUser('conc');
    const results = await Promise.all(Array.from({ length: 12 }, () => call('POST', '/v2/plots', { user: erin, body: { figure: { data: [] } } })));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const nums = results.map((r) => n(r.json.file.fid));
    expect(new Set(nums).size).toBe(12);
    expect(new Set(results.map((r) => r.json.file.filename)).size).toBe(12);
  });

  it('failed creates leave nothing behind: a fresh user who only failed has no files', async () => {
    const frank = await newUser('fail');
    await rejected(frank, {}, 400);
    await rejected(frank, { figure: { data: [{ y: [1] }] } }, 400, 'figure.data[0].y');
    await rejected(frank, { figure: { data: [{ ysrc: bobPrivate.src('y') }] } }, 400, 'figure.data[0].ysrc');
    await rejected(frank, { figure: { data: [] }, parent_path: 'x' }, 400, 'parent_path');
    await rejected(frank, { figure: { data: [] }, source_fid: 'x:1' }, 400, 'source_fid');
    expect(await counts(frank)).toEqual({ files: 0, plots: 0 });
    const all = await walk('/v2/plots?page_size=100');
    expect(mine(all, frank.username)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. PUT /v2/plots/{fid}

describe('PUT /v2/plots/{fid}', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;
  let other: Grid;

  beforeAll(async () => {
    alice = await newUser('put');
    bob = await newUser('putb');
    grid = await uploadGrid(alice, { x: [1, 2], y: [3, 4], z: [5, 6] });
    other = await uploadGrid(alice, { a: [10, 20], b: [30, 40] });
  });

  it('anonymous → 401; a reader of a public plot → 403; another user on a private plot → 404; wrong key → 401', async () => {
    const pub = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const priv = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    expectError(await call('PUT', `/v2/plots/${pub.fid}`, { body: { title: 'x' } }), 401, AUTH_REQUIRED);
    expectError(await call('PUT', `/v2/plots/${priv.fid}`, { body: { title: 'x' } }), 401, AUTH_REQUIRED);
    expectError(await call('PUT', `/v2/plots/${pub.fid}`, { user: bob, body: { title: 'x' } }), 403);
    const hidden = await call('PUT', `/v2/plots/${priv.fid}`, { user: bob, body: { title: 'x' } });
    expectError(hidden, 404);
    expect(hidden.json).toEqual((await call('PUT', `/v2/plots/${alice.username}:99999`, { user: bob, body: { title: 'x' } })).json);
    expectError(await call('PUT', `/v2/plots/${pub.fid}`, { headers: { Authorization: `Basic ${Buffer.from(`${alice.username}:badbadbadbadbadbad`).toString('base64')}` }, body: { title: 'x' } }), 401, 'Bad API key');
    // Nothing changed.
    expect((await call('GET', `/v2/plots/${pub.fid}`)).json.title).toBe('');
    expect((await call('GET', `/v2/plots/${priv.fid}`, { user: alice })).json.title).toBe('');
  });

  it('owner: 404 for a missing plot', async () => {
    expectError(await call('PUT', `/v2/plots/${alice.username}:99999`, { user: alice, body: { title: 'x' } }), 404);
  });

  it('replaces the given fields; returns the unwrapped detail; date_modified moves, creation_time/fid/views do not', async () => {
    const fig = { data: [scatter(grid)], layout: { title: 'before' } };
    const rec = await createPlot(alice, { figure: fig, filename: 'put me', caption: 'old caption' });
    await setPlot(rec.fid, { views: 7 });
    await sleep(20);
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { filename: 'put renamed', caption: 'new caption' } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.file).toBeUndefined();
    expect(keysOf(res.json)).toEqual(DETAIL_KEYS);
    expect(res.json).toEqual(
      expectedDetail(alice.username, n(rec.fid), { filename: 'put renamed', caption: 'new caption', figure: fig, title: 'before', views: 7, permission: 'write' }),
    );
    expect(res.json.fid).toBe(rec.fid);
    expect(res.json.creation_time).toBe(rec.creation_time);
    expect(Date.parse(res.json.date_modified)).toBeGreaterThan(Date.parse(rec.date_modified));
    expect(res.json.views).toBe(7);
    const detail = await call('GET', `/v2/plots/${rec.fid}`, { user: alice });
    expect(detail.json).toEqual(res.json);
  });

  it('a new figure replaces the figure and the content; width/height follow its layout', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { width: 100 } } });
    const fig = { data: [{ type: 'bar', xsrc: other.src('a'), ysrc: other.src('b') }], layout: { width: 500, height: 400 } };
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: fig } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.figure).toEqual(fig);
    expect([res.json.width, res.json.height]).toEqual([500, 400]);
    const content = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
    expect(content.json).toEqual({ data: [{ type: 'bar', x: [10, 20], y: [30, 40] }], layout: { width: 500, height: 400 } });
  });

  it('a new figure with a layout title changes a derived title', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { title: 'L1' } } });
    expect(rec.title).toBe('L1');
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: { data: [scatter(grid)], layout: { title: { text: 'L2' } } } } });
    expect(res.json.title).toBe('L2');
  });

  it('a new figure does not replace a title given explicitly (title is not a given field of the PUT)', async () => {
    const rec = await createPlot(alice, { title: 'Mine', figure: { data: [scatter(grid)], layout: { title: 'L1' } } });
    expect(rec.title).toBe('Mine');
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: { data: [scatter(grid)], layout: { title: 'L2' } } } });
    expect(res.status).toBe(200);
    expect(res.json.title).toBe('Mine');
  });

  it('an explicit title in the PUT wins over the new figure\'s layout title', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { title: 'L1' } } });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { title: 'T', figure: { data: [scatter(grid)], layout: { title: 'L2' } } } });
    expect(res.json.title).toBe('T');
  });

  const invalidFigures: { name: string; body: () => Rec; needle: string }[] = [
    { name: 'raw y', needle: 'figure.data[0].y', body: () => ({ figure: { data: [{ type: 'scatter', y: [1, 2] }] } }) },
    { name: 'raw marker.color', needle: 'figure.data[0].marker.color', body: () => ({ figure: { data: [scatter(grid, { marker: { color: [1, 2] } })] } }) },
    { name: 'raw in frames', needle: 'figure.frames[0].data[0].y', body: () => ({ figure: { data: [scatter(grid)], frames: [{ data: [{ y: [1] }] }] } }) },
    { name: 'typed array', needle: 'figure.data[0].y', body: () => ({ figure: { data: [{ type: 'scatter', y: typedF8([1]) }] } }) },
    { name: 'figure not an object', needle: 'figure', body: () => ({ figure: 'x' }) },
    { name: 'data not an array', needle: 'figure.data', body: () => ({ figure: { data: {} } }) },
    { name: 'figure without data', needle: 'figure.data', body: () => ({ figure: {} }) },
    { name: 'missing grid', needle: 'figure.data[0].ysrc', body: () => ({ figure: { data: [{ type: 'scatter', ysrc: `${alice.username}:99999:abcdef` }] } }) },
    { name: 'missing column', needle: 'figure.data[0].ysrc', body: () => ({ figure: { data: [{ type: 'scatter', ysrc: `${grid.fid}:zzzzzz` }] } }) },
    { name: '1001 traces', needle: 'figure.data', body: () => ({ figure: { data: Array.from({ length: 1001 }, () => ({})) } }) },
    { name: 'unreadable source_fid', needle: 'source_fid', body: () => ({ source_fid: `${bob.username}:99999` }) },
  ];

  it.each(invalidFigures)('same validation as create: $name → 400 naming $needle, plot unchanged', async ({ body, needle }) => {
    const fig = { data: [scatter(grid)], layout: { title: 'keep' } };
    const rec = await createPlot(alice, { figure: fig });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: body() });
    expectError(res, 400, needle);
    const after = await call('GET', `/v2/plots/${rec.fid}`, { user: alice });
    expect(after.json).toEqual(rec);
    expect((await call('GET', `/v2/plots/${rec.fid}/content`)).json).toEqual(fig);
  });

  it('world_readable false removes it from the list (and anonymous detail); true brings it back', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { world_readable: false } });
    expect(res.status).toBe(200);
    expect(res.json.world_readable).toBe(false);
    expect(mine(await walk('/v2/plots?page_size=100'), alice.username)).not.toContain(rec.fid);
    expect(mine(await walk('/v2/plots?page_size=100', { user: alice }), alice.username)).not.toContain(rec.fid);
    expectError(await call('GET', `/v2/plots/${rec.fid}`), 404);
    expectError(await call('GET', `/v2/plots/${rec.fid}/content`), 404);
    const back = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { world_readable: true } });
    expect(back.json.world_readable).toBe(true);
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
  });

  it('share_key_enabled gives a private plot a share_key that opens it; false takes it away', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    expect(rec.share_key).toBeUndefined();
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { share_key_enabled: true } });
    expect(res.status).toBe(200);
    expect(keysOf(res.json)).toEqual(SECRET_DETAIL_KEYS);
    const key = res.json.share_key as string;
    expect(key.length).toBeGreaterThan(0);
    expect(res.json.share_url).toBe(`${res.json.web_url}?share_key=${key}`);
    expect((await call('GET', `/v2/plots/${rec.fid}?share_key=${encodeURIComponent(key)}`)).status).toBe(200);
    expect((await call('GET', `/v2/plots/${rec.fid}/content?share_key=${encodeURIComponent(key)}`)).status).toBe(200);
    expect(mine(await walk('/v2/plots?page_size=100'), alice.username)).not.toContain(rec.fid);
    const off = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { share_key_enabled: false } });
    expect(off.json.share_key).toBeUndefined();
    expectError(await call('GET', `/v2/plots/${rec.fid}?share_key=${encodeURIComponent(key)}`), 404);
  });

  it('renaming into a clash is 400 "already exists" and leaves the name', async () => {
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'taken name' });
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'free name' });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { filename: 'taken name' } });
    expectError(res, 400, "Sorry, a file named 'taken name' already exists");
    expect((await call('GET', `/v2/plots/${rec.fid}`)).json.filename).toBe('free name');
  });

  it('renaming to its own name is fine', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'same name' });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { filename: 'same name' } });
    expect(res.status).toBe(200);
  });

  it('source_fid can be set and is echoed canonically', async () => {
    const src = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { source_fid: src.fid.toUpperCase() } });
    expect(res.json.source_fid).toBe(src.fid);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Content

describe('GET /v2/plots/{fid}/content', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;

  beforeAll(async () => {
    alice = await newUser('content');
    bob = await newUser('contentb');
    grid = await uploadGrid(alice, { x: [1, 2, 3], y: [10, 20, 30], c: ['red', 'green', 'blue'], s: [5, 6, 7] });
  });

  it('default: {data, layout} with the srcs kept, application/json', async () => {
    const fig = { data: [scatter(grid, { name: 'n', marker: { colorsrc: grid.src('c') } })], layout: { title: { text: 'T' } } };
    const rec = await createPlot(alice, { figure: fig });
    const res = await call('GET', `/v2/plots/${rec.fid}/content`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(res.json).toEqual(fig);
    expect(keysOf(res.json)).toEqual(['data', 'layout']);
  });

  it('default: a figure given without layout answers layout {}', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect((await call('GET', `/v2/plots/${rec.fid}/content`)).json).toEqual({ data: [scatter(grid)], layout: {} });
  });

  it('default: frames are present when the figure has them (also empty)', async () => {
    const fig = { data: [scatter(grid)], layout: {}, frames: [{ name: 'a', data: [{ ysrc: grid.src('s') }] }] };
    const rec = await createPlot(alice, { figure: fig });
    expect((await call('GET', `/v2/plots/${rec.fid}/content`)).json).toEqual(fig);
    const empty = await createPlot(alice, { figure: { data: [], layout: {}, frames: [] } });
    expect((await call('GET', `/v2/plots/${empty.fid}/content`)).json).toEqual({ data: [], layout: {}, frames: [] });
  });

  const inline: { name: string; trace: (g: Grid) => Rec; expected: Rec }[] = [
    { name: 'xsrc/ysrc', trace: (g) => ({ type: 'scatter', name: 'a', xsrc: g.src('x'), ysrc: g.src('y') }), expected: { type: 'scatter', name: 'a', x: [1, 2, 3], y: [10, 20, 30] } },
    { name: 'nested marker.colorsrc', trace: (g) => ({ type: 'scatter', xsrc: g.src('x'), marker: { colorsrc: g.src('c'), size: 4 } }), expected: { type: 'scatter', x: [1, 2, 3], marker: { color: ['red', 'green', 'blue'], size: 4 } } },
    { name: 'nested textfont.sizesrc', trace: (g) => ({ type: 'scatter', textfont: { sizesrc: g.src('s') } }), expected: { type: 'scatter', textfont: { size: [5, 6, 7] } } },
    { name: 'multi-uid in the listed order', trace: (g) => ({ type: 'heatmap', zsrc: g.src('y', 'x') }), expected: { type: 'heatmap', z: [[10, 20, 30], [1, 2, 3]] } },
    { name: 'parcoords dimensions[].valuessrc', trace: (g) => ({ type: 'parcoords', dimensions: [{ label: 'a', valuessrc: g.src('x') }, { label: 'b', valuessrc: g.src('s') }] }), expected: { type: 'parcoords', dimensions: [{ label: 'a', values: [1, 2, 3] }, { label: 'b', values: [5, 6, 7] }] } },
    { name: 'pie labelssrc/valuessrc', trace: (g) => ({ type: 'pie', labelssrc: g.src('c'), valuessrc: g.src('x') }), expected: { type: 'pie', labels: ['red', 'green', 'blue'], values: [1, 2, 3] } },
  ];

  it.each(inline)('inline_data=true: $name', async ({ trace, expected }) => {
    const rec = await createPlot(alice, { figure: { data: [trace(grid)], layout: { xaxis: { range: [0, 1] } } } });
    const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(res.json).toEqual({ data: [expected], layout: { xaxis: { range: [0, 1] } } });
  });

  it('inline_data=true: frames too', async () => {
    const fig = { data: [scatter(grid)], layout: {}, frames: [{ name: 'f', data: [{ ysrc: grid.src('s'), marker: { colorsrc: grid.src('c') } }] }] };
    const rec = await createPlot(alice, { figure: fig });
    const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
    expect(res.json).toEqual({
      data: [{ type: 'scatter', x: [1, 2, 3], y: [10, 20, 30] }],
      layout: {},
      frames: [{ name: 'f', data: [{ y: [5, 6, 7], marker: { color: ['red', 'green', 'blue'] } }] }],
    });
  });

  it('inline_data=false is the default form', async () => {
    const fig = { data: [scatter(grid)], layout: {} };
    const rec = await createPlot(alice, { figure: fig });
    expect((await call('GET', `/v2/plots/${rec.fid}/content?inline_data=false`)).json).toEqual(fig);
  });

  it('inline_data: a value other than a boolean → 400', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expectError(await call('GET', `/v2/plots/${rec.fid}/content?inline_data=maybe`), 400, 'inline_data');
  });

  it('ETag present; If-None-Match with it → 304 without body; a changed figure changes the ETag', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    for (const q of ['', '?inline_data=true']) {
      const first = await call('GET', `/v2/plots/${rec.fid}/content${q}`);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await call('GET', `/v2/plots/${rec.fid}/content${q}`, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      // Compared weakly (RFC 9110): the weak form of the tag, `*`, or a list naming it.
      for (const ifNoneMatch of [`W/${etag}`, '*', `"something-else", ${etag}`]) {
        const weak = await call('GET', `/v2/plots/${rec.fid}/content${q}`, { headers: { 'If-None-Match': ifNoneMatch } });
        expect(weak.status, ifNoneMatch).toBe(304);
      }
      const other = await call('GET', `/v2/plots/${rec.fid}/content${q}`, { headers: { 'If-None-Match': '"something-else"' } });
      expect(other.status).toBe(200);
    }
    const before = (await call('GET', `/v2/plots/${rec.fid}/content`)).headers.get('etag')!;
    const beforeInline = (await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`)).headers.get('etag')!;
    expect((await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: { data: [scatter(grid, { ysrc: grid.src('s') })] } } })).status).toBe(200);
    const after = await call('GET', `/v2/plots/${rec.fid}/content`, { headers: { 'If-None-Match': before } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(after.json.data[0].ysrc).toBe(grid.src('s'));
    const afterInline = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { headers: { 'If-None-Match': beforeInline } });
    expect(afterInline.status).toBe(200);
    expect(afterInline.json.data[0].y).toEqual([5, 6, 7]);
  });

  it('a src into a deleted grid is left as a src (never a 500), with and without inline_data/map_data', async () => {
    const doomed = await uploadGrid(alice, { x: [1, 2], y: [3, 4] });
    const fig = { data: [scatter(doomed), { type: 'bar', ysrc: grid.src('y') }], layout: {} };
    const rec = await createPlot(alice, { figure: fig });
    expect((await call('DELETE', `/v2/grids/${doomed.fid}`, { user: alice })).status).toBe(204);
    const plain = await call('GET', `/v2/plots/${rec.fid}/content`);
    expect(plain.status).toBe(200);
    expect(plain.json).toEqual(fig);
    for (const who of [null, alice, bob]) {
      const inl = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: who });
      expect(inl.status).toBe(200);
      expect(inl.json.data).toEqual([scatter(doomed), { type: 'bar', y: [10, 20, 30] }]);
      const mapped = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`, { user: who });
      expect(mapped.status).toBe(200);
      expect(mapped.json.data).toEqual([scatter(doomed), { type: 'bar', y: [10, 20, 30] }]);
      expect(mapped.json.map_data?.[doomed.src('x')]).toBeUndefined();
    }
    // The detail still answers too.
    expect((await call('GET', `/v2/plots/${rec.fid}`)).status).toBe(200);
  });

  it('404 for a private plot read by others, a missing plot and a malformed fid', async () => {
    const priv = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    expectError(await call('GET', `/v2/plots/${priv.fid}/content`), 404);
    expectError(await call('GET', `/v2/plots/${priv.fid}/content?inline_data=true`, { user: bob }), 404);
    expect((await call('GET', `/v2/plots/${priv.fid}/content`, { user: alice })).status).toBe(200);
    expectError(await call('GET', `/v2/plots/${alice.username}:99999/content`), 404);
    expectError(await call('GET', '/v2/plots/garbage/content'), 404);
  });

  describe('map_data=unreadable: a public plot on its owner\'s private grid', () => {
    let priv: Grid;
    let pub: Grid;
    let rec: Rec;
    let fig: Rec;

    beforeAll(async () => {
      priv = await uploadGrid(alice, { px: [101, 102], py: [201, 202], pc: ['a', 'b'], hidden: [987654321, 987654322] }, { world_readable: false });
      pub = await uploadGrid(alice, { q: [7, 8] });
      fig = {
        data: [
          { type: 'scatter', xsrc: priv.src('px'), ysrc: priv.src('py'), marker: { colorsrc: priv.src('pc') } },
          { type: 'bar', ysrc: pub.src('q') },
          { type: 'heatmap', zsrc: priv.src('py', 'px') },
        ],
        layout: { title: 'mixed' },
      };
      rec = await createPlot(alice, { figure: fig });
    });

    const readers: [string, () => TestUser | null][] = [
      ['anonymous', () => null],
      ['another user', () => bob],
    ];

    it.each(readers)('%s, inline_data=true: the private grid\'s srcs are left, the readable one inlined, no map_data', async (_n, who) => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: who() });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ data: [fig.data[0], { type: 'bar', y: [7, 8] }, fig.data[2]], layout: { title: 'mixed' } });
      expect(res.text).not.toContain('987654321');
    });

    it.each(readers)('%s, map_data=unreadable: srcs kept and map_data maps each unreadable src to its values', async (_n, who) => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?map_data=unreadable`, { user: who() });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
      expect(res.json).toEqual({
        ...fig,
        map_data: {
          [priv.src('px')]: [101, 102],
          [priv.src('py')]: [201, 202],
          [priv.src('pc')]: ['a', 'b'],
          [priv.src('py', 'px')]: [[201, 202], [101, 102]],
        },
      });
      expect(res.text).not.toContain('987654321');
    });

    it.each(readers)('%s, inline_data=true&map_data=unreadable: readable inlined, unreadable mapped', async (_n, who) => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`, { user: who() });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        data: [fig.data[0], { type: 'bar', y: [7, 8] }, fig.data[2]],
        layout: { title: 'mixed' },
        map_data: {
          [priv.src('px')]: [101, 102],
          [priv.src('py')]: [201, 202],
          [priv.src('pc')]: ['a', 'b'],
          [priv.src('py', 'px')]: [[201, 202], [101, 102]],
        },
      });
      expect(res.text).not.toContain('987654321');
    });

    it('the private grid itself stays unreadable to them', async () => {
      expectError(await call('GET', `/v2/grids/${priv.fid}/content`), 404);
      expectError(await call('GET', `/v2/grids/${priv.fid}/content`, { user: bob }), 404);
    });

    it('the owner gets everything inlined and no unreadable entries', async () => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`, { user: alice });
      expect(res.status).toBe(200);
      const { map_data: mapData, ...rest } = res.json;
      expect(mapData === undefined || (typeof mapData === 'object' && Object.keys(mapData).length === 0)).toBe(true);
      expect(rest).toEqual({
        data: [
          { type: 'scatter', x: [101, 102], y: [201, 202], marker: { color: ['a', 'b'] } },
          { type: 'bar', y: [7, 8] },
          { type: 'heatmap', z: [[201, 202], [101, 102]] },
        ],
        layout: { title: 'mixed' },
      });
      expect(res.text).not.toContain('987654321');
    });

    it('the owner with inline_data only gets it all inlined', async () => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: alice });
      expect(res.json.data[0]).toEqual({ type: 'scatter', x: [101, 102], y: [201, 202], marker: { color: ['a', 'b'] } });
      expect(res.json.map_data).toBeUndefined();
    });

    it('map_data with a value other than "unreadable" → 400', async () => {
      expectError(await call('GET', `/v2/plots/${rec.fid}/content?map_data=all`), 400, 'map_data');
    });

    it('the ETag differs between the owner\'s and a reader\'s inlined answers', async () => {
      const own = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: alice });
      const anon = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
      expect(own.headers.get('etag')).not.toBe(anon.headers.get('etag'));
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Lists

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

  it.each(['/v2/plots', '/v2/plots/'])('GET %s: 200 directly (no redirect), the page shape and the contract\'s headers', async (path) => {
    const res = await call('GET', `${path}?page_size=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('vary')?.split(',').map((v) => v.trim().toLowerCase())).toContain('accept');
    expect(res.headers.get('allow')).toBe(LIST_ALLOW);
    expect(keysOf(res.json)).toEqual(['next', 'previous', 'results']);
    expect(res.json.previous).toBeNull();
    expect(res.json.results).toHaveLength(2);
    expect(res.json.next).toMatch(new RegExp(`^${baseUrl()}/v2/plots/?\\?`));
    expect(new URL(res.json.next).searchParams.get('cursor')).toBeTruthy();
    for (const r of res.json.results) expect(keysOf(r)).toEqual(LIST_KEYS);
  });

  it.each(['/v2/plots', '/v2/plots/'])('HEAD %s: GET\'s status and headers, no body', async (path) => {
    const get = await call('GET', `${path}?page_size=1`);
    const head = await call('HEAD', `${path}?page_size=1`);
    expect(head.status).toBe(get.status);
    expect(head.text).toBe('');
    for (const h of ['content-type', 'vary', 'allow']) expect(head.headers.get(h), h).toBe(get.headers.get(h));
  });

  it('HEAD with a bad query answers GET\'s 400 status', async () => {
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

  it.each(['page_size=1', 'page_size=100', 'order_by=views', 'order_by=-views', 'min_quality=0', 'max_quality=10', 'min_quality=-3', 'format=api', 'format=json'])(
    '?%s → 200',
    async (query) => {
      const res = await call('GET', `/v2/plots?${query}`);
      expect(res.status).toBe(200);
      expect(keysOf(res.json)).toEqual(['next', 'previous', 'results']);
    },
  );

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

// ---------------------------------------------------------------------------------------------
// 7. Trash, restore, permanent delete

describe('trash, restore and permanent_delete', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;

  beforeAll(async () => {
    alice = await newUser('trash');
    bob = await newUser('trashb');
    grid = await uploadGrid(alice, { x: [1], y: [2] });
  });

  it('trash → 200; gone from detail, content, list and web page; restore → 200 and back everywhere', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'to trash' });
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
    const trash = await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice });
    expect(trash.status).toBe(200);
    expect(trash.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    for (const who of [null, alice, bob]) {
      expectError(await call('GET', `/v2/plots/${rec.fid}`, { user: who }), 404);
      expectError(await call('GET', `/v2/plots/${rec.fid}/content`, { user: who }), 404);
    }
    expect(mine(await walk('/v2/plots?page_size=100', { user: alice }), alice.username)).not.toContain(rec.fid);
    expect(await status(rec.web_url)).toBe(404);
    expectError(await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { title: 'x' } }), 404);
    expectError(await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice }), 404);

    const restore = await call('POST', `/v2/plots/${rec.fid}/restore`, { user: alice });
    expect(restore.status).toBe(200);
    const back = await call('GET', `/v2/plots/${rec.fid}`);
    expect(back.status).toBe(200);
    expect(back.json.fid).toBe(rec.fid);
    expect(back.json.filename).toBe('to trash');
    expect(back.json.figure).toEqual(rec.figure);
    expect(back.json.creation_time).toBe(rec.creation_time);
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
    expect(await status(rec.web_url)).toBe(200);
  });

  it('a trashed handpicked plot leaves the feed; restored it returns', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    await setPlot(rec.fid, { handpicked: true });
    expect((await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid)).toContain(rec.fid);
    expect((await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice })).status).toBe(200);
    expect((await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid)).not.toContain(rec.fid);
    expect((await call('POST', `/v2/plots/${rec.fid}/restore`, { user: alice })).status).toBe(200);
    expect((await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid)).toContain(rec.fid);
  });

  it('restore into a name taken meanwhile → 400 "already exists", stays trashed', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'clash later' });
    expect((await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice })).status).toBe(200);
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'clash later' });
    expectError(await call('POST', `/v2/plots/${rec.fid}/restore`, { user: alice }), 400, 'already exists');
    expectError(await call('GET', `/v2/plots/${rec.fid}`, { user: alice }), 404);
  });

  it('permanent_delete → 204 with no body; 404 afterwards everywhere; its number is never reused', async () => {
    const carol = await newUser('perm');
    const g = await uploadGrid(carol, { x: [1], y: [2] });
    const a = await createPlot(carol, { figure: { data: [scatter(g)] } });
    const b = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(b.fid).toBe(`${carol.username}:3`);
    const del = await call('DELETE', `/v2/plots/${b.fid}/permanent_delete`, { user: carol });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const who of [null, carol]) {
      expectError(await call('GET', `/v2/plots/${b.fid}`, { user: who }), 404);
      expectError(await call('GET', `/v2/plots/${b.fid}/content`, { user: who }), 404);
    }
    expectError(await call('POST', `/v2/plots/${b.fid}/restore`, { user: carol }), 404);
    expectError(await call('DELETE', `/v2/plots/${b.fid}/permanent_delete`, { user: carol }), 404);
    expect(await status(b.web_url)).toBe(404);
    const c = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(c.fid).toBe(`${carol.username}:4`);
    expect(n(c.fid)).toBeGreaterThan(n(b.fid));
    expect((await call('GET', `/v2/plots/${a.fid}`)).status).toBe(200);
    expect((await call('GET', `/v2/plots/${b.fid}`)).status).toBe(404);
  });

  it('permanent_delete of a trashed plot → 204; the number stays retired', async () => {
    const dave = await newUser('permt');
    const p1 = await createPlot(dave, { figure: { data: [] } });
    expect((await call('POST', `/v2/plots/${p1.fid}/trash`, { user: dave })).status).toBe(200);
    expect((await call('DELETE', `/v2/plots/${p1.fid}/permanent_delete`, { user: dave })).status).toBe(204);
    expectError(await call('POST', `/v2/plots/${p1.fid}/restore`, { user: dave }), 404);
    const p2 = await createPlot(dave, { figure: { data: [] } });
    expect(p2.fid).toBe(`${dave.username}:2`);
  });

  const actions: { name: string; method: string; suffix: string; trashedFirst: boolean }[] = [
    { name: 'trash', method: 'POST', suffix: 'trash', trashedFirst: false },
    { name: 'permanent_delete', method: 'DELETE', suffix: 'permanent_delete', trashedFirst: false },
    { name: 'restore', method: 'POST', suffix: 'restore', trashedFirst: true },
  ];

  it.each(actions)('$name: anonymous → 401, other user on a private plot → 404; the plot is untouched', async ({ method, suffix, trashedFirst }) => {
    const priv = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    if (trashedFirst) expect((await call('POST', `/v2/plots/${priv.fid}/trash`, { user: alice })).status).toBe(200);
    expectError(await call(method, `/v2/plots/${priv.fid}/${suffix}`), 401, AUTH_REQUIRED);
    const hidden = await call(method, `/v2/plots/${priv.fid}/${suffix}`, { user: bob });
    expectError(hidden, 404);
    expectError(await call(method, `/v2/plots/${alice.username}:99999/${suffix}`, { user: bob }), 404);
    const state = await call('GET', `/v2/plots/${priv.fid}`, { user: alice });
    expect(state.status).toBe(trashedFirst ? 404 : 200);
    expect(await fileIdOf(priv.fid)).toBeGreaterThan(0);
    if (trashedFirst) {
      expect((await call('POST', `/v2/plots/${priv.fid}/restore`, { user: alice })).status).toBe(200);
      expect((await call('GET', `/v2/plots/${priv.fid}`, { user: alice })).status).toBe(200);
    }
  });

  it.each(actions.filter((a) => !a.trashedFirst))('$name: a reader of a public plot → 403; the plot is untouched', async ({ method, suffix }) => {
    const pub = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expectError(await call(method, `/v2/plots/${pub.fid}/${suffix}`, { user: bob }), 403);
    expect((await call('GET', `/v2/plots/${pub.fid}`)).status).toBe(200);
  });

  it.each([
    ['GET', 'trash'],
    ['DELETE', 'trash'],
    ['GET', 'restore'],
    ['POST', 'permanent_delete'],
    ['GET', 'permanent_delete'],
  ])('%s on .../%s → 405 with Allow', async (method, suffix) => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const res = await call(method, `/v2/plots/${rec.fid}/${suffix}`, { user: alice });
    expectError(res, 405);
    expect(res.headers.get('allow')).toBeTruthy();
    expect((await call('GET', `/v2/plots/${rec.fid}`)).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------
// 8. Feed

describe('GET /v2/plots/feed', () => {
  let alice: TestUser;
  let picked: Rec[];
  let notPicked: Rec;
  let privPicked: Rec;
  let trashedPicked: Rec;

  beforeAll(async () => {
    alice = await newUser('feed');
    const grid = await uploadGrid(alice, { x: [1], y: [2] });
    picked = [];
    for (let i = 0; i < 3; i++) picked.push(await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: `picked ${i}` }));
    notPicked = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    privPicked = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    trashedPicked = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    for (const r of [...picked, privPicked, trashedPicked]) await setPlot(r.fid, { handpicked: true });
    expect((await call('POST', `/v2/plots/${trashedPicked.fid}/trash`, { user: alice })).status).toBe(200);
  });

  it('only handpicked public live plots, each once', async () => {
    for (const who of [null, alice]) {
      const all = await walk('/v2/plots/feed?page_size=100', { user: who });
      expect(mine(all, alice.username).sort()).toEqual(picked.map((r) => r.fid).sort());
      const fids = all.map((r) => r.fid);
      expect(new Set(fids).size).toBe(fids.length);
      for (const r of all) expect(r.world_readable).toBe(true);
    }
    expect(notPicked.fid).toBeTruthy();
    expect(privPicked.fid).toBeTruthy();
  });

  it('every feed plot is a handpicked one', async () => {
    const { db } = await appDatabase();
    const all = await walk('/v2/plots/feed?page_size=100');
    const rows = await db
      .select({ owner: users.username, n: files.n, handpicked: plots.handpicked })
      .from(plots)
      .innerJoin(files, eq(files.id, plots.fileId))
      .innerJoin(users, eq(users.id, files.ownerId))
      .where(eq(plots.handpicked, true));
    const handpicked = new Set(rows.map((r) => `${r.owner}:${r.n}`));
    for (const r of all) expect(handpicked.has(r.fid), r.fid).toBe(true);
  });

  it('same page shape as the list: {next, previous, results}, list records, previous null on the first page', async () => {
    const res = await call('GET', '/v2/plots/feed?page_size=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('vary')?.split(',').map((v) => v.trim().toLowerCase())).toContain('accept');
    expect(keysOf(res.json)).toEqual(['next', 'previous', 'results']);
    expect(res.json.previous).toBeNull();
    expect(res.json.results).toHaveLength(1);
    expect(res.json.next).toMatch(new RegExp(`^${baseUrl()}/v2/plots/feed\\?`));
    const rec = (await walk('/v2/plots/feed?page_size=100')).find((r) => r.fid === picked[0].fid)!;
    expect(keysOf(rec)).toEqual(LIST_KEYS);
    expect(rec).toEqual(expectedRecord(alice.username, n(picked[0].fid), { filename: 'picked 0', figure: picked[0].figure, permission: 'read' }));
  });

  it('the owner sees write permission in the feed', async () => {
    const rec = (await walk('/v2/plots/feed?page_size=100', { user: alice })).find((r) => r.fid === picked[1].fid)!;
    expect(rec.current_user_permission).toBe('write');
  });

  it('walking the feed one plot a page shows each plot once, the same set as one big page', async () => {
    const big = (await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid).sort();
    const small = (await walk('/v2/plots/feed?page_size=1')).map((r) => r.fid);
    expect(new Set(small).size).toBe(small.length);
    // Other suites may handpick plots meanwhile; ours are stable.
    for (const r of picked) expect(small).toContain(r.fid);
    expect(mine(small.map((fid) => ({ fid, owner: fid.split(':')[0] })), alice.username).sort()).toEqual(mine(big.map((fid) => ({ fid, owner: fid.split(':')[0] })), alice.username).sort());
  });

  it('previous walks back to the page before', async () => {
    const page1 = await call('GET', '/v2/plots/feed?page_size=1&format=api');
    const page2 = await call('GET', pathOf(page1.json.next));
    expect(new URL(page2.json.previous).searchParams.get('format')).toBe('api');
    const back = await call('GET', pathOf(page2.json.previous));
    expect(back.json.results.map((r: Rec) => r.fid)).toEqual(page1.json.results.map((r: Rec) => r.fid));
  });

  it.each(['cursor=garbage', 'page_size=0', 'page_size=101', 'page_size=x'])('?%s → 400', async (query) => {
    expectError(await call('GET', `/v2/plots/feed?${query}`), 400);
  });

  it('a list cursor is not a feed cursor → 400', async () => {
    const list = await call('GET', '/v2/plots?page_size=1');
    const cursor = new URL(list.json.next).searchParams.get('cursor')!;
    expectError(await call('GET', `/v2/plots/feed?cursor=${encodeURIComponent(cursor)}`), 400, 'cursor');
  });

  it('POST /v2/plots/feed → 405', async () => {
    expectError(await call('POST', '/v2/plots/feed', { user: alice, body: {} }), 405);
  });
});
