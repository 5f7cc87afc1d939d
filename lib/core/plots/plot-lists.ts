// Lists of plots: the keyset pager behind `GET /v2/plots` and the web's lists (orders, their statements,
// prepared shapes), the feed, an owner's plots, and the list answer's text (streamed when figures are large).
import 'server-only';
import { randomBytes } from 'node:crypto';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { compiledQuery, queryRows, type CompiledQuery, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { decodeCursor, keysetPage, type Cursor, type RowsPage } from '../cursors';
import { isoText, originJoin, plotRecordSql, RECORD_JOIN } from '../records';
import { isOwner } from '../permissions';

export const ORDERS = ['-creation_time', '-views', 'views', '-stars', 'stars'] as const;
export type Order = (typeof ORDERS)[number];

/** What a list takes (`GET /v2/plots`, the gallery), parsed from a query string at the edge. */
export interface ListQuery {
  order_by?: Exclude<Order, '-creation_time'>;
  min_quality?: number;
  max_quality?: number;
  page_size?: number;
  cursor?: string;
}

/** What a list that only pages takes (the feed, a profile, a search's paging). */
export type FeedQuery = Pick<ListQuery, 'page_size' | 'cursor'>;

/** A list answer, `{"next", "previous", "results"}`, as JSON text: whole, or in pieces (see `pageParts`). */
export type Page = string | AsyncIterable<string>;

/** The columns every list row carries besides its projection: the keys its cursors are made of. */
export interface PageRow {
  file_id: string | number;
  created: string;
  views: string | number;
  stars?: string | number;
  h?: string;
}

/** One keyset order: its key, its row order, and the SQL that fetches `limit` rows after (or before) a key. */
interface OrderPlan {
  keyOf(row: PageRow): (string | number)[];
  /** The display order over `p` ('n') and its reverse ('p'). */
  order: Record<'n' | 'p', SQL>;
  /** Rows strictly after `key` in display order (`dir` 'n') or before it in reverse order ('p'). The
   * key's parts are values or placeholders. */
  fetch(filter: SQL, key: unknown[] | null, dir: 'n' | 'p', limit: number): SQL;
}

const select = sql`SELECT p.file_id, p.created_at, p.views, p.stars FROM plots p`;
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
  '-views': mostFirst('views'),
  views: fewestFirst('views'),
  '-stars': mostFirst('stars'),
  stars: fewestFirst('stars'),
};

/** A counter column's order, most first, ties newest first (`plots_listed_{views,stars}_desc_idx`). */
function mostFirst(counter: 'views' | 'stars'): OrderPlan {
  const col = sql.raw(`p.${counter}`);
  const order = { n: sql`${col} DESC, p.created_at DESC, p.file_id DESC`, p: sql`${col} ASC, p.created_at ASC, p.file_id ASC` };
  return {
    keyOf: (r) => [Number(r[counter]), r.created, Number(r.file_id)],
    order,
    fetch: (filter, key, dir, limit) => {
      const after = key ? past(dir, sql`${col}, p.created_at, p.file_id`, sql`${key[0]}::bigint, ${newestKey(key[1], key[2])}`) : sql``;
      return sql`${select} WHERE p.listed ${filter} ${after} ORDER BY ${order[dir]} ${limitSql(limit)}`;
    },
  };
}

/**
 * A counter column's order, fewest first, ties newest first: the mixed directions cannot be one row
 * comparison, so the page is two index range scans (the rest of the key's count, then higher counts).
 */
function fewestFirst(counter: 'views' | 'stars'): OrderPlan {
  const col = sql.raw(`p.${counter}`);
  const order = { n: sql`${col} ASC, p.created_at DESC, p.file_id DESC`, p: sql`${col} DESC, p.created_at ASC, p.file_id ASC` };
  return {
    keyOf: (r) => [Number(r[counter]), r.created, Number(r.file_id)],
    order,
    fetch: (filter, key, dir, limit) => {
      if (!key) return sql`${select} WHERE p.listed ${filter} ORDER BY ${order[dir]} ${limitSql(limit)}`;
      const [count, created, id] = key;
      const same = sql`${col} = ${count}::bigint ${past(dir, sql`p.created_at, p.file_id`, newestKey(created, id))}`;
      const beyond = dir === 'n' ? sql`${col} > ${count}::bigint` : sql`${col} < ${count}::bigint`;
      // The union is named p too, so that one order serves its parts and the whole.
      return sql`SELECT * FROM (
          (${select} WHERE p.listed ${filter} AND ${same} ORDER BY ${NEWEST[dir]} ${limitSql(limit)})
          UNION ALL
          (${select} WHERE p.listed ${filter} AND ${beyond} ORDER BY ${order[dir]} ${limitSql(limit)})
        ) p ORDER BY ${order[dir]} ${limitSql(limit)}`;
    },
  };
}

