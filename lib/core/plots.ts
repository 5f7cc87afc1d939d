// Plots: list (keyset pages), feed, create, detail, and a plot's part of an update (files.ts updateFile).
import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { plots } from '@/db/schema';
import type { Viewer } from './auth';
import { decodeCursor, encodeCursor, type Cursor } from './cursors';
import { invalid, invalidMany, notFound } from './errors';
import { checkFigure, figureMeta, type SrcRef } from './figure';
import { columnsByGrid, findGrids, gridKey, MAX_REFERENCED_VALUES, referencedValues } from './grids';
import { requestImages } from './images';
import { fileFieldsSchema, getFile, insertFile, newShareKey, parentFromPath, type OwnedFile, type TYPE_FIELDS, type TypeUpdate } from './files';
import { assertReadable, canRead } from './permissions';
import { fidOf, isoText, originJoin, parseFid, plotRecordSql, type Fid } from './records';

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
  min_quality: intParam('min_quality', -1_000_000, 1_000_000).optional().meta({ description: "only plots whose curated quality (0..10) is at least this" }),
  max_quality: intParam('max_quality', -1_000_000, 1_000_000).optional().meta({ description: 'only plots whose curated quality is at most this' }),
  page_size: intParam('page_size', 1, 100).optional().meta({ description: 'results per page, 1..100 (default 20)' }),
  cursor: z.string().max(512).optional().meta({ description: 'the page to answer: opaque, taken from a `next` or `previous` link' }),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** A list answer, `{"next", "previous", "results"}`, as JSON text in pieces (see `pageParts`). */
export type Page = AsyncIterable<string>;

/** The columns every list row carries besides its projection: the keys its cursors are made of. */
export interface PageRow {
  file_id: string | number;
  created: string;
  views: string | number;
  h?: string;
}

const RECORD_JOIN = sql`JOIN files f ON f.id = p.file_id JOIN users u ON u.id = f.owner_id`;

/** One keyset order: its key columns and the SQL that fetches `limit` rows after (or before) a key. */
interface OrderPlan {
  keyOf(row: PageRow): (string | number)[];
  /** Rows strictly after `key` in display order (`dir` 'n') or before it in reverse order ('p'). */
  fetch(filter: SQL, key: (string | number)[] | null, dir: 'n' | 'p', limit: number): SQL;
}

const select = sql`SELECT p.file_id, p.created_at, p.views FROM plots p`;
const byNewest = (dir: 'n' | 'p') => (dir === 'n' ? sql`p.created_at DESC, p.file_id DESC` : sql`p.created_at ASC, p.file_id ASC`);

