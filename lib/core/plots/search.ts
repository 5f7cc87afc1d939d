// Search: plots found by the words of their title, filename, owner's names and caption, and by trace
// type (`type:heatmap`), with PostgreSQL full-text search over plots.search (plot_search_doc:
// a tsvector kept by triggers, one GIN index), so it runs the same on PostgreSQL and PGlite.
import 'server-only';
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { decodeCursor, keysetPage, type Cursor, type RowsPage } from '../cursors';
import { invalid } from '../errors';
import { parseWith } from '../json-text';
import { type FeedQuery, limitSql, newestKey, pageParts, past, recordSelect, type Page, type PageLink, type PageRow } from './plot-lists';
import { isoText, originJoin, RECORD_JOIN } from '../records';
import { MAX_QUERY_CHARS } from '@/lib/shared/limits';

/** A query's terms at most (words, quoted phrases' words, `type:` filters; docs/search.md); its length is MAX_QUERY_CHARS. */
export const MAX_QUERY_TERMS = 12;

/**
 * Matches up to this many are ranked; a query matching more (a common word) lists them newest first,
 * which the newest-first index answers at once, where ranking would score every match.
 */
export const MAX_RANKED = 5000;

/** Relevance weights of the fields, as ts_rank_cd takes them: {D, C, B, A} = {-, caption, filename and owner, title}. */
const WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';

const TYPE_TERM = /(?:^|\s)type:(\S*)/gi;
const TRACE_TYPE = /^[a-z0-9_]{1,40}$/;

/**
 * The `type:` filter a trace type name makes, lowercased, or null for a name that makes none: the
 * query's side of the rule whose index side is the SQL function plot_search_doc (which indexes a
 * trace's type by the same test); tests/lib/trace-types.test.ts holds the two together.
 */
export function typeFilter(name: string): string | null {
  const type = name.toLowerCase();
  return TRACE_TYPE.test(type) ? type : null;
}

export const qSchema = z
  .string({ message: 'q is required: the words to search for' })
  .trim()
  .min(1, 'q is required: the words to search for')
  .max(MAX_QUERY_CHARS, `q must be at most ${MAX_QUERY_CHARS} characters`)
  .refine((q) => q.split(/\s+/).length <= MAX_QUERY_TERMS, `q may hold at most ${MAX_QUERY_TERMS} terms`)
  .refine((q) => /[\p{L}\p{N}]/u.test(q), 'q must contain a letter or a digit')
  .meta({
    description:
      `words to find in titles, filenames, owner names and captions (all of them must match; "quoted phrase", \`or\`, \`-word\` as a web search), ` +
      `and \`type:<trace type>\` filters (e.g. \`type:heatmap\`); at most ${MAX_QUERY_CHARS} characters and ${MAX_QUERY_TERMS} terms`,
  });

/** What a search takes: its words (checked with qSchema) and the page. */
export type SearchQuery = FeedQuery & { q: string };

/** `q` split into its words (a web-search query) and its `type:` filters, which must name a trace type. */
export function parseSearch(q: string): { words: string; types: string[] } {
  const types: string[] = [];
  const words = q.replace(TYPE_TERM, (_, name: string) => {
    const type = typeFilter(name);
    if (type === null) throw invalid('q', `type: takes a trace type such as type:heatmap, not "type:${name.slice(0, 40)}"`);
    types.push(type);
    return ' ';
  });
  return { words: words.trim(), types };
}

/**
 * The tsqueries of a parsed query: `match`, its words (when any has a letter or digit) AND each type
 * lexeme; `words`, what relevance is scored on (type lexemes have no positions to score), if any.
 */
function tsqueries({ words, types }: { words: string; types: string[] }): { match: SQL; words: SQL | null } {
  const text = /[\p{L}\p{N}]/u.test(words) ? sql`websearch_to_tsquery('simple', ${words})` : null;
  // Type names are checked against TRACE_TYPE, so the quoted lexeme is literal.
  const parts = [...(text ? [text] : []), ...types.map((t) => sql`${`'type:${t}'`}::tsquery`)];
  if (!parts.length) throw invalid('q', 'q must contain a word or a type: filter');
  return { match: sql.join(parts, sql` && `), words: text };
}

