// Plots: list (keyset pages), feed, create, detail, and a plot's part of an update (files.ts updateFile).
import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { compiledQuery, queryRows, type CompiledQuery, type Db } from '@/db/client';
import { plots } from '@/db/schema';
import type { Viewer } from './auth';
import { decodeCursor, keysetPage, type Cursor, type RowsPage } from './cursors';
import { invalid, invalidMany, notFound } from './errors';
import { checkFigure, figureMeta, pathText, type SrcRef } from './figure';
import { enqueue, notifyQueued, requestImages } from './images';
import { MiB } from './json-text';
import { createFileWith, fileFieldsSchema, getFile, NEW_FILE, updateFile, type OwnedFile, type TYPE_FIELDS, type TypeUpdate } from './files';
import { assertReadable, canRead, canReadSql } from './permissions';
import { fidOf, isoText, originJoin, parseFid, plotRecordSql, type Fid, type PlotRecord } from './records';
import { dataSize, MAX_REFERENCED_BYTES, MAX_REFERENCED_VALUES, overDataLimit, resolveSrcs, srcColumnsSql, wantedColumns, type DataSize } from './srcs';

// ---------------------------------------------------------------------------------------------
// Lists

export const ORDERS = ['-creation_time', '-views', 'views'] as const;
export type Order = (typeof ORDERS)[number];

const intParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, `${name} must be an integer`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

