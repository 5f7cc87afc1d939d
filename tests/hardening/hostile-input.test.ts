// Runs the hostile corpus (hostile-corpus.ts) against every write endpoint and the query parameters
// of the read endpoints (docs/api.md "Authentication and errors", docs/limits.md): each request must answer a 4xx with the
// contract's error body, never a 5xx, and none may change the database. Legitimate input that merely
// looks hostile (HTML or SQL in a title) is accepted and stored verbatim; that is checked after the snapshot.
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { queryRows } from '@/db/client';
import { appDatabase, baseUrl, basic, call, createPlot, expectError, newUser, uploadGrid, type Answer, type TestUser } from '../support/api';
import { dumpDatabase } from '../support/postgres';
import { CORPUS, HTML, SQL1, SQL2, TARGETS, type Case, type Ctx, type Who } from './hostile-corpus';

const MiB = 1024 * 1024;
const JSON_TYPE = 'application/json';

let ctx: Ctx;

function userOf(who: Who | undefined, c: Ctx): TestUser | null {
  switch (who ?? 'alice') {
    case 'alice':
      return c.alice;
    case 'bob':
      return c.bob;
    case 'anon':
      return null;
    case 'badkey':
      return { ...c.alice, auth: basic(c.alice.username, 'not-the-right-key-0000000000') };
  }
}

async function send(k: Case, c: Ctx): Promise<Answer> {
  const headers: Record<string, string> = {};
  let raw: Uint8Array | undefined;
  if (k.json) raw = Buffer.from(JSON.stringify(k.json(c)), 'utf8');
  else if (k.raw) {
    const value = k.raw(c);
    raw = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  }
  // A Uint8Array body gets no Content-Type from fetch: only the one the case names.
  if (raw !== undefined && k.type !== null) headers['Content-Type'] = k.type ?? JSON_TYPE;
  return call(k.method, k.path(c), { user: userOf(k.as, c), raw, headers });
}

// ---------------------------------------------------------------------------------------------
// Database snapshot (scoped to this suite's users: other suites write to the same database)

interface Snapshot {
  [key: string]: string | number | boolean | null;
}

async function userIds(c: Ctx): Promise<number[]> {
  const { db } = await appDatabase();
  const rows = await queryRows<{ id: number }>(db, sql`SELECT id FROM users WHERE username IN (${c.alice.username}, ${c.bob.username}) ORDER BY id`);
  return rows.map((r) => Number(r.id));
}