export type SearchScope = 'public' | 'own';

/** A search row: a list row, with its relevance when the search is ranked. */
export type SearchRow = PageRow & { rank: string | null };

/**
 * Plots matching `query` (any projection over p, f, u as `listPlotRows`), a page at a time: the one
 * search rule behind `GET /v2/search`, the web's search page and the owner's workspace.
 * Scope 'public': live public (listed) plots of everyone. Scope 'own': the viewer's own live plots,
 * private and secret ones included (none without a viewer).
 * Order: by relevance of its words (ts_rank_cd, title > filename and owner > caption), then newest,
 * when at most MAX_RANKED plots match; newest first when more do, or when it has only type: filters.
 * The first page decides and its cursors keep that order; a cursor is bound to the query and scope.
 */
export async function searchPlotRows<R>(
  db: Db,
  viewer: Viewer | null,
  select: SQL,
  query: { q: string; page_size?: number; cursor?: string },
  origin: string,
  opts: { scope: SearchScope; chartsOnly?: boolean },
): Promise<RowsPage<R & SearchRow>> {
  // Checked here too, so that every caller (server actions included) keeps to the limits.
  const parsed = parseSearch(parseWith(qSchema, query.q, 'q'));
  const { match, words } = tsqueries(parsed);
  const ownerId = viewer?.id ?? null;
  // Charts only: no theme or template (the dashboard builder's plots).
  const only = opts.chartsOnly ? sql`AND NOT (p.is_theme OR p.is_template)` : sql``;
  const scope =
    opts.scope === 'public'
      ? sql`p.listed ${only}`
      : sql`p.file_id IN (SELECT id FROM files WHERE owner_id = ${ownerId ?? -1}::int AND filetype = 'plot' AND trashed_at IS NULL) ${only}`;
  const hash = createHash('sha256')
    .update(JSON.stringify([parsed.words, [...parsed.types].sort()]))
    .digest('base64url')
    .slice(0, 12);
  const order = `search:${opts.scope === 'own' ? `own:${ownerId}` : 'public'}${opts.chartsOnly ? ':charts' : ''}:${hash}`;
  const cursor = query.cursor
    ? await decodeCursor(db, query.cursor, order, (c) =>
        c.k[0] === 'r'
          ? c.k.length === 4 && typeof c.k[1] === 'string' && !Number.isNaN(Number(c.k[1])) && typeof c.k[2] === 'string' && typeof c.k[3] === 'number'
          : c.k[0] === 'n' && c.k.length === 3 && typeof c.k[1] === 'string' && typeof c.k[2] === 'number',
      )
    : null;
  const size = query.page_size ?? 20;
  const dir = cursor?.d ?? 'n';
  const page = (keys: SQL, sorted: SQL, tx: Db) =>
    queryRows<R & SearchRow>(
      tx,
      sql`SELECT ${select}, p.file_id, ${isoText(sql`p.created_at`, 'micros')} AS created, p.views, k.rank::text AS rank
          FROM (${keys}) k JOIN plots p ON p.file_id = k.file_id ${RECORD_JOIN} ${originJoin(origin)}
          ORDER BY ${sorted}`,
    );
  const { rows, resume } = await db.transaction(async (tx): Promise<Matches<R & SearchRow>> => {
    const newest = () => newestRows(tx, opts.scope, ownerId ?? -1, scope, match, cursor?.k[0] === 'n' ? cursor : null, dir, size + 1, page, only);
    if (!words || cursor?.k[0] === 'n') return newest();
    // A word the statistics call common in public plots is listed newest first without counting its
    // matches (counting a word in every plot reads a million index entries).
    if (!cursor && opts.scope === 'public' && (await estimate(tx, scope, match)) > COMMON) return newest();
    await readMatchesByIndex(tx);
    const ranked = cursor !== null || (await countUpTo(tx, scope, match, MAX_RANKED + 1)) <= MAX_RANKED;
    if (ranked) return { rows: await page(rankedKeys(scope, match, words, cursor, dir, size + 1), RANKED[dir], tx) };
    await tx.execute(sql`SET LOCAL enable_seqscan TO DEFAULT`);
    await tx.execute(sql`SET LOCAL enable_indexscan TO DEFAULT`);
    return newest();
  });
  return keysetPage(db, rows, {
    size,
    cursor,
    order,
    keyOf: (r) => (r.rank !== null ? ['r', r.rank, r.created, Number(r.file_id)] : ['n', r.created, Number(r.file_id)]),
    resume,
  });
}