export const listQuerySchema = z.object({
  order_by: z
    .enum(['views', '-views'], { message: "order_by must be 'views' or '-views' (default: newest first)" })
    .optional()
    .meta({ description: '`-views`: most viewed first; `views`: least viewed first (default: newest first)' }),
  min_quality: intParam('min_quality', -1_000_000, 1_000_000).optional().meta({ description: 'only plots whose curated quality (0..10) is at least this' }),
  max_quality: intParam('max_quality', -1_000_000, 1_000_000).optional().meta({ description: 'only plots whose curated quality is at most this' }),
  page_size: intParam('page_size', 1, 100).optional().meta({ description: 'results per page, 1..100 (default 20)' }),
  cursor: z.string().max(512).optional().meta({ description: 'the page to answer: opaque, taken from a `next` or `previous` link' }),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** A list answer, `{"next", "previous", "results"}`, as JSON text: whole, or in pieces (see `pageParts`). */
export type Page = string | AsyncIterable<string>;

/** The columns every list row carries besides its projection: the keys its cursors are made of. */
export interface PageRow {
  file_id: string | number;
  created: string;
  views: string | number;
  h?: string;
}

export const RECORD_JOIN = sql`JOIN files f ON f.id = p.file_id JOIN users u ON u.id = f.owner_id`;

/** One keyset order: its key, its row order, and the SQL that fetches `limit` rows after (or before) a key. */
interface OrderPlan {
  keyOf(row: PageRow): (string | number)[];
  /** The display order over `p` ('n') and its reverse ('p'). */
  order: Record<'n' | 'p', SQL>;
  /** Rows strictly after `key` in display order (`dir` 'n') or before it in reverse order ('p'). The
   * key's parts are values or placeholders. */
  fetch(filter: SQL, key: unknown[] | null, dir: 'n' | 'p', limit: number): SQL;
}

const select = sql`SELECT p.file_id, p.created_at, p.views FROM plots p`;
const NEWEST = { n: sql`p.created_at DESC, p.file_id DESC`, p: sql`p.created_at ASC, p.file_id ASC` };
export const newestKey = (created: unknown, id: unknown) => sql`${created}::timestamptz, ${id}::bigint`;

/**
 * `LIMIT n` written into the statement's text: a parameter there makes PostgreSQL re-plan the statement
 * on every run (the generic plan of an unknown limit is a bad one). `n` is a validated whole number.
 */
export const limitSql = (n: number) => {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`bad LIMIT ${n}`);
  return sql.raw(`LIMIT ${n}`);
};

/** `AND (columns) < (key)`: past the key in a descending order walking forward ('n'), `>` walking back. */
export const past = (dir: 'n' | 'p', columns: SQL, key: SQL) => sql`AND (${columns}) ${sql.raw(dir === 'n' ? '<' : '>')} (${key})`;

const PLANS: Record<Order, OrderPlan> = {
  '-creation_time': {
    keyOf: (r) => [r.created, Number(r.file_id)],
    order: NEWEST,
    fetch: (filter, key, dir, limit) => {
      const after = key ? past(dir, sql`p.created_at, p.file_id`, newestKey(key[0], key[1])) : sql``;
      return sql`${select} WHERE p.listed ${filter} ${after} ORDER BY ${NEWEST[dir]} ${limitSql(limit)}`;
    },
  },
  '-views': {
    keyOf: (r) => [Number(r.views), r.created, Number(r.file_id)],
    order: { n: sql`p.views DESC, p.created_at DESC, p.file_id DESC`, p: sql`p.views ASC, p.created_at ASC, p.file_id ASC` },
    fetch: (filter, key, dir, limit) => {
      const after = key ? past(dir, sql`p.views, p.created_at, p.file_id`, sql`${key[0]}::bigint, ${newestKey(key[1], key[2])}`) : sql``;
      return sql`${select} WHERE p.listed ${filter} ${after} ORDER BY ${PLANS['-views'].order[dir]} ${limitSql(limit)}`;
    },
  },
  // Fewest views first, ties newest first: the mixed directions cannot be one row comparison, so
  // the page is two index range scans (the rest of the key's views value, then higher views).
  views: {
    keyOf: (r) => [Number(r.views), r.created, Number(r.file_id)],
    order: { n: sql`p.views ASC, p.created_at DESC, p.file_id DESC`, p: sql`p.views DESC, p.created_at ASC, p.file_id ASC` },
    fetch: (filter, key, dir, limit) => {
      const order = PLANS.views.order[dir];
      if (!key) return sql`${select} WHERE p.listed ${filter} ORDER BY ${order} ${limitSql(limit)}`;
      const [views, created, id] = key;
      const sameViews = sql`p.views = ${views}::bigint ${past(dir, sql`p.created_at, p.file_id`, newestKey(created, id))}`;
      const beyond = dir === 'n' ? sql`p.views > ${views}::bigint` : sql`p.views < ${views}::bigint`;
      // The union is named p too, so that one order serves its parts and the whole.
      return sql`SELECT * FROM (
          (${select} WHERE p.listed ${filter} AND ${sameViews} ORDER BY ${NEWEST[dir]} ${limitSql(limit)})
          UNION ALL
          (${select} WHERE p.listed ${filter} AND ${beyond} ORDER BY ${order} ${limitSql(limit)})
        ) p ORDER BY ${order} ${limitSql(limit)}`;
    },
  },
};

/** The links to a page's neighbours: the request's path and other parameters at the public origin. */
function pageLinks(origin: string, url: URL): (cursor: string | null) => string {
  const params = new URLSearchParams(url.searchParams);
  params.delete('cursor');
  const base = `${origin}${url.pathname}?${params.size ? `${params}&` : ''}cursor=`;
  return (cursor) => JSON.stringify(cursor && `${base}${encodeURIComponent(cursor)}`);
}

/**
 * The API's answer, `{"next", "previous", "results"}`, with links that keep the request's other
 * parameters: one text when every record came with the page (the usual case), else streamed, the
 * records of large figures (`recordSelect` leaves them out) read one at a time as the answer goes, so
 * a page of 100 plots with 1 MiB figures never sits in memory whole.
 */
export function pageParts(db: Db, page: RowsPage<PageRow & { rec: string | null }>, viewerId: number | null, origin: string, url: URL): Page {
  const link = pageLinks(origin, url);
  const head = `{"next":${link(page.next)},"previous":${link(page.previous)},"results":[`;
  if (page.rows.every((row) => row.rec !== null)) return `${head}${page.rows.map((row) => row.rec).join(',')}]}`;
  return streamedParts(db, page, viewerId, origin, head);
}

async function* streamedParts(db: Db, page: RowsPage<PageRow & { rec: string | null }>, viewerId: number | null, origin: string, head: string) {
  let text = head;
  let count = 0;
  for (const row of page.rows) {
    let rec = row.rec;
    if (rec === null) {
      yield text;
      text = '';
      const [big] = await queryRows<{ rec: string }>(
        db,
        sql`SELECT ${plotRecordSql(viewerId, false)} AS rec FROM plots p ${RECORD_JOIN} ${originJoin(origin)} WHERE p.file_id = ${row.file_id}`,
      );
      // Deleted since the page was read: left out.
      if (!big) continue;
      rec = big.rec;
    }
    text += `${count++ ? ',' : ''}${rec}`;
  }
  yield `${text}]}`;
}

/** Records above this size (their figures') are read on their own while a list answer streams. */
const INLINE_FIGURE_BYTES = 64 * 1024;

/** The spec 2.1 record as list answers carry it (the projection for `listPlotRows`). */
export const recordSelect = (viewerId: number | null | Placeholder) =>
  sql`CASE WHEN p.figure_bytes <= ${sql.raw(String(INLINE_FIGURE_BYTES))} THEN ${plotRecordSql(viewerId, false)} END AS rec`;

/** The API list's projections, built once: an anonymous caller's, and a signed-in one's (`viewer` given at each run). */
const RECORD_SELECT = { anonymous: recordSelect(null), viewer: recordSelect(sql.placeholder('viewer')) };

/** What a list page's statement text depends on; its values (origin, cursor key, quality bounds) are placeholders. */
interface ListShape {
  order: Order;
  dir: 'n' | 'p';
  /** The cursor's key length (0 without a cursor). */
  keyLength: number;
  min: boolean;
  max: boolean;
  /** Rows fetched: the page size plus one. */
  limit: number;
}

function listShape(q: ListQuery, cursor: Cursor | null, origin: string): { shape: ListShape; values: Record<string, unknown> } {
  const values: Record<string, unknown> = { origin, min: q.min_quality, max: q.max_quality };
  cursor?.k.forEach((part, i) => {
    values[`k${i}`] = part;
  });
  const shape = {
    order: q.order_by ?? '-creation_time',
    dir: cursor?.d ?? 'n',
    keyLength: cursor?.k.length ?? 0,
    min: q.min_quality !== undefined,
    max: q.max_quality !== undefined,
    limit: (q.page_size ?? 20) + 1,
  } satisfies ListShape;
  return { shape, values };
}

/** The one statement behind a list page (page_size + 1 rows, to know whether more exist), its values as placeholders. */
function listPageTemplate(select: SQL, shape: ListShape): SQL {
  const filter = sql`${shape.min ? sql`AND p.quality >= ${sql.placeholder('min')}` : sql``} ${shape.max ? sql`AND p.quality <= ${sql.placeholder('max')}` : sql``}`;
  const key = shape.keyLength ? Array.from({ length: shape.keyLength }, (_, i) => sql.placeholder(`k${i}`)) : null;
  const keys = PLANS[shape.order].fetch(filter, key, shape.dir, shape.limit);
  return sql`SELECT ${select}, p.file_id, ${isoText(sql`p.created_at`, 'micros')} AS created, p.views
        FROM (${keys}) k JOIN plots p ON p.file_id = k.file_id ${RECORD_JOIN} ${originJoin(sql.placeholder('origin'))}
        ORDER BY ${PLANS[shape.order].order[shape.dir]}`;
}

/** List statements by projection, then by shape: each compiled once (a few dozen shapes in practice). */
const LIST_STATEMENTS = new WeakMap<SQL, Map<string, CompiledQuery<unknown>>>();

/** The web gallery's page size: with the API's default, the sizes whose list statements are prepared. */
export const GALLERY_PAGE_SIZE = 24;
const PREPARED_LIMITS = new Set([20 + 1, GALLERY_PAGE_SIZE + 1]);

/**
 * Only the shapes pages usually take are prepared: forward, the API's or the gallery's page size, no
 * upper quality bound. That is at most 24 a projection (each order, with or without a cursor and a
 * lower quality bound, at either size); a prepared list statement holds ~300 KB in each Postgres
 * connection for its life (see mayPrepare). Any other shape a request can ask for (of 4,800) runs
 * unnamed and is planned each time.
 */
const preparedShape = (shape: ListShape) => shape.dir === 'n' && !shape.max && PREPARED_LIMITS.has(shape.limit);

function listStatement<R>(select: SQL, shape: ListShape): CompiledQuery<R> {
  let byShape = LIST_STATEMENTS.get(select);
  if (!byShape) {
    byShape = new Map();
    LIST_STATEMENTS.set(select, byShape);
  }
  const name = `${shape.order} ${shape.dir} ${shape.keyLength} ${shape.min} ${shape.max} ${shape.limit}`;
  let statement = byShape.get(name);
  if (!statement) {
    statement = compiledQuery(() => listPageTemplate(select, shape), { prepare: preparedShape(shape) });
    byShape.set(name, statement);
  }
  return statement as CompiledQuery<R>;
}

/**
 * Public live plots, newest first or by views, keyset-paged: the one pager behind `GET /v2/plots` and
 * the web's lists. `select` is the projection over `p` (plots), `f` (files), `u` (users) and `c.o`
 * (the origin), e.g. `recordSelect` or a card's few columns.
 */
export async function listPlotRows<R>(
  db: Db,
  select: SQL,
  q: ListQuery,
  origin: string,
  selectValues: Record<string, unknown> = {},
): Promise<RowsPage<R & PageRow>> {
  const order: Order = q.order_by ?? '-creation_time';
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order, (c) => c.k.length === (order === '-creation_time' ? 2 : 3)) : null;
  const { shape, values } = listShape(q, cursor, origin);
  const rows = await listStatement<R & PageRow>(select, shape)(db, { ...selectValues, ...values });
  return keysetPage(db, rows, { size: q.page_size ?? 20, cursor, order, keyOf: PLANS[order].keyOf });
}