const PLANS: Record<Order, OrderPlan> = {
  '-creation_time': {
    keyOf: (r) => [r.created, Number(r.file_id)],
    fetch: (filter, key, dir, limit) => {
      const after = !key
        ? sql``
        : dir === 'n'
          ? sql`AND (p.created_at, p.file_id) < (${key[0]}::timestamptz, ${key[1]}::bigint)`
          : sql`AND (p.created_at, p.file_id) > (${key[0]}::timestamptz, ${key[1]}::bigint)`;
      return sql`${select} WHERE p.listed ${filter} ${after} ORDER BY ${byNewest(dir)} LIMIT ${limit}`;
    },
  },
  '-views': {
    keyOf: (r) => [Number(r.views), r.created, Number(r.file_id)],
    fetch: (filter, key, dir, limit) => {
      const after = !key
        ? sql``
        : dir === 'n'
          ? sql`AND (p.views, p.created_at, p.file_id) < (${key[0]}::bigint, ${key[1]}::timestamptz, ${key[2]}::bigint)`
          : sql`AND (p.views, p.created_at, p.file_id) > (${key[0]}::bigint, ${key[1]}::timestamptz, ${key[2]}::bigint)`;
      const order = dir === 'n' ? sql`p.views DESC, p.created_at DESC, p.file_id DESC` : sql`p.views ASC, p.created_at ASC, p.file_id ASC`;
      return sql`${select} WHERE p.listed ${filter} ${after} ORDER BY ${order} LIMIT ${limit}`;
    },
  },
  // Fewest views first, ties newest first: the mixed directions cannot be one row comparison, so
  // the page is two index range scans (the rest of the key's views value, then higher views).
  views: {
    keyOf: (r) => [Number(r.views), r.created, Number(r.file_id)],
    fetch: (filter, key, dir, limit) => {
      const order = dir === 'n' ? sql`views ASC, created_at DESC, file_id DESC` : sql`views DESC, created_at ASC, file_id ASC`;
      if (!key) return sql`${select} WHERE p.listed ${filter} ORDER BY ${sql`p.`}${order} LIMIT ${limit}`;
      const [views, created, id] = key;
      const sameViews =
        dir === 'n'
          ? sql`p.views = ${views}::bigint AND (p.created_at, p.file_id) < (${created}::timestamptz, ${id}::bigint)`
          : sql`p.views = ${views}::bigint AND (p.created_at, p.file_id) > (${created}::timestamptz, ${id}::bigint)`;
      const beyond = dir === 'n' ? sql`p.views > ${views}::bigint` : sql`p.views < ${views}::bigint`;
      const orderP = dir === 'n' ? sql`p.views ASC, p.created_at DESC, p.file_id DESC` : sql`p.views DESC, p.created_at ASC, p.file_id ASC`;
      return sql`SELECT * FROM (
          (${select} WHERE p.listed ${filter} AND ${sameViews} ORDER BY ${byNewest(dir)} LIMIT ${limit})
          UNION ALL
          (${select} WHERE p.listed ${filter} AND ${beyond} ORDER BY ${orderP} LIMIT ${limit})
        ) s ORDER BY ${order} LIMIT ${limit}`;
    },
  },
};

function pageUrl(origin: string, url: URL, cursor: string): string {
  const next = new URL(url.pathname, origin);
  for (const [k, v] of url.searchParams) if (k !== 'cursor') next.searchParams.append(k, v);
  next.searchParams.set('cursor', cursor);
  return next.toString();
}

/** A page of rows in one list order, with the cursors of the pages after and before it (null at either end). */
export interface RowsPage<R> {
  rows: R[];
  next: string | null;
  previous: string | null;
}

/** Cuts a page from rows fetched with one extra (to know whether more exist) and signs its cursors. */
async function pageOf<R extends PageRow>(
  db: Db,
  rows: R[],
  opts: { size: number; dir: 'n' | 'p'; fromCursor: boolean; order: string; seed?: string; keyOf: (r: PageRow) => (string | number)[] },
): Promise<RowsPage<R>> {
  const more = rows.length > opts.size;
  const shown = rows.slice(0, opts.size);
  if (opts.dir === 'p') shown.reverse();
  // Walking forward, a previous page exists when we came from a cursor; walking back, a next one does.
  const hasNext = opts.dir === 'n' ? more : true;
  const hasPrev = opts.dir === 'n' ? opts.fromCursor : more;
  const cursorAt = async (d: 'n' | 'p', row: R | undefined) =>
    row ? encodeCursor(db, { o: opts.order, d, k: opts.keyOf(row), ...(opts.seed ? { s: opts.seed } : {}) } satisfies Cursor) : null;
  return {
    rows: shown,
    next: hasNext ? await cursorAt('n', shown[shown.length - 1]) : null,
    previous: hasPrev ? await cursorAt('p', shown[0]) : null,
  };
}

/** The API's answer: `{"next", "previous", "results"}` with links that keep the request's other parameters. */
/**
 * The API's answer, `{"next", "previous", "results"}`, with links that keep the request's other
 * parameters. Records of large figures (`recordSelect` leaves them out) are read one at a time as the
 * answer streams, so a page of 100 plots with 1 MiB figures never sits in memory whole.
 */