async function snapshot(ids: number[]): Promise<Snapshot> {
  const { db } = await appDatabase();
  const mine = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const [row] = await queryRows<Snapshot>(
    db,
    sql`SELECT
      (SELECT count(*) FROM users WHERE id IN (${mine}))::int AS users_count,
      (SELECT max(id) FROM users WHERE id IN (${mine}))::int AS users_max_id,
      (SELECT md5(string_agg(u::text, '|' ORDER BY u.id)) FROM users u WHERE u.id IN (${mine})) AS users_rows,
      (SELECT count(*) FROM files WHERE owner_id IN (${mine}))::int AS files_count,
      (SELECT max(id) FROM files WHERE owner_id IN (${mine}))::int AS files_max_id,
      (SELECT md5(string_agg(f::text, '|' ORDER BY f.id)) FROM files f WHERE f.owner_id IN (${mine})) AS files_rows,
      -- Readable per-file state, so a failure names the files that changed.
      (SELECT string_agg(f.owner_id || ':' || f.n || ' ' || f.filetype || CASE WHEN f.trashed_at IS NULL THEN '' ELSE ' trashed' END
                         || ' ' || left(md5(f::text || coalesce((SELECT p::text FROM plots p WHERE p.file_id = f.id), '')), 8), ', ' ORDER BY f.id)
         FROM files f WHERE f.owner_id IN (${mine})) AS files_list,
      (SELECT count(*) FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id IN (${mine}))::int AS plots_count,
      (SELECT max(p.file_id) FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id IN (${mine}))::int AS plots_max_id,
      (SELECT md5(string_agg(p::text, '|' ORDER BY p.file_id)) FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id IN (${mine})) AS plots_rows,
      (SELECT count(*) FROM grid_columns g JOIN files f ON f.id = g.grid_id WHERE f.owner_id IN (${mine}))::int AS grid_columns_count,
      (SELECT max(g.id) FROM grid_columns g JOIN files f ON f.id = g.grid_id WHERE f.owner_id IN (${mine}))::int AS grid_columns_max_id,
      (SELECT md5(string_agg(g.id || ':' || g.grid_id || ':' || g.uid || ':' || g.name || ':' || g.ord || ':' || md5(v.data::text), '|' ORDER BY g.id))
         FROM grid_columns g JOIN column_values v ON v.id = g.values_id JOIN files f ON f.id = g.grid_id WHERE f.owner_id IN (${mine})) AS grid_columns_rows,
      to_regclass('public.users') IS NOT NULL AND to_regclass('public.files') IS NOT NULL
        AND to_regclass('public.plots') IS NOT NULL AND to_regclass('public.grid_columns') IS NOT NULL AS tables_exist`,
  );
  return row;
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP for bodies fetch cannot send (a fresh connection each: an abandoned upload may end it)

interface RawAnswer extends Answer {
  connection: string | null;
}

/**
 * rawRequest, tried again when the server's refusal races the upload: it answers 413 and closes
 * while the client is still writing, and the client may see EPIPE or ECONNRESET before the answer.
 */
async function rawRequest(opts: Parameters<typeof rawRequestOnce>[0]): Promise<RawAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await rawRequestOnce(opts);
    } catch (error) {
      if (attempt >= 3 || !['EPIPE', 'ECONNRESET'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
}

function rawRequestOnce(opts: {
  method: string;
  path: string;
  auth: string;
  headers?: Record<string, string>;
  /** Written in 1 MiB pieces; the body ends after `total` bytes (or never, with `hold`). */
  total: number;
  fill?: number;
  /** Stop writing after this many bytes and wait for the answer (a body shorter than its Content-Length). */
  hold?: number;
  agent?: http.Agent | false;
}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(opts.path, baseUrl());
    let settled = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method,
        path: url.pathname + url.search,
        agent: opts.agent ?? false,
        headers: { Authorization: opts.auth, 'Content-Type': JSON_TYPE, ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          settled = true;
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          resolve({ status: res.statusCode!, headers, text, json, connection: res.headers.connection ?? null });
          if (opts.hold !== undefined) req.destroy();
        });
      },
    );
    req.on('error', (error) => {
      if (!settled) reject(error);
    });
    const piece = Buffer.alloc(MiB, opts.fill ?? 0x20);
    let sent = 0;
    const limit = opts.hold ?? opts.total;
    const pump = () => {
      while (sent < limit && !req.destroyed) {
        const n = Math.min(MiB, limit - sent);
        sent += n;
        if (!req.write(n === MiB ? piece : piece.subarray(0, n))) return void req.once('drain', pump);
      }
      if (opts.hold === undefined && !req.destroyed) req.end();
    };
    pump();
  });
}

// ---------------------------------------------------------------------------------------------