/** GET /v2/plots */
export async function listPlots(db: Db, viewer: Viewer | null, q: ListQuery, origin: string, url: URL): Promise<Page> {
  const viewerId = viewer?.id ?? null;
  const page =
    viewerId === null
      ? await listPlotRows<{ rec: string | null }>(db, RECORD_SELECT.anonymous, q, origin)
      : await listPlotRows<{ rec: string | null }>(db, RECORD_SELECT.viewer, q, origin, { viewer: viewerId });
  return pageParts(db, page, viewerId, origin, url);
}

/** The statement behind a list page and its placeholders' values; for the benchmarks' floor. */
export function listPageSql(select: SQL, q: ListQuery, cursor: Cursor | null, origin: string): { query: SQL; values: Record<string, unknown> } {
  const { shape, values } = listShape(q, cursor, origin);
  return { query: listPageTemplate(select, shape), values };
}

export const feedQuerySchema = listQuerySchema.pick({ page_size: true, cursor: true });

/**
 * Handpicked public plots in a random order (`GET /v2/plots/feed`, the web's feed), any projection as
 * `listPlotRows`. The order is md5(seed, id) with the seed carried in the cursor, so one walk through
 * the pages shows each plot once.
 */
export async function listFeedRows<R>(db: Db, select: SQL, q: z.output<typeof feedQuerySchema>, origin: string): Promise<RowsPage<R & PageRow>> {
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, 'feed', (c) => c.k.length === 2 && typeof c.s === 'string') : null;
  const seed = cursor?.s ?? randomBytes(6).toString('hex');
  const size = q.page_size ?? 20;
  const dir = cursor?.d ?? 'n';
  const h = sql`md5(${seed}::text || p.file_id::text)`;
  const after = !cursor
    ? sql``
    : dir === 'n'
      ? sql`AND (${h}, p.file_id) > (${cursor.k[0]}::text, ${cursor.k[1]}::bigint)`
      : sql`AND (${h}, p.file_id) < (${cursor.k[0]}::text, ${cursor.k[1]}::bigint)`;
  const order = dir === 'n' ? sql`h ASC, file_id ASC` : sql`h DESC, file_id DESC`;
  const rows = await queryRows<R & PageRow>(
    db,
    sql`SELECT * FROM (
          SELECT ${select}, p.file_id, '' AS created, p.views, ${h} AS h
          FROM plots p ${RECORD_JOIN} ${originJoin(origin)}
          WHERE p.listed AND p.handpicked ${after}
        ) s ORDER BY ${order} ${limitSql(size + 1)}`,
  );
  return keysetPage(db, rows, { size, cursor, order: 'feed', seed, keyOf: (r) => [r.h!, Number(r.file_id)] });
}