/** A page's matches, and where its reading stopped when it stopped early (see `newestRows`). */
interface Matches<R> {
  rows: R[];
  resume?: Cursor['k'];
}

const RANKED = { n: sql`k.rank DESC, p.created_at DESC, p.file_id DESC`, p: sql`k.rank ASC, p.created_at ASC, p.file_id ASC` };
const NEWEST = { n: sql`p.created_at DESC, p.file_id DESC`, p: sql`p.created_at ASC, p.file_id ASC` };

async function countUpTo(db: Db, scope: SQL, match: SQL, limit: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM plots p WHERE ${scope} AND p.search @@ (${match}) ${limitSql(limit)}) m`,
  );
  return row.n;
}

function rankedKeys(scope: SQL, match: SQL, words: SQL, cursor: Cursor | null, dir: 'n' | 'p', limit: number): SQL {
  const after = cursor ? past(dir, sql`m.rank, m.created_at, m.file_id`, sql`${cursor.k[1]}::real, ${newestKey(cursor.k[2], cursor.k[3])}`) : sql``;
  return sql`SELECT m.file_id, m.rank FROM (
      SELECT p.file_id, p.created_at, ts_rank_cd(${WEIGHTS}::float4[], p.search, ${words}) AS rank
      FROM plots p WHERE ${scope} AND p.search @@ (${match})) m
    WHERE true ${after}
    ORDER BY ${dir === 'n' ? sql`m.rank DESC, m.created_at DESC, m.file_id DESC` : sql`m.rank ASC, m.created_at ASC, m.file_id ASC`} ${limitSql(limit)}`;
}

function newestKeys(scope: SQL, match: SQL, cursor: Cursor | null, dir: 'n' | 'p', limit: number): SQL {
  const after = cursor ? past(dir, sql`p.created_at, p.file_id`, newestKey(cursor.k[1], cursor.k[2])) : sql``;
  return sql`SELECT p.file_id, NULL::real AS rank FROM plots p WHERE ${scope} AND p.search @@ (${match}) ${after}
    ORDER BY ${NEWEST[dir]} ${limitSql(limit)}`;
}

/** Matches above this estimate (of public plots) are not counted: they are many. */
const COMMON = 10 * MAX_RANKED;

/**
 * Plots a page of newest matches walks through (a newest-first index); and the most plots that may
 * match in all for the page to be completed through the GIN index.
 */
export const SEARCH_WALK = 20_000;

/**
 * Counting and ranking read the matches through the GIN index. Left to itself the planner may scan
 * the table in order to stop early at a word it thinks common, and a word common only among private
 * plots then costs a scan of the whole table.
 */
async function readMatchesByIndex(tx: Db): Promise<void> {
  await tx.execute(sql`SET LOCAL enable_seqscan = off`);
  await tx.execute(sql`SET LOCAL enable_indexscan = off`);
}

/** The planner's estimate of the matches. */
async function estimate(tx: Db, scope: SQL, match: SQL): Promise<number> {
  const [row] = await queryRows<Record<string, unknown>>(tx, sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM plots p WHERE ${scope} AND p.search @@ (${match})`);
  const value = Object.values(row)[0];
  const plan = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: { 'Plan Rows': number } }[];
  return plan[0].Plan['Plan Rows'];
}

/**
 * The plots in scope past a newest-first key, in order, as a walk reads them: through the listed
 * plots' newest-first index, or the owner's plots' one (files_owner_plots_newest_idx; a plot's
 * created_at and file_id are its file's, copied by the trigger plots_copy_file_state). `tail` is the LIMIT (and OFFSET).
 */