describe('hostile input', () => {
  let ids: number[];
  let before: Snapshot;
  /** The whole database (pg_dump) once the fixtures are made; the hardening project runs its files one at a time. */
  let dumpBefore: string;

  beforeAll(async () => {
    const alice = await newUser('hostile');
    const bob = await newUser('hostilevictim');
    const grid = await uploadGrid(alice, { x: [1, 2, 3], y: [4, 5, 6] });
    const p1 = await createPlot(alice, { filename: 'hostile plot', figure: { data: [{ type: 'scatter', xsrc: grid.src('x'), ysrc: grid.src('y') }] } });
    const p2 = await createPlot(alice, { figure: { data: [{ type: 'bar', ysrc: grid.src('y') }] } });
    const decoyGrid = await uploadGrid(alice, { d: [0] });
    const decoyPlot = await createPlot(alice, { figure: { data: [{ type: 'bar', ysrc: decoyGrid.src('d') }] } });
    const folder = await call('POST', '/v2/folders', { user: alice, body: { path: 'existing' } });
    expect(folder.status).toBe(201);
    const bobGrid = await uploadGrid(bob, { x: [7, 8], y: [9, 10] }, { world_readable: false });
    const bobPlot = await createPlot(bob, { world_readable: false, figure: { data: [{ type: 'scatter', xsrc: bobGrid.src('x'), ysrc: bobGrid.src('y') }] } });

    // Issued cursors: alice's two plots in the feed, so every listing has a second page.
    const { db } = await appDatabase();
    await queryRows(
      db,
      sql`UPDATE plots SET handpicked = true WHERE file_id IN (SELECT id FROM files WHERE owner_id = (SELECT id FROM users WHERE username = ${alice.username}) AND filetype = 'plot')`,
    );
    const cursorOf = async (path: string) => {
      const res = await call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.json.next, path).toEqual(expect.any(String));
      return new URL(res.json.next).searchParams.get('cursor')!;
    };
    const n = (fid: string) => Number(fid.split(':')[1]);
    ctx = {
      alice,
      bob,
      gridFid: grid.fid,
      src: grid.src,
      gridN: n(grid.fid),
      plotFid: p1.fid,
      plotN: n(p1.fid),
      decoyGridN: n(decoyGrid.fid),
      decoyPlotN: n(decoyPlot.fid),
      bobGridSrc: bobGrid.src,
      bobGridFid: bobGrid.fid,
      bobPlotFid: bobPlot.fid,
      listCursor: await cursorOf('/v2/plots?page_size=1'),
      viewsCursor: await cursorOf('/v2/plots?page_size=1&order_by=-views'),
      feedCursor: await cursorOf('/v2/plots/feed?page_size=1'),
    };
    expect(p2.fid).toBe(`${alice.username}:3`);
    ids = await userIds(ctx);
    expect(ids).toHaveLength(2);
    before = await snapshot(ids);
    expect(before.tables_exist).toBe(true);
    dumpBefore = dumpDatabase(inject('databaseUrl'));
  });

  it(`has a corpus of at least 150 requests (${CORPUS.length})`, () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CORPUS.map((c) => c.name)).size).toBe(CORPUS.length);
  });

  describe('corpus', () => {
    for (const k of CORPUS) {
      it(k.name, async () => {
        const res = await send(k, ctx);
        const statuses = Array.isArray(k.status) ? k.status : [k.status];
        expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
        expect(statuses, `${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
        if (k.page) return;
        expectError(res, res.status, k.needle);
        expect(res.text).not.toMatch(/\bat .*\.(js|ts):\d+|\bSELECT\b|\bINSERT INTO\b|postgres|drizzle/);
        if (k.status === 405) {
          // 405 carries Allow (the list path's is fixed by the spec), never naming the refused method.
          const allow = res.headers.get('allow') ?? '';
          expect(allow.split(/,\s*/)).not.toContain(k.method);
          expect(allow).toMatch(/OPTIONS/);
          if (k.allow) expect(allow).toBe(k.allow);
        }
      });
    }
  });

  describe('body size limits (413)', () => {
    const auth = () => ctx.alice.auth;
    it('POST /v2/plots: 10 MiB + 1 byte with Content-Length', async () => {
      const res = await rawRequest({ method: 'POST', path: '/v2/plots', auth: auth(), total: 10 * MiB + 1 });
      expectError(res, 413, '10 MiB');
    });
    it('POST /v2/plots: 10 MiB + 1 byte chunked (no Content-Length)', async () => {
      const res = await rawRequest({ method: 'POST', path: '/v2/plots', auth: auth(), total: 10 * MiB + 1, headers: { 'Transfer-Encoding': 'chunked' } });
      expectError(res, 413, '10 MiB');
    });
    it('POST /v2/plots: 20 MiB chunked', async () => {
      const res = await rawRequest({ method: 'POST', path: '/v2/plots', auth: auth(), total: 20 * MiB, headers: { 'Transfer-Encoding': 'chunked' } });
      expectError(res, 413, '10 MiB');
    });
    it('POST /v2/plots: a Content-Length claiming 11 MiB, answered before the body arrives', async () => {
      const res = await rawRequest({
        method: 'POST',
        path: '/v2/plots',
        auth: auth(),
        total: 11 * MiB,
        hold: 16,
        headers: { 'Content-Length': String(11 * MiB) },
      });
      expectError(res, 413, '10 MiB');
    });
    it('PUT /v2/plots/{fid}: 10 MiB + 1 byte with Content-Length', async () => {
      const res = await rawRequest({ method: 'PUT', path: `/v2/plots/${ctx.plotFid}`, auth: auth(), total: 10 * MiB + 1 });
      expectError(res, 413, '10 MiB');
    });
    it('PUT /v2/plots/{fid}: 10 MiB + 1 byte chunked', async () => {
      const res = await rawRequest({
        method: 'PUT',
        path: `/v2/plots/${ctx.plotFid}`,
        auth: auth(),
        total: 10 * MiB + 1,
        headers: { 'Transfer-Encoding': 'chunked' },
      });
      expectError(res, 413, '10 MiB');
    });
    // Rows appended: 50 MiB; a grid's create and its columns: 256 MiB (one 10,000,000-value column a request).
    it('POST /v2/grids/{fid}/row: 50 MiB + 1 byte with Content-Length', async () => {
      const res = await rawRequest({ method: 'POST', path: `/v2/grids/${ctx.gridFid}/row`, auth: auth(), total: 50 * MiB + 1 });
      expectError(res, 413, '50 MiB');
    });
    it('POST /v2/grids/{fid}/row: 50 MiB + 1 byte chunked', async () => {
      const res = await rawRequest({
        method: 'POST',
        path: `/v2/grids/${ctx.gridFid}/row`,
        auth: auth(),
        total: 50 * MiB + 1,
        headers: { 'Transfer-Encoding': 'chunked' },
      });
      expectError(res, 413, '50 MiB');
    });
    it('POST /v2/grids: a Content-Length claiming 257 MiB, answered before the body arrives', async () => {
      const res = await rawRequest({
        method: 'POST',
        path: '/v2/grids',
        auth: auth(),
        total: 257 * MiB,
        hold: 16,
        headers: { 'Content-Length': String(257 * MiB) },
      });
      expectError(res, 413, '256 MiB');
    });
  });

  it('leaves the database exactly as it was (counts, max ids and rows of users, files, plots, grid_columns)', async () => {
    const after = await snapshot(ids);
    expect(after).toEqual(before);
    // And the whole database, to the byte, as pg_dump writes it.
    const dumpAfter = dumpDatabase(inject('databaseUrl'));
    expect(dumpAfter.length).toBeGreaterThan(1000);
    const lines = (text: string) => new Set(text.split('\n'));
    const [was, is] = [lines(dumpBefore), lines(dumpAfter)];
    const changed = [...[...was].filter((l) => !is.has(l)).map((l) => `- ${l}`), ...[...is].filter((l) => !was.has(l)).map((l) => `+ ${l}`)];
    expect(
      changed.map((l) => l.slice(0, 300)),
      'pg_dump lines that differ after the hostile corpus',
    ).toEqual([]);
    expect(dumpAfter).toBe(dumpBefore);
    // The fixtures still answer as before.
    const plot = await call('GET', `/v2/plots/${ctx.plotFid}`);
    expect(plot.status).toBe(200);
    expect(plot.json.title).toBe('');
    expect(plot.json.filename).toBe('hostile plot');
    const grid = await call('GET', `/v2/grids/${ctx.gridFid}/content`);
    expect(Object.keys(grid.json.cols)).toEqual(['x', 'y']);
  });

  it('after a 413 the connection is either closed by the server or still usable', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await rawRequest({
        method: 'POST',
        path: '/v2/plots',
        auth: ctx.alice.auth,
        total: 11 * MiB,
        agent,
        headers: { 'Transfer-Encoding': 'chunked' },
      });
      expectError(first, 413);
      if (first.connection?.toLowerCase() === 'close') return;
      // The server said keep-alive: the next request on that connection must be answered.
      const second = await rawRequest({ method: 'GET', path: '/v2/plots?page_size=1', auth: ctx.alice.auth, total: 0, agent });
      expect(second.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  describe('legitimate input that looks hostile is accepted and returned verbatim', () => {
    const created: string[] = [];

    it.each([
      ['an HTML title', { title: HTML }],
      ['a SQL title', { title: SQL2 }],
      ['a SQL filename', { filename: SQL1 }],
      ['a SQL drop filename', { filename: SQL2 }],
      ['an HTML filename without a slash', { filename: '<img src=x onerror=alert(1)>' }],
      ['an HTML caption', { caption: `${HTML}<iframe src="javascript:alert(1)">` }],
      ['a title with quotes, backslashes and unicode', { title: 'a "quoted" \\ back\\slash \u00e9 \u4e2d \ud83d\ude00' }],
      ['a title with a literal backslash-u-0000 text', { title: '\\u0000' }],
      ['a title with a literal backslash-u-d800 text', { title: '\\ud800' }],
      ['a title of 300 brackets', { title: `${'['.repeat(150)}${'{'.repeat(150)}` }],
      ['a title with a Unicode line separator', { title: 'a\u2028b\u2029c' }],
    ])('POST /v2/plots with %s', async (_label, fields) => {
      const res = await call('POST', '/v2/plots', { user: ctx.alice, body: { ...fields, figure: { data: [{ type: 'scatter', ysrc: ctx.src('y') }] } } });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      created.push(res.json.file.fid);
      for (const [key, value] of Object.entries(fields)) expect(res.json.file[key]).toBe(value);
      const detail = await call('GET', `/v2/plots/${res.json.file.fid}`);
      for (const [key, value] of Object.entries(fields)) expect(detail.json[key]).toBe(value);
    });

    it('the layout title (HTML) becomes the plot title verbatim, and content returns it unescaped', async () => {
      const layout = { title: { text: `<b>${HTML}</b> & ${SQL1}` }, annotations: [{ text: '<br>&amp;' }] };
      const res = await call('POST', '/v2/plots', { user: ctx.alice, body: { figure: { data: [{ type: 'scatter', ysrc: ctx.src('y') }], layout } } });
      expect(res.status).toBe(200);
      created.push(res.json.file.fid);
      expect(res.json.file.title).toBe(layout.title.text);
      const content = await call('GET', `/v2/plots/${res.json.file.fid}/content`);
      expect(content.json.layout).toEqual(layout);
      expect(content.text).toContain('<script>');
    });

    it('an escaped surrogate pair is a valid character', async () => {
      const raw = Buffer.from('{"figure":{"data":[]},"title":"\\ud83d\\ude00"}');
      const res = await call('POST', '/v2/plots', { user: ctx.alice, raw, headers: { 'Content-Type': JSON_TYPE } });
      expect(res.status, res.text).toBe(200);
      created.push(res.json.file.fid);
      expect(res.json.file.title).toBe('\u{1F600}');
    });

    it('a body with no Content-Type is read as JSON; application/json; charset=utf-8 too', async () => {
      const none = await call('POST', '/v2/plots', { user: ctx.alice, raw: Buffer.from('{"figure":{"data":[]},"title":"no type"}') });
      expect(none.status, none.text).toBe(200);
      expect(none.json.file.title).toBe('no type');
      const charset = await call('POST', '/v2/plots', {
        user: ctx.alice,
        raw: Buffer.from('{"figure":{"data":[]},"title":"charset"}'),
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      });
      expect(charset.status, charset.text).toBe(200);
      created.push(none.json.file.fid, charset.json.file.fid);
    });

    it('nesting of exactly 100 levels is accepted', async () => {
      const res = await call('POST', '/v2/plots', { user: ctx.alice, raw: Buffer.from(TARGETS[0].nested(100)), headers: { 'Content-Type': JSON_TYPE } });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      created.push(res.json.file.fid);
      let depth = 0;
      for (let o = res.json.file.figure.layout; o && Object.keys(o).length; o = o.a) depth++;
      expect(depth).toBe(97);
    });

    it('a body of exactly 10 MiB is read whole (no 413), and its figure held to the 1 MiB a stored figure may take', async () => {
      const head = '{"figure":{"data":[],"layout":{"pad":"';
      const tail = '"}}}';
      const raw = Buffer.from(head + 'x'.repeat(10 * MiB - head.length - tail.length) + tail);
      expect(raw.length).toBe(10 * MiB);
      const res = await call('POST', '/v2/plots', { user: ctx.alice, raw, headers: { 'Content-Type': JSON_TYPE } });
      expectError(res, 400, 'at most 1 MiB');
      const fits = Buffer.from(head + 'x'.repeat(MiB - 1000) + tail);
      const ok = await call('POST', '/v2/plots', { user: ctx.alice, raw: fits, headers: { 'Content-Type': JSON_TYPE } });
      expect(ok.status, ok.text.slice(0, 300)).toBe(200);
      created.push(ok.json.file.fid);
    });

    it('grid column names and values with HTML and SQL come back verbatim', async () => {
      const cols = { [HTML]: { data: [HTML, SQL1], order: 0 }, [SQL2]: { data: ['&lt;', '"\'\\'], order: 1 } };
      const res = await call('POST', '/v2/grids', { user: ctx.alice, body: { data: { cols }, filename: `${SQL1} grid` } });
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      created.push(res.json.file.fid);
      expect(res.json.file.filename).toBe(`${SQL1} grid`);
      expect(res.json.file.cols.map((c: { name: string }) => c.name)).toEqual([HTML, SQL2]);
      const content = await call('GET', `/v2/grids/${res.json.file.fid}/content`);
      expect(content.json.cols[HTML].data).toEqual([HTML, SQL1]);
      expect(content.json.cols[SQL2].data).toEqual(['&lt;', '"\'\\']);
    });

    it('a folder named with SQL is created and found by lookup', async () => {
      const parent = `${SQL2} folder`;
      const res = await call('POST', '/v2/folders', { user: ctx.alice, body: { path: `${parent}/<img src=x onerror=alert(1)>` } });
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      created.push(res.json.file.fid);
      expect(res.json.file.filename).toBe('<img src=x onerror=alert(1)>');
      const lookup = await call('GET', `/v2/files/lookup?path=${encodeURIComponent(parent)}`, { user: ctx.alice });
      expect(lookup.status).toBe(200);
      expect(lookup.json.filetype).toBe('fold');
      expect(lookup.json.filename).toBe(parent);
      const child = await call('GET', `/v2/files/lookup?path=${encodeURIComponent(`${parent}/<img src=x onerror=alert(1)>`)}`, { user: ctx.alice });
      expect(child.status).toBe(200);
      expect(child.json.fid).toBe(res.json.file.fid);
    });

    it('a column of exactly 1,000,000 values is accepted', async () => {
      const res = await call('POST', '/v2/grids', { user: ctx.alice, body: { data: { cols: { big: { data: new Array(1_000_000).fill(1), order: 0 } } } } });
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      created.push(res.json.file.fid);
    });

    it('the tables are all still there', async () => {
      const after = await snapshot(ids);
      expect(after.tables_exist).toBe(true);
      expect(Number(after.files_count)).toBeGreaterThan(Number(before.files_count));
    });
  });

  // Last: fetch's shared connection pool may keep the connection this upload was refused on.
  describe('streamed upload through fetch', () => {
    it('POST /v2/plots: 11 MiB as a fetch ReadableStream (duplex: half, no Content-Length)', async () => {
      let sent = 0;
      const piece = new Uint8Array(256 * 1024).fill(0x20);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 11 * MiB) return controller.close();
          sent += piece.byteLength;
          controller.enqueue(piece);
        },
      });
      const res = await fetch(`${baseUrl()}/v2/plots`, {
        method: 'POST',
        headers: { Authorization: ctx.alice.auth, 'Content-Type': JSON_TYPE },
        body,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      const text = await res.text();
      expectError({ status: res.status, headers: res.headers, text, json: JSON.parse(text) }, 413, '10 MiB');
    });
  });
});