/**
 * An owner's live plots, newest first (profiles), any projection as `listPlotRows`: public ones only,
 * unless the viewer is that owner (then private and secret ones too). The cursor is bound to the
 * owner, so it cannot be replayed on another profile.
 */
export async function listOwnerPlotRows<R>(
  db: Db,
  viewer: Viewer | null,
  ownerId: number,
  select: SQL,
  q: z.output<typeof feedQuerySchema>,
  origin: string,
): Promise<RowsPage<R & PageRow>> {
  const order = `user:${ownerId}`;
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order, (c) => c.k.length === 2 && typeof c.k[0] === 'string' && typeof c.k[1] === 'number') : null;
  const size = q.page_size ?? 20;
  const dir = cursor?.d ?? 'n';
  const after = cursor ? past(dir, sql`f.created_at, f.id`, newestKey(cursor.k[0], cursor.k[1])) : sql``;
  const sorted = dir === 'n' ? sql`f.created_at DESC, f.id DESC` : sql`f.created_at ASC, f.id ASC`;
  // Keys first (one range of an owner's files), records for those rows only.
  const rows = await queryRows<R & PageRow>(
    db,
    sql`SELECT ${select}, f.id AS file_id, ${isoText(sql`f.created_at`, 'micros')} AS created, p.views
        FROM (SELECT f.id FROM files f
              WHERE f.owner_id = ${ownerId} AND f.filetype = 'plot' AND f.trashed_at IS NULL
                ${viewer?.id === ownerId ? sql`` : sql`AND f.world_readable`} ${after}
              ORDER BY ${sorted} ${limitSql(size + 1)}) k
        JOIN plots p ON p.file_id = k.id ${RECORD_JOIN} ${originJoin(origin)}
        ORDER BY ${sorted}`,
  );
  return keysetPage(db, rows, { size, cursor, order, keyOf: PLANS['-creation_time'].keyOf });
}