async function* pageParts(db: Db, page: RowsPage<PageRow & { rec: string | null }>, viewerId: number | null, origin: string, url: URL): Page {
  const link = (cursor: string | null) => JSON.stringify(cursor && pageUrl(origin, url, cursor));
  let text = `{"next":${link(page.next)},"previous":${link(page.previous)},"results":[`;
  let count = 0;
  for (const row of page.rows) {
    let rec = row.rec;
    if (rec === null) {
      yield text;
      text = '';
      const [big] = await queryRows<{ rec: string }>(
        db,
        sql`SELECT ${plotRecordSql(viewerId, false)}::text AS rec FROM plots p ${RECORD_JOIN} ${originJoin(origin)} WHERE p.file_id = ${row.file_id}`,
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
export const recordSelect = (viewerId: number | null) =>
  sql`CASE WHEN p.figure_bytes <= ${sql.raw(String(INLINE_FIGURE_BYTES))} THEN ${plotRecordSql(viewerId, false)}::text END AS rec`;

function qualityFilter(q: ListQuery): SQL {
  return sql`${q.min_quality !== undefined ? sql`AND p.quality >= ${q.min_quality}` : sql``} ${
    q.max_quality !== undefined ? sql`AND p.quality <= ${q.max_quality}` : sql``
  }`;
}

/**
 * Public live plots, newest first or by views, keyset-paged: the one pager behind `GET /v2/plots` and
 * the web's lists. `select` is the projection over `p` (plots), `f` (files), `u` (users) and `c.o`
 * (the origin), e.g. `recordSelect` or a card's few columns.
 */
export async function listPlotRows<R>(db: Db, select: SQL, q: ListQuery, origin: string): Promise<RowsPage<R & PageRow>> {
  const order: Order = q.order_by ?? '-creation_time';
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order) : null;
  if (cursor && cursor.k.length !== (order === '-creation_time' ? 2 : 3)) throw invalid('cursor', 'Invalid cursor.');
  const rows = await queryRows<R & PageRow>(db, listPageSql(select, q, cursor, origin));
  return pageOf(db, rows, { size: q.page_size ?? 20, dir: cursor?.d ?? 'n', fromCursor: !!cursor, order, keyOf: PLANS[order].keyOf });
}

/** GET /v2/plots */
export async function listPlots(db: Db, viewer: Viewer | null, q: ListQuery, origin: string, url: URL): Promise<Page> {
  const viewerId = viewer?.id ?? null;
  return pageParts(db, await listPlotRows<{ rec: string | null }>(db, recordSelect(viewerId), q, origin), viewerId, origin, url);
}

/** The one statement behind a list page (page_size + 1 rows, to know whether more exist); exported for the benchmarks' floor. */
export function listPageSql(select: SQL, q: ListQuery, cursor: Cursor | null, origin: string): SQL {
  const order: Order = q.order_by ?? '-creation_time';
  const dir = cursor?.d ?? 'n';
  const keys = PLANS[order].fetch(qualityFilter(q), cursor?.k ?? null, dir, (q.page_size ?? 20) + 1);
  return sql`SELECT ${select}, p.file_id,
               ${isoText(sql`p.created_at`, 'micros')} AS created, p.views
        FROM (${keys}) k JOIN plots p ON p.file_id = k.file_id ${RECORD_JOIN} ${originJoin(origin)}
        ORDER BY ${ROW_ORDER[order][dir]}`;
}

const ROW_ORDER: Record<Order, Record<'n' | 'p', SQL>> = {
  '-creation_time': { n: sql`p.created_at DESC, p.file_id DESC`, p: sql`p.created_at ASC, p.file_id ASC` },
  '-views': { n: sql`p.views DESC, p.created_at DESC, p.file_id DESC`, p: sql`p.views ASC, p.created_at ASC, p.file_id ASC` },
  views: { n: sql`p.views ASC, p.created_at DESC, p.file_id DESC`, p: sql`p.views DESC, p.created_at ASC, p.file_id ASC` },
};

export const feedQuerySchema = listQuerySchema.pick({ page_size: true, cursor: true });

/**
 * Handpicked public plots in a random order (`GET /v2/plots/feed`, the web's feed), any projection as
 * `listPlotRows`. The order is md5(seed, id) with the seed carried in the cursor, so one walk through
 * the pages shows each plot once.
 */
export async function listFeedRows<R>(db: Db, select: SQL, q: z.output<typeof feedQuerySchema>, origin: string): Promise<RowsPage<R & PageRow>> {
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, 'feed') : null;
  if (cursor && (cursor.k.length !== 2 || typeof cursor.s !== 'string')) throw invalid('cursor', 'Invalid cursor.');
  const seed = cursor?.s ?? randomBytes(6).toString('hex');
  const size = q.page_size ?? 20;
  const dir = cursor?.d ?? 'n';
  const h = sql`md5(${seed}::text || p.file_id::text)`;
  const after = !cursor ? sql`` : dir === 'n' ? sql`AND (${h}, p.file_id) > (${cursor.k[0]}::text, ${cursor.k[1]}::bigint)` : sql`AND (${h}, p.file_id) < (${cursor.k[0]}::text, ${cursor.k[1]}::bigint)`;
  const order = dir === 'n' ? sql`h ASC, file_id ASC` : sql`h DESC, file_id DESC`;
  const rows = await queryRows<R & PageRow>(
    db,
    sql`SELECT * FROM (
          SELECT ${select}, p.file_id, '' AS created, p.views, ${h} AS h
          FROM plots p ${RECORD_JOIN} ${originJoin(origin)}
          WHERE p.listed AND p.handpicked ${after}
        ) s ORDER BY ${order} LIMIT ${size + 1}`,
  );
  return pageOf(db, rows, { size, dir, fromCursor: !!cursor, order: 'feed', seed, keyOf: (r) => [r.h!, Number(r.file_id)] });
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

/** The detail record's JSON text for a plot the caller may read (the caller checked). */
async function detailText(db: Db, fileId: number, viewer: Viewer | null, origin: string): Promise<string> {
  const [row] = await queryRows<{ rec: string }>(
    db,
    sql`SELECT ${plotRecordSql(viewer?.id ?? null, true)}::text AS rec FROM plots p ${RECORD_JOIN} ${originJoin(origin)} WHERE p.file_id = ${fileId}`,
  );
  if (!row) throw notFound();
  return row.rec;
}

/** GET /v2/plots/{fid} */
export async function getPlot(db: Db, viewer: Viewer | null, fid: Fid, origin: string, shareKey?: string | null): Promise<string> {
  const file = assertReadable(await getPlotFile(db, fid), viewer, shareKey);
  return detailText(db, file.id, viewer, origin);
}

// ---------------------------------------------------------------------------------------------
// Create and update

const MAX_TRACES = 1000;
const MiB = 1024 * 1024;
/** The stored figure's size: settings and src references (API.md "Limits"). */
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

const pathText = (path: (string | number)[]) =>
  path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), 'figure');

/** Every src must name an existing grid the creator may read, and columns in it. */
/** Checks the srcs; answers the grid values they reference, each reference counted. */
async function checkSources(db: Db, viewer: Viewer, refs: SrcRef[]): Promise<number> {
  if (!refs.length) return 0;
  const grids = await findGrids(db, refs);
  const readable = [...grids.values()].filter((g) => canRead(g, viewer));
  const columns = await columnsByGrid(db, readable.map((g) => g.id));
  const problems: { field: string; message: string }[] = [];
  for (const ref of refs) {
    const grid = grids.get(gridKey(ref.owner, ref.n));
    if (!grid || !canRead(grid, viewer)) {
      problems.push({ field: pathText(ref.path), message: `"${ref.src}" refers to the grid '${ref.owner}:${ref.n}', which does not exist or which you cannot read` });
      continue;
    }
    const missing = ref.uids.find((uid) => !columns.get(grid.id)?.has(uid));
    if (missing) problems.push({ field: pathText(ref.path), message: `"${ref.src}": the grid '${ref.owner}:${ref.n}' has no column '${missing}'` });
  }
  if (problems.length) throw invalidMany(problems.slice(0, 20));
  const ids = refs.flatMap((ref) => ref.uids.map((uid) => columns.get(grids.get(gridKey(ref.owner, ref.n))!.id)!.get(uid)!));
  const values = await referencedValues(db, ids);
  if (values > MAX_REFERENCED_VALUES) {
    throw invalid('figure', `its srcs reference ${values.toLocaleString('en')} grid values; at most ${MAX_REFERENCED_VALUES.toLocaleString('en')} a plot`);
  }
  return values;
}

async function checkSourceFid(db: Db, viewer: Viewer, value: string): Promise<string> {
  const fid = parseFid(value);
  const file = fid ? await getPlotFile(db, fid) : undefined;
  if (!file || !canRead(file, viewer)) throw invalid('source_fid', `'${value}' is not a plot you can read`);
  return fidOf(file.owner, file.n);
}

/** A figure checked and normalized for storage: `data`, `layout` (default {}), and `frames` when given. */
async function prepareFigure(db: Db, viewer: Viewer, figure: unknown) {
  const refs = checkFigure(figure);
  const fig = figure as Record<string, unknown>;
  if ((fig.data as unknown[]).length > MAX_TRACES) throw invalid('figure.data', `at most ${MAX_TRACES} traces a figure`);
  const stored = { data: fig.data, layout: fig.layout ?? {}, ...(fig.frames !== undefined ? { frames: fig.frames } : {}) };
  // Figures hold settings and src references, never data: a bounded size keeps every list, page and
  // render that carries one bounded too.
  const bytes = Buffer.byteLength(JSON.stringify(stored));
  if (bytes > MAX_FIGURE_BYTES) {
    throw invalid('figure', `is ${(bytes / MiB).toFixed(1)} MiB once stored (layout, traces and frames, data by src); at most 1 MiB`);
  }
  const values = await checkSources(db, viewer, refs);
  return { figure: stored, bytes, values, refs: refs.map((r) => ({ p: r.path, s: r.src })), meta: figureMeta(stored) };
}

/** POST /v2/plots: 200 with `{"file": detail}`. */
export async function createPlot(db: Db, viewer: Viewer, input: PlotCreate, origin: string): Promise<string> {
  const { figure, bytes, values, refs, meta } = await prepareFigure(db, viewer, input.figure);
  const sourceFid = input.source_fid ? await checkSourceFid(db, viewer, input.source_fid) : null;
  const worldReadable = input.world_readable ?? true;
  const fileId = await db.transaction(async (tx) => {
    const parent = await parentFromPath(tx, viewer.id, input.parent_path);
    const file = await insertFile(tx, {
      ownerId: viewer.id,
      filetype: 'plot',
      filename: input.filename,
      parent,
      worldReadable,
      shareKey: input.share_key_enabled ? newShareKey() : null,
    });
    await tx.insert(plots).values({
      fileId: file.id,
      figure,
      figureBytes: bytes,
      dataValues: values,
      srcRefs: refs,
      title: input.title ?? meta.title,
      titleGiven: input.title !== undefined,
      caption: input.caption ?? '',
      sourceFid,
      width: meta.width,
      height: meta.height,
      autosize: meta.autosize,
    });
    await requestImages(tx, file.id);
    return file.id;
  });
  return `{"file":${await detailText(db, fileId, viewer, origin)}}`;
}

/** A plot's part of an update: figure, title, caption and source_fid under the create rules. */
export const plotUpdate: TypeUpdate<PlotUpdate> = async (db, owner, input) => {
  const prepared = input.figure !== undefined ? await prepareFigure(db, owner, input.figure) : null;
  const changes: Partial<typeof plots.$inferInsert> = {};
  if (prepared) {
    Object.assign(changes, {
      figure: prepared.figure,
      figureBytes: prepared.bytes,
      dataValues: prepared.values,
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