/** The URL of the same list at another page (its cursor): the edge builds it from the request. */
export type PageLink = (cursor: string) => string;

/**
 * The API's answer, `{"next", "previous", "results"}`, with links that keep the request's other
 * parameters: one text when every record came with the page (the usual case), else streamed, the
 * records of large figures (`recordSelect` leaves them out) read one at a time as the answer goes, so
 * a page of 100 plots with 1 MiB figures never sits in memory whole.
 */
export function pageParts(db: Db, page: RowsPage<PageRow & { rec: string | null }>, viewerId: number | null, origin: string, link: PageLink): Page {
  const href = (cursor: string | null) => JSON.stringify(cursor && link(cursor));
  const head = `{"next":${href(page.next)},"previous":${href(page.previous)},"results":[`;
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
  return sql`SELECT ${select}, p.file_id, ${isoText(sql`p.created_at`, 'micros')} AS created, p.views, p.stars
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
 * upper quality bound: a few dozen a projection (each order, with or without a cursor and a lower
 * quality bound, at either size), since a prepared list statement holds ~300 KB in each Postgres
 * connection for its life (see mayPrepare). Any other shape a request can ask for (thousands) runs
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
export async function listPlots(db: Db, viewer: Viewer | null, q: ListQuery, origin: string, link: PageLink): Promise<Page> {
  const viewerId = viewer?.id ?? null;
  const page =
    viewerId === null
      ? await listPlotRows<{ rec: string | null }>(db, RECORD_SELECT.anonymous, q, origin)
      : await listPlotRows<{ rec: string | null }>(db, RECORD_SELECT.viewer, q, origin, { viewer: viewerId });
  return pageParts(db, page, viewerId, origin, link);
}

/** The statement behind a list page and its placeholders' values; for the benchmarks' floor. */
export function listPageSql(select: SQL, q: ListQuery, cursor: Cursor | null, origin: string): { query: SQL; values: Record<string, unknown> } {
  const { shape, values } = listShape(q, cursor, origin);
  return { query: listPageTemplate(select, shape), values };
}

/**
 * Handpicked public plots in a random order (`GET /v2/plots/feed`, the web's feed), any projection as
 * `listPlotRows`. The order is md5(seed, id) with the seed carried in the cursor, so one walk through
 * the pages shows each plot once.
 */
export async function listFeedRows<R>(db: Db, select: SQL, q: FeedQuery, origin: string): Promise<RowsPage<R & PageRow>> {
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
  q: FeedQuery,
  origin: string,
  opts: { chartsOnly?: boolean } = {},
): Promise<RowsPage<R & PageRow>> {
  const order = `user:${ownerId}${opts.chartsOnly ? ':charts' : ''}`;
  // Charts only: no theme or template (the dashboard builder's plots).
  const only = opts.chartsOnly ? sql`AND NOT EXISTS (SELECT 1 FROM plots t WHERE t.file_id = f.id AND (t.is_theme OR t.is_template))` : sql``;
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
                ${isOwner(viewer, { ownerId }) ? sql`` : sql`AND f.world_readable`} ${only} ${after}
              ORDER BY ${sorted} ${limitSql(size + 1)}) k
        JOIN plots p ON p.file_id = k.id ${RECORD_JOIN} ${originJoin(origin)}
        ORDER BY ${sorted}`,
  );
  return keysetPage(db, rows, { size, cursor, order, keyOf: PLANS['-creation_time'].keyOf });
}

/** GET /v2/plots/feed */
export async function listFeed(db: Db, viewer: Viewer | null, q: FeedQuery, origin: string, link: PageLink): Promise<Page> {
  const viewerId = viewer?.id ?? null;
  return pageParts(db, await listFeedRows<{ rec: string | null }>(db, recordSelect(viewerId), q, origin), viewerId, origin, link);
}