/** GET /v2/plots/feed */
export async function listFeed(db: Db, viewer: Viewer | null, q: z.output<typeof feedQuerySchema>, origin: string, url: URL): Promise<Page> {
  const viewerId = viewer?.id ?? null;
  return pageParts(db, await listFeedRows<{ rec: string | null }>(db, recordSelect(viewerId), q, origin), viewerId, origin, url);
}

// ---------------------------------------------------------------------------------------------
// Detail

export async function getPlotFile(db: Db, fid: Fid, state: 'live' | 'trashed' = 'live'): Promise<OwnedFile | undefined> {
  const file = await getFile(db, fid, state);
  return file?.filetype === 'plot' ? file : undefined;
}

/** The live plot at the fid text `value` (a lineage's source) when the viewer may read it. */
export async function readablePlotAt(db: Db, viewer: Viewer | null, value: string): Promise<OwnedFile | undefined> {
  const fid = parseFid(value);
  const file = fid ? await getPlotFile(db, fid) : undefined;
  return file && canRead(file, viewer) ? file : undefined;
}

/** The detail record's JSON text for a plot the caller may read (the caller checked). */
async function detailText(db: Db, fileId: number, viewer: Viewer | null, origin: string): Promise<string> {
  const [row] = await queryRows<{ rec: string }>(
    db,
    sql`SELECT ${plotRecordSql(viewer?.id ?? null, true)} AS rec FROM plots p ${RECORD_JOIN} ${originJoin(origin)} WHERE p.file_id = ${fileId}`,
  );
  if (!row) throw notFound();
  return row.rec;
}