function inScopeNewest(kind: SearchScope, ownerId: number, key: Cursor['k'] | null, dir: 'n' | 'p', select: SQL, tail: SQL, only: SQL): SQL {
  const [created, id] = kind === 'public' ? ['p.created_at', 'p.file_id'] : ['f.created_at', 'f.id'];
  const after = key ? past(dir, sql.raw(`${created}, ${id}`), newestKey(key[1], key[2])) : sql``;
  const order = sql.raw(dir === 'n' ? `${created} DESC, ${id} DESC` : `${created} ASC, ${id} ASC`);
  return kind === 'public'
    ? sql`SELECT ${select} FROM plots p WHERE p.listed ${only} ${after} ORDER BY ${order} ${tail}`
    : sql`SELECT ${select} FROM files f JOIN plots p ON p.file_id = f.id
          WHERE f.owner_id = ${ownerId}::int AND f.filetype = 'plot' AND f.trashed_at IS NULL ${only} ${after} ORDER BY ${order} ${tail}`;
}

/**
 * A page of matches newest first, reading a bounded number of plots whatever the words: a walk down
 * the scope's newest-first index, at most SEARCH_WALK plots past the cursor, which finds a common
 * word's page at once. A page the walk does not fill is completed through the GIN index (matches
 * past the walk's end, sorted) when at most SEARCH_WALK plots match in all. When more do (a common
 * word absent from the newest plots), the page is what the walk found, maybe nothing, and reading
 * resumes at the walk's end: a page stays cheap however many plots match and wherever they are.
 */
async function newestRows<R>(
  tx: Db,
  kind: SearchScope,
  ownerId: number,
  scope: SQL,
  match: SQL,
  cursor: Cursor | null,
  dir: 'n' | 'p',
  limit: number,
  page: (keys: SQL, sorted: SQL, tx: Db) => Promise<R[]>,
  only: SQL,
): Promise<Matches<R>> {
  const key = cursor?.k ?? null;
  const walked = await page(
    sql`SELECT w.file_id, NULL::real AS rank FROM (${inScopeNewest(kind, ownerId, key, dir, sql`p.file_id, p.created_at, p.search`, limitSql(SEARCH_WALK), only)}) w
        WHERE w.search @@ (${match})
        ORDER BY ${dir === 'n' ? sql`w.created_at DESC, w.file_id DESC` : sql`w.created_at ASC, w.file_id ASC`} ${limitSql(limit)}`,
    NEWEST[dir],
    tx,
  );
  if (walked.length === limit) return { rows: walked };
  // The walk's last plot; none when fewer than SEARCH_WALK plots remained, so the walk saw every one.
  const [end] = await queryRows<{ created: string; file_id: string }>(
    tx,
    inScopeNewest(
      kind,
      ownerId,
      key,
      dir,
      sql`${isoText(sql`p.created_at`, 'micros')} AS created, p.file_id`,
      sql.raw(`OFFSET ${SEARCH_WALK - 1} LIMIT 1`),
      only,
    ),
  );
  if (!end) return { rows: walked };
  const endKey: Cursor['k'] = ['n', end.created, Number(end.file_id)];
  // Reading a word's matches through the GIN index costs time in proportion to all of them, so a word the statistics call common is not read at all; others
  // are counted whatever their place, so the count stops after SEARCH_WALK + 1 matches wherever they lie.
  if ((await estimate(tx, scope, match)) > 2 * SEARCH_WALK) return { rows: walked, resume: endKey };
  await readMatchesByIndex(tx);
  if ((await countUpTo(tx, scope, match, SEARCH_WALK + 1)) > SEARCH_WALK) return { rows: walked, resume: endKey };
  const rest = await page(newestKeys(scope, match, { o: '', d: dir, k: endKey }, dir, limit - walked.length), NEWEST[dir], tx);
  return { rows: [...walked, ...rest] };
}

/** GET /v2/search: public plots, as `GET /v2/plots` answers them. */
export async function searchPlots(db: Db, viewer: Viewer | null, query: SearchQuery, origin: string, link: PageLink): Promise<Page> {
  const viewerId = viewer?.id ?? null;
  const page = await searchPlotRows<{ rec: string | null }>(db, viewer, recordSelect(viewerId), query, origin, { scope: 'public' });
  return pageParts(db, page, viewerId, origin, link);
}
