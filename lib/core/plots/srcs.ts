// Src references (`owner:n:uid[,uid...]`) resolved to grid columns: the one lookup behind the checks
// of a plot's create and update, its content with data, and its CSV download.
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { compiledQuery, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { invalid, invalidMany } from '../errors';
import { parseSrc, pathText, type SrcRef } from '../figures/figure';
import { MiB } from '../json-text';
import type { DataSize } from '@/lib/shared/figures/live-drawing';
import { canRead, canReadSql, type Collaboration, type FileAccess } from '../permissions';
import { fileNumbered } from '../records';

/** A live grid a src names, with what its permissions need. */
export interface SrcGrid extends FileAccess {
  id: number;
}

/**
 * A plot's src reference as stored (plots.src_refs): its path in the figure, its src, and `u` when a
 * collaborator put it there (plotSrcReader: such a src publishes nothing of the owner's).
 */
export interface StoredRef {
  p: (string | number)[];
  s: string;
  u?: 1;
}

/** src_refs as a driver returns it (PGlite may give the text). */
export const storedRefs = (value: unknown): StoredRef[] => (typeof value === 'string' ? JSON.parse(value) : (value as StoredRef[]));

export interface ResolvedSrc {
  /** The grid `admit` let through: null when it is not a live grid, or not admitted (the same to callers). */
  grid: SrcGrid | null;
  /** Its column ids in the src's order, when the grid holds every uid the src names. */
  columns: number[] | null;
  /** The values of those columns, and their stored bytes (each as often as the src names it); 0 without them. */
  values: number;
  bytes: number;
  /** The first uid the grid lacks. */
  missing: string | null;
}

/**
 * Each src text, in order, resolved: its live grid if `admit` allows it, and the columns its uids
 * name. One query for any number of srcs; a text that is no src resolves to nothing. Each grid comes
 * with `viewer`'s share of it by name, so `admit` (given the grid and the src text) must ask about that viewer.
 */
export async function resolveSrcs(db: Db, texts: string[], viewer: Viewer | null, admit: (grid: SrcGrid, src: string) => boolean): Promise<ResolvedSrc[]> {
  const srcs = texts.map(parseSrc);
  const { grids, columns } = await findColumns(
    db,
    srcs.filter((s) => s !== null),
    viewer,
  );
  return srcs.map((src, i) => {
    const grid = src && grids.get(gridKey(src.owner, src.n));
    if (!src || !grid || !admit(grid, texts[i])) return { grid: null, columns: null, values: 0, bytes: 0, missing: null };
    const byUid = columns.get(grid.id);
    const missing = src.uids.find((uid) => !byUid?.has(uid)) ?? null;
    if (missing !== null) return { grid, columns: null, values: 0, bytes: 0, missing };
    const named = src.uids.map((uid) => byUid!.get(uid)!);
    return { grid, columns: named.map((c) => c.id), ...dataSize(named.map((c) => ({ values: c.length, bytes: c.bytes }))), missing };
  });
}

/** The srcs a plot publishes: those its owner put there (a collaborator's carry `u`). */
export const publishedSrcs = (refs: StoredRef[]): Set<string> => new Set(refs.filter((r) => !r.u).map((r) => r.s));

/**
 * The one reader rule: what a reader of a plot (anyone who may read the plot: its owner, its
 * collaborators, a holder of its secret link, everyone when it is public) sees of each of its srcs.
 * A src is seen when the reader may read its grid on their own, or when the grid is the plot's
 * owner's and the plot publishes the src (the owner put it there): publishing a chart publishes what
 * it draws, only the columns it references. A src a collaborator put in (`u`) publishes nothing of
 * the owner's, and other people's grids are never the plot's to publish. Content (inline_data and
 * map_data), pages, data table, CSV, versions, copies, images and cards all decide with it; `viewer`
 * null is any reader (what images draw, the same for everyone who may see them).
 */
export function plotSrcReader(plot: { ownerId: number }, refs: StoredRef[], viewer: Viewer | null): (grid: SrcGrid, src: string) => boolean {
  const published = publishedSrcs(refs);
  return (grid, src) => canRead(grid, viewer) || (grid.ownerId === plot.ownerId && published.has(src));
}

/** Whether every reader of the plot sees the src the same (plotSrcReader for any reader): a public grid, or one the plot publishes. */
export function seenByEveryReader(plot: { ownerId: number }, refs: StoredRef[]): (grid: SrcGrid, src: string) => boolean {
  const published = publishedSrcs(refs);
  return (grid, src) => grid.worldReadable || (grid.ownerId === plot.ownerId && published.has(src));
}

/** `lower(owner):n` of a src's grid: usernames are case-insensitive. */
const gridKey = (owner: string, n: number) => `${owner.toLowerCase()}:${n}`;

/** The (lower(owner), n, uid) triples that srcs name, one per uid each names (repeats counted), as JSON. */
export const wantedColumns = (srcs: { owner: string; n: number; uids: string[] }[]) =>
  JSON.stringify(srcs.flatMap((s) => s.uids.map((uid) => ({ owner: s.owner.toLowerCase(), n: s.n, uid }))));

/**
 * The src resolver in SQL, over `wanted` (wantedColumns' JSON): one row per distinct (owner, n, uid)
 * that names a live grid, with the grid's id and access fields and, when the grid has that uid, the
 * column's id and length. Bounded by the srcs, not by the grids' sizes; its text is the same for any
 * number of srcs, so its prepared plan is too. Each lookup is a LATERAL fenced by OFFSET 0 so that it
 * goes by its unique index (lower(username); owner and n, see fileNumbered; grid and uid) whatever
 * the statistics say: planned as one join, the generic plan once walked all of an owner's files.
 */
export const srcColumnsSql = (wanted: SQL | Placeholder) => sql`
  SELECT w.owner, w.n, w.uid, f.id, f.owner_id, f.world_readable, f.share_key, c.id AS column_id, c.length, c.bytes
  FROM (SELECT DISTINCT owner, n, uid FROM jsonb_to_recordset(${wanted}::jsonb) AS r(owner text, n int, uid text)) w
  CROSS JOIN LATERAL (SELECT u.id FROM users u WHERE lower(u.username) = w.owner OFFSET 0) u
  CROSS JOIN LATERAL (${fileNumbered(sql`u.id`, sql`w.n`)}) f
  LEFT JOIN LATERAL (SELECT c.id, c.length, c.bytes FROM grid_columns c WHERE c.grid_id = f.id AND c.uid = w.uid OFFSET 0) c ON true
  WHERE f.filetype = 'grid' AND f.trashed_at IS NULL`;

const FIND_COLUMNS = compiledQuery<{
  key: string;
  id: string | number;
  owner_id: number;
  world_readable: boolean;
  share_key: string | null;
  collaboration: Collaboration | null;
  column_id: string | number | null;
  uid: string;
  length: number | null;
  bytes: string | number | null;
}>(
  () => sql`SELECT s.owner || ':' || s.n AS key, s.id, s.owner_id, s.world_readable, s.share_key, s.column_id, s.uid, s.length, s.bytes,
      file_collaboration(s.id, ${sql.placeholder('viewer')}::int) AS collaboration
    FROM (${srcColumnsSql(sql.placeholder('wanted'))}) s`,
);

async function findColumns(db: Db, srcs: { owner: string; n: number; uids: string[] }[], viewer: Viewer | null) {
  const grids = new Map<string, SrcGrid>();
  const columns = new Map<number, Map<string, { id: number; length: number; bytes: number }>>();
  if (!srcs.length) return { grids, columns };
  for (const r of await FIND_COLUMNS(db, { wanted: wantedColumns(srcs), viewer: viewer?.id ?? null })) {
    const id = Number(r.id);
    if (!grids.has(r.key))
      grids.set(r.key, { id, ownerId: r.owner_id, worldReadable: r.world_readable, shareKey: r.share_key, collaboration: r.collaboration });
    if (r.column_id === null) continue;
    if (!columns.has(id)) columns.set(id, new Map());
    columns.get(id)!.set(r.uid, { id: Number(r.column_id), length: Number(r.length), bytes: Number(r.bytes) });
  }
  return { grids, columns };
}

/** Grid values one plot may reference, each reference counted (docs/limits.md): a plot of three
 * traces over four columns of 10,000,000 rows (60,000,000 referenced), with room. */
export const MAX_REFERENCED_VALUES = 100_000_000;
/** Bytes of stored column text one plot may reference, each reference counted (docs/limits.md).
 * Views read such plots by range from the columns' blocks; reading all of it at once is bounded below. */
export const MAX_REFERENCED_BYTES = 2048 * MiB;
/** What one read of a plot's data whole (content's inline_data, map_data) serves at most, whatever its cells hold. */
export const MAX_INLINE: DataSize = { values: 10_000_000, bytes: 128 * MiB };

/** overDataLimit's bound (without `maxBytes`) in SQL: whether the values and bytes are within it. */
export const withinDataLimitSql = (size: { values: SQL; bytes: SQL }) =>
  sql`${size.values} <= ${sql.raw(String(MAX_REFERENCED_VALUES))}
                 AND ${size.bytes} <= ${sql.raw(String(MAX_REFERENCED_BYTES))}`;

export const dataSize = (parts: DataSize[]): DataSize =>
  parts.reduce((sum, p) => ({ values: sum.values + p.values, bytes: sum.bytes + p.bytes }), { values: 0, bytes: 0 });

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/**
 * The plot data limit, the one rule for creates, updates, copies and content: null within it, else
 * what is over, as "reference … ; at most …" for the caller to finish ("a plot", "are served inline").
 * `bound`: what a plot may reference, unless lower (one read of it whole: MAX_INLINE, or what the renderer takes).
 */
export function overDataLimit(size: DataSize, bound: DataSize = { values: MAX_REFERENCED_VALUES, bytes: MAX_REFERENCED_BYTES }): string | null {
  if (size.values > bound.values) {
    return `reference ${size.values.toLocaleString('en')} grid values; at most ${bound.values.toLocaleString('en')}`;
  }
  if (size.bytes > bound.bytes) return `reference ${mib(size.bytes)} of grid data; at most ${mib(bound.bytes)}`;
  return null;
}

/**
 * A figure's srcs, checked: each must name columns of a live grid the viewer may read (or be `kept`:
 * a collaborator's save keeps the srcs the plot already has, which they did not change), and the grid
 * data they reference (values and bytes, each reference counted) must be within the limit. Answers
 * that data; a 400 says which srcs fail and why. srcsVerdictSql is the same rule in SQL.
 */
export async function checkSources(db: Db, viewer: Viewer, refs: SrcRef[], kept: ReadonlySet<string> = new Set()): Promise<DataSize> {
  if (!refs.length) return { values: 0, bytes: 0 };
  const resolved = await resolveSrcs(
    db,
    refs.map((ref) => ref.src),
    viewer,
    (grid, src) => canRead(grid, viewer) || kept.has(src),
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

/**
 * checkSources' verdict in SQL, for a statement that checks srcs itself (a plot's create, in one round
 * trip): one row of `ok` (every uid of `wanted`, wantedColumns' JSON, is a column of a live grid
 * `viewer` may read, and the data is within the limit) and the referenced `data_values` and
 * `data_bytes`, where `found` is a relation of srcColumnsSql's rows over `wanted`.
 */
export const srcsVerdictSql = (wanted: SQL | Placeholder, found: SQL, viewer: SQL | Placeholder) => sql`
        SELECT coalesce(bool_and(s.column_id IS NOT NULL AND ${canReadSql('s', viewer)}), true)
                 AND ${withinDataLimitSql({ values: sql`coalesce(sum(s.length), 0)`, bytes: sql`coalesce(sum(s.bytes), 0)` })} AS ok,
               coalesce(sum(s.length), 0) AS data_values, coalesce(sum(s.bytes), 0) AS data_bytes
        FROM jsonb_to_recordset(${wanted}::jsonb) AS w(owner text, n int, uid text)
        LEFT JOIN ${found} s ON s.owner = w.owner AND s.n = w.n AND s.uid = w.uid`;