/** GET /v2/plots/{fid} */
export async function getPlot(db: Db, viewer: Viewer | null, fid: Fid, origin: string, shareKey?: string | null): Promise<string> {
  const file = assertReadable(await getPlotFile(db, fid), viewer, shareKey);
  return detailText(db, file.id, viewer, origin);
}

/** The same detail record as an object, for pages (one record builder: plotRecordSql). */
export async function getPlotRecord(db: Db, viewer: Viewer | null, fid: Fid, origin: string, shareKey?: string | null): Promise<PlotRecord> {
  return JSON.parse(await getPlot(db, viewer, fid, origin, shareKey)) as PlotRecord;
}

// ---------------------------------------------------------------------------------------------
// Create and update

/** The stored figure's size: settings and src references (docs/limits.md). */
export const MAX_FIGURE_BYTES = MiB;

const figureSchema = z.unknown().meta({ description: 'the plotly.js figure: {data, layout?, frames?}, data by src reference' });

/** A plot's own fields, beyond every file's (fileFieldsSchema). */
const plotFields = {
  figure: figureSchema.optional(),
  source_fid: z.string().max(100).nullable().optional().meta({ description: 'the plot this one was copied from (lineage); null clears' }),
  title: z.string().max(1000).optional(),
  caption: z.string().max(100_000).optional(),
} satisfies Record<(typeof TYPE_FIELDS.plot)[number], z.ZodType>;

/** PUT/PATCH /v2/plots/{fid}: the fields given change. */
export const plotUpdateSchema = fileFieldsSchema.extend(plotFields);
export type PlotUpdate = z.output<typeof plotUpdateSchema>;

/** POST /v2/plots: the same fields, `figure` required, placed by `parent_path`. */
export const plotCreateSchema = fileFieldsSchema.omit({ parent: true }).extend({
  ...plotFields,
  figure: figureSchema.refine((v) => v !== undefined, 'This field is required.'),
});
export type PlotCreate = z.output<typeof plotCreateSchema>;

/**
 * Every src must name a live grid the creator may read, and columns in it; answers the grid data
 * they reference (values and bytes), each reference counted.
 */
async function checkSources(db: Db, viewer: Viewer, refs: SrcRef[]): Promise<DataSize> {
  if (!refs.length) return { values: 0, bytes: 0 };
  const resolved = await resolveSrcs(
    db,
    refs.map((ref) => ref.src),
    (grid) => canRead(grid, viewer),
  );
  const problems: { field: string; message: string }[] = [];
  refs.forEach((ref, i) => {
    const { grid, missing } = resolved[i];
    if (!grid) {
      problems.push({
        field: pathText(ref.path),
        message: `"${ref.src}" refers to the grid '${ref.owner}:${ref.n}', which does not exist or which you cannot read`,
      });
    } else if (missing !== null) {
      problems.push({ field: pathText(ref.path), message: `"${ref.src}": the grid '${ref.owner}:${ref.n}' has no column '${missing}'` });
    }
  });
  if (problems.length) throw invalidMany(problems.slice(0, 20));
  const size = dataSize(resolved);
  const over = overDataLimit(size);
  if (over) throw invalid('figure', `its srcs ${over} a plot`);
  return size;
}

async function checkSourceFid(db: Db, viewer: Viewer, value: string): Promise<string> {
  const file = await readablePlotAt(db, viewer, value);
  if (!file) throw invalid('source_fid', `'${value}' is not a plot you can read`);
  return fidOf(file.owner, file.n);
}

/** A figure checked and normalized for storage (`data`, `layout` (default {}), and `frames` when given), its srcs not yet resolved. */
function storedFigure(figure: unknown) {
  const srcs = checkFigure(figure);
  const fig = figure as Record<string, unknown>;
  const stored = { data: fig.data, layout: fig.layout ?? {}, ...(fig.frames !== undefined ? { frames: fig.frames } : {}) };
  // Figures hold settings and src references, never data: a bounded size keeps every list, page and
  // render that carries one bounded too.
  const text = JSON.stringify(stored);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_FIGURE_BYTES) {
    throw invalid('figure', `is ${(bytes / MiB).toFixed(1)} MiB once stored (layout, traces and frames, data by src); at most 1 MiB`);
  }
  return { figure: stored, text, bytes, srcs, refs: srcs.map((r) => ({ p: r.path, s: r.src })), meta: figureMeta(stored) };
}

/** storedFigure with its srcs checked (checkSources) and the grid data they reference. */
async function prepareFigure(db: Db, viewer: Viewer, figure: unknown) {
  const stored = storedFigure(figure);
  return { ...stored, data: await checkSources(db, viewer, stored.srcs) };
}

/**
 * A figure under the create and update rules (its form, its stored size, its srcs: readable by the
 * viewer, within the data limit), nothing written: the chart editor's expert view checks edits with it.
 * Throws the same 400s as the API.
 */
export async function checkPlotFigure(db: Db, viewer: Viewer, figure: unknown): Promise<void> {
  await prepareFigure(db, viewer, figure);
}

/**
 * One statement: the srcs checked (checkSources' rules: each names columns of a live grid the creator
 * may read, the values they reference within the limit), and only then the files row (create_file),
 * the plots row, its image job, and its detail record built from what they return (rows written by
 * this statement are not visible to it otherwise). No row when a src fails: checkSources then says
 * why. Compiled once: the create path's SQL costs more to build than to run.
 */
const CREATE_PLOT = compiledQuery<{ rec: string }>(() => {
  const v = (name: string) => sql.placeholder(name);
  return sql`WITH found AS MATERIALIZED (${srcColumnsSql(v('wanted'))}),
      checked AS MATERIALIZED (
        SELECT coalesce(bool_and(s.column_id IS NOT NULL AND ${canReadSql({ worldReadable: sql`s.world_readable`, ownerId: sql`s.owner_id` }, v('viewer'))}), true)
                 AND coalesce(sum(s.length), 0) <= ${sql.raw(String(MAX_REFERENCED_VALUES))}
                 AND coalesce(sum(s.bytes), 0) <= ${sql.raw(String(MAX_REFERENCED_BYTES))} AS ok,
               coalesce(sum(s.length), 0) AS data_values, coalesce(sum(s.bytes), 0) AS data_bytes
        FROM jsonb_to_recordset(${v('wanted')}::jsonb) AS w(owner text, n int, uid text)
        LEFT JOIN found s ON s.owner = w.owner AND s.n = w.n AND s.uid = w.uid),
      f AS MATERIALIZED (SELECT * FROM ${NEW_FILE} WHERE (SELECT ok FROM checked)),
      p AS (
        INSERT INTO plots (file_id, figure, figure_bytes, data_values, data_bytes, src_refs, title, title_given, caption, source_fid, width, height, autosize)
        SELECT f.id, ${v('figure')}::jsonb, ${v('bytes')}::int, (SELECT data_values FROM checked), (SELECT data_bytes FROM checked), ${v('refs')}::jsonb, ${v('title')}::text,
               ${v('title_given')}::boolean, ${v('caption')}::text, ${v('source_fid')}::text, ${v('width')}::int, ${v('height')}::int,
               ${v('autosize')}::boolean
        FROM f RETURNING *),
      queued AS (${enqueue(sql`SELECT file_id, ${v('viewer')}::int AS owner_id, version FROM p`)})
      SELECT ${plotRecordSql(v('viewer'), true, true)} AS rec
      FROM f JOIN p ON p.file_id = f.id JOIN users u ON u.id = f.owner_id ${originJoin(v('origin'))}
      CROSS JOIN (SELECT count(*) FROM (${notifyQueued}) n) notified`;
});

/**
 * POST /v2/plots: 200 with `{"file": detail}`. Two round trips: the caller's, and CREATE_PLOT, which
 * checks the srcs itself; checkSources runs only when it refused them, to say which and why.
 */
export async function createPlot(db: Db, viewer: Viewer, input: PlotCreate, origin: string): Promise<string> {
  const { text, bytes, srcs, refs, meta } = storedFigure(input.figure);
  const sourceFid = input.source_fid ? await checkSourceFid(db, viewer, input.source_fid) : null;
  const values = {
    wanted: wantedColumns(srcs),
    figure: text,
    bytes,
    refs: JSON.stringify(refs),
    title: input.title ?? meta.title,
    title_given: input.title !== undefined,
    caption: input.caption ?? '',
    source_fid: sourceFid,
    width: meta.width ?? null,
    height: meta.height ?? null,
    autosize: meta.autosize,
    viewer: viewer.id,
    origin,
  };
  // A src refused here and accepted by checkSources a moment later (its grid changed meanwhile) gets
  // one more try.
  for (let attempt = 0; ; attempt++) {
    const [row] = await createFileWith<{ rec: string }>(db, viewer, 'plot', input, CREATE_PLOT, values);
    if (row) return `{"file":${row.rec}}`;
    await checkSources(db, viewer, srcs);
    if (attempt) throw invalid('figure', 'the grids its srcs name changed while the plot was created; try again');
  }
}

/** A plot's part of an update: figure, title, caption and source_fid under the create rules. */
export const plotUpdate: TypeUpdate<PlotUpdate> = async (db, owner, input) => {
  const prepared = input.figure !== undefined ? await prepareFigure(db, owner, input.figure) : null;
  const changes: Partial<typeof plots.$inferInsert> = {};
  if (prepared) {
    Object.assign(changes, {
      figure: prepared.figure,
      figureBytes: prepared.bytes,
      dataValues: prepared.data.values,
      dataBytes: prepared.data.bytes,
      srcRefs: prepared.refs,
      width: prepared.meta.width,
      height: prepared.meta.height,
      autosize: prepared.meta.autosize,
      title: sql`CASE WHEN ${plots.titleGiven} THEN ${plots.title} ELSE ${prepared.meta.title} END`,
      version: sql`${plots.version} + 1`,
    });
  }
  if (input.title !== undefined) Object.assign(changes, { title: input.title, titleGiven: true });
  if (input.caption !== undefined) changes.caption = input.caption;
  if (input.source_fid !== undefined) changes.sourceFid = input.source_fid ? await checkSourceFid(db, owner, input.source_fid) : null;
  if (!Object.keys(changes).length) return null;
  return async (tx, file) => {
    await tx.update(plots).set(changes).where(eq(plots.fileId, file.id));
    if (prepared) await requestImages(tx, file.id);
  };
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The web's title edit (a plot's page): the record's title and caption, and the title the chart draws
 * (`layout.title.text`, its font and place kept) with them, since to a person they are one title.
 * The API's `title` stays the record's alone, as its clients expect. The owner's live plot only.
 */
export async function retitlePlot(db: Db, viewer: Viewer, fid: Fid, input: { title: string; caption: string }): Promise<OwnedFile> {
  const write: TypeUpdate<typeof input> = async () => async (tx, file) => {
    const changes: Partial<typeof plots.$inferInsert> = { title: input.title, titleGiven: true, caption: input.caption };
    const [row] = await queryRows<{ figure: string }>(tx, sql`SELECT figure::text AS figure FROM plots WHERE file_id = ${file.id}`);
    const figure = JSON.parse(row?.figure ?? '{}') as Record<string, unknown>;
    const layout = isRecord(figure.layout) ? figure.layout : {};
    const drawn = layout.title;
    const text = typeof drawn === 'string' ? drawn : isRecord(drawn) && typeof drawn.text === 'string' ? drawn.text : '';
    const redraw = text !== input.title;
    if (redraw) {
      figure.layout = { ...layout, title: isRecord(drawn) ? { ...drawn, text: input.title } : { text: input.title } };
      const bytes = Buffer.byteLength(JSON.stringify(figure));
      if (bytes > MAX_FIGURE_BYTES) throw invalid('title', 'makes the figure larger than 1 MiB once stored; shorten it');
      Object.assign(changes, { figure, figureBytes: bytes, version: sql`${plots.version} + 1` });
    }
    await tx.update(plots).set(changes).where(eq(plots.fileId, file.id));
    if (redraw) await requestImages(tx, file.id);
  };
  return updateFile(db, viewer, fid, input, { filetype: 'plot', types: { plot: write } });
}
