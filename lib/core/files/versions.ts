// Histories of saves. Every change of a plot's figure or title, and of a grid's columns, keeps the
// state it replaces, in the transaction of the change. The current state is the live row itself
// (file_saves holds its number, author, client and time), so a history costs nothing until a file
// changes and a large grid is never stored twice for its current state; earlier states are in
// plot_versions and grid_versions, bounded per file (VERSION_BOUNDS) and per person
// (PERSON_HISTORY_BYTES, docs/limits.md). A history keeps only what changed: a grid's versions
// point to column values (column_values) they share with each other and the live grid, and a plot
// version whose figure the change left as it was keeps none (its figure is the next state's).
import 'server-only';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { decodeCursor, keysetPage, type RowsPage } from '../cursors';
import { notFound } from '../errors';
import { MiB } from '../json-text';
import { isoText } from '../records';
import { currentKeptSql, keptColumnBytesSql, releaseKeptColumns, versionKeptBytesSql } from './kept-columns';

/** What a save came from: the web's pages, a Python or R client, anything else that called the API. */
export const CLIENTS = ['web', 'python', 'r', 'api'] as const;
export type Client = (typeof CLIENTS)[number];

/** Who saved, with what: recorded with the state the save makes current. */
export interface Save {
  authorId: number;
  client: Client;
}

/**
 * Earlier states a file keeps: at most `versions` of them and `bytes` of what they store (a
 * version's `bytes`), the oldest dropped first; the current state is the live file and never
 * dropped. A state that would store more than `bytes` on its own is not kept (its number stays taken).
 */
export const VERSION_BOUNDS = {
  plot: { versions: 100, bytes: 16 * MiB },
  grid: { versions: 20, bytes: 100 * MiB },
} as const;

export type VersionKind = keyof typeof VERSION_BOUNDS;

/**
 * Stored bytes of earlier versions one person's files keep, all together (their `bytes`: a plot
 * version's stored figure and title, a grid version's own column values and rows): past it, each
 * save drops the person's oldest first. Saves keep working; old history goes.
 */
export const PERSON_HISTORY_BYTES = 1024 * MiB;

const TABLES: Record<VersionKind, SQL> = { plot: sql.raw('plot_versions'), grid: sql.raw('grid_versions') };

/** The current state's history entry of file `fileId` (`f`, `s`): a file saved before histories were kept is at version 1, its owner's. */
const currentSql = (fileId: number) => sql`SELECT coalesce(s.version, 1) AS version, coalesce(s.saved_at, f.created_at) AS saved_at,
    CASE WHEN s.file_id IS NULL THEN f.owner_id ELSE s.author_id END AS author_id, s.client
  FROM files f LEFT JOIN file_saves s ON s.file_id = f.id WHERE f.id = ${fileId}`;

/** The state after this save is the next version, by `save`'s author and client, now. */
async function advance(tx: Db, fileId: number, next: number, save: Save): Promise<void> {
  await tx.execute(sql`INSERT INTO file_saves (file_id, version, author_id, client, saved_at)
    VALUES (${fileId}, ${next}::int, ${save.authorId}::int, ${save.client}::text, now())
    ON CONFLICT (file_id) DO UPDATE SET version = excluded.version, author_id = excluded.author_id, client = excluded.client, saved_at = excluded.saved_at`);
}

/** Drops the file's earliest kept states past its kind's bounds. */
async function prune(tx: Db, kind: VersionKind, fileId: number): Promise<void> {
  const { versions, bytes } = VERSION_BOUNDS[kind];
  const table = TABLES[kind];
  await tx.execute(sql`DELETE FROM ${table} v USING (
      SELECT version, row_number() OVER w AS rank, sum(bytes) OVER w AS total FROM ${table} WHERE file_id = ${fileId}
      WINDOW w AS (ORDER BY version DESC)) k
    WHERE v.file_id = ${fileId} AND v.version = k.version AND (k.rank > ${versions} OR k.total > ${bytes})`);
}

/** The version number of a file's current state. */
async function currentVersion(tx: Db, fileId: number) {
  const [row] = await queryRows<{ version: number }>(tx, sql`SELECT version FROM (${currentSql(fileId)}) c`);
  return row ? Number(row.version) : 1;
}

/** A new file's first state: version 1, by `save`. In the create's transaction (or statement: see `firstSaveSql`). */
export async function recordFirstVersion(tx: Db, fileId: number, save: Save): Promise<void> {
  await advance(tx, fileId, 1, save);
}

/** `recordFirstVersion` inside a create's statement: for each row of `created` (a relation with `file_id`), by the author and client given as SQL. */
export const firstSaveSql = (created: SQL, authorId: SQL | Placeholder, client: SQL | Placeholder) =>
  sql`INSERT INTO file_saves (file_id, version, author_id, client) SELECT file_id, 1, ${authorId}::int, ${client}::text FROM ${created}`;

/**
 * Before a plot's figure or title changes (the file row is locked): keeps its current figure and
 * title as an earlier version, makes the coming state the next one, and applies the bounds. `next`
 * is the figure the change makes current (JSON text), null when it keeps the figure: a version whose
 * figure the next state has too keeps none (null, read through the next state: figureSql).
 */
export async function recordPlotVersion(tx: Db, fileId: number, save: Save, next: string | null): Promise<void> {
  const version = await currentVersion(tx, fileId);
  const kept = await queryRows(
    tx,
    sql`WITH c AS (${currentSql(fileId)})
      INSERT INTO plot_versions (file_id, version, figure, title, title_given, author_id, client, saved_at, bytes)
      SELECT p.file_id, c.version, CASE WHEN b.same THEN NULL ELSE p.figure END, p.title, p.title_given, c.author_id, c.client, c.saved_at,
             CASE WHEN b.same THEN 0 ELSE b.figure END + octet_length(p.title)
      FROM plots p CROSS JOIN c CROSS JOIN LATERAL (SELECT octet_length(p.figure::text) AS figure, n.figure IS NULL OR n.figure = p.figure AS same
        FROM (SELECT ${next}::jsonb AS figure) n) b
      WHERE p.file_id = ${fileId} AND b.figure + octet_length(p.title) <= ${VERSION_BOUNDS.plot.bytes}
      RETURNING version`,
  );
  // Not kept: the versions that read their figure through this state cannot be read either.
  if (!kept.length) {
    await tx.execute(sql`DELETE FROM plot_versions WHERE file_id = ${fileId} AND figure IS NULL
      AND version > coalesce((SELECT max(version) FROM plot_versions WHERE file_id = ${fileId} AND figure IS NOT NULL), 0)`);
  }
  await advance(tx, fileId, version + 1, save);
  await prune(tx, 'plot', fileId);
  await releaseKeptColumns(tx, [fileId]);
  await boundPersonHistory(tx, fileId);
}

/**
 * Before a grid's columns change (the grid is locked): keeps its current columns as an earlier
 * version, pointing to the values the live columns point to (nothing copied), and makes the coming
 * state the next one. With `restore`, that kept version's columns replace the grid's (they point to
 * its values again). The change writes new values for the columns it changes (column-store.ts), and
 * settleGridHistory ends it.
 */
export async function recordGridVersion(tx: Db, gridId: number, save: Save, restore?: number): Promise<void> {
  const version = await currentVersion(tx, gridId);
  await tx.execute(
    sql`WITH c AS (${currentSql(gridId)})
      INSERT INTO grid_versions (file_id, version, author_id, client, saved_at, bytes)
      SELECT ${gridId}, c.version, c.author_id, c.client, c.saved_at, 0 FROM c`,
  );
  await tx.execute(sql`INSERT INTO grid_version_columns (file_id, version, uid, name, ord, values_id)
    SELECT grid_id, ${version}::int, uid, name, ord, values_id FROM grid_columns WHERE grid_id = ${gridId}`);
  if (restore !== undefined) {
    const [found] = await queryRows(tx, sql`SELECT 1 FROM grid_versions WHERE file_id = ${gridId} AND version = ${restore}::int`);
    if (!found) throw notFound();
    await tx.execute(sql`DELETE FROM grid_columns WHERE grid_id = ${gridId}`);
    await tx.execute(sql`INSERT INTO grid_columns (grid_id, uid, name, ord, values_id, length, bytes, preview)
      SELECT v.file_id, v.uid, v.name, v.ord, v.values_id, cv.length, cv.bytes, cv.preview
      FROM grid_version_columns v JOIN column_values cv ON cv.id = v.values_id WHERE v.file_id = ${gridId} AND v.version = ${restore}::int`);
  }
  await advance(tx, gridId, version + 1, save);
}

/** What a kept grid column costs besides its values: its row (uid, name, order, reference). */
const VERSION_COLUMN_SQL = sql`octet_length(name) + octet_length(uid) + 40`;

/**
 * After a grid's columns changed (the grid locked; last in the change's transaction): each kept
 * version's `bytes` become its rows' and those of the values it is the newest state to hold (the
 * newest version's alone, or, after a restore that points the live grid to older values again,
 * every version's), the bounds apply, and values no live or kept column points to go.
 */
export async function settleGridHistory(tx: Db, gridId: number, restored = false): Promise<void> {
  const live = sql`(SELECT values_id FROM grid_columns WHERE grid_id = ${gridId})`;
  const newest = sql`(SELECT max(version) FROM grid_versions WHERE file_id = ${gridId})`;
  const held = restored
    ? sql`SELECT r.newest AS version, sum(cv.bytes) AS bytes
        FROM (SELECT values_id, max(version) AS newest FROM grid_version_columns WHERE file_id = ${gridId} GROUP BY values_id) r
        JOIN column_values cv ON cv.id = r.values_id WHERE r.values_id NOT IN ${live} GROUP BY r.newest`
    : sql`SELECT ${newest} AS version, sum(cv.bytes) AS bytes
        FROM (SELECT DISTINCT values_id FROM grid_version_columns WHERE file_id = ${gridId} AND version = ${newest}) r
        JOIN column_values cv ON cv.id = r.values_id WHERE r.values_id NOT IN ${live}`;
  await tx.execute(sql`UPDATE grid_versions g SET bytes = coalesce(m.bytes, 0) + coalesce(h.bytes, 0)
    FROM grid_versions k
    LEFT JOIN (SELECT version, sum(${VERSION_COLUMN_SQL}) AS bytes FROM grid_version_columns WHERE file_id = ${gridId} GROUP BY version) m ON m.version = k.version
    LEFT JOIN (${held}) h ON h.version = k.version
    WHERE g.file_id = ${gridId} AND k.file_id = ${gridId} AND g.version = k.version ${restored ? sql`` : sql`AND k.version = ${newest}`}`);
  await prune(tx, 'grid', gridId);
  await dropUnusedValues(tx, [gridId]);
  await boundPersonHistory(tx, gridId);
}

/** Values of these grids (locked) that no live or kept column points to go. */
async function dropUnusedValues(tx: Db, gridIds: number[]): Promise<void> {
  if (!gridIds.length) return;
  const ids = sql`${`{${gridIds.join(',')}}`}::bigint[]`;
  await tx.execute(sql`DELETE FROM column_values cv WHERE cv.grid_id = ANY(${ids})
    AND cv.id NOT IN (SELECT values_id FROM grid_columns WHERE grid_id = ANY(${ids}))
    AND cv.id NOT IN (SELECT values_id FROM grid_version_columns WHERE file_id = ANY(${ids}))`);
}

/** The kept bytes of these files (file_saves.kept_bytes) become their versions' sum, with the values a plot's versions keep (kept-columns.ts). */
async function sumKeptBytes(tx: Db, fileIds: number[]): Promise<void> {
  if (!fileIds.length) return;
  const ids = sql`${`{${fileIds.join(',')}}`}::bigint[]`;
  await tx.execute(sql`UPDATE file_saves s SET kept_bytes = coalesce(
      (SELECT sum(bytes) FROM plot_versions v WHERE v.file_id = s.file_id), (SELECT sum(bytes) FROM grid_versions v WHERE v.file_id = s.file_id), 0)
      + ${keptColumnBytesSql(sql`s.file_id`)}
    WHERE s.file_id = ANY(${ids})`);
}

/** One person's history at a time (the second key is the person's id). */
const PERSON_HISTORY_LOCK = 727276;

/**
 * After a save of file `fileId` (locked) kept its version: the file's kept bytes are summed, and
 * when its owner's files keep more than PERSON_HISTORY_BYTES, their oldest versions go (by the time
 * they were saved, a file's oldest first) until they fit. Files another transaction is changing
 * (their rows locked) are passed over, and so is the whole bound while another save of the same
 * person applies it: nothing here waits, so saves never deadlock on it; the next save catches up.
 */
export async function boundPersonHistory(tx: Db, fileId: number, bound: number = PERSON_HISTORY_BYTES): Promise<void> {
  await sumKeptBytes(tx, [fileId]);
  const [person] = await queryRows<{ owner: number; bytes: string }>(
    tx,
    sql`SELECT o.owner_id AS owner, (SELECT coalesce(sum(s.kept_bytes), 0) FROM files f JOIN file_saves s ON s.file_id = f.id WHERE f.owner_id = o.owner_id) AS bytes
      FROM files o WHERE o.id = ${fileId}`,
  );
  if (!person || Number(person.bytes) <= bound) return;
  const [free] = await queryRows<{ ok: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${PERSON_HISTORY_LOCK}, ${person.owner}::int) AS ok`);
  if (!free?.ok) return;
  // The person's files with kept versions, locked without waiting (the one being saved is ours already).
  const files = await queryRows<{ id: string }>(
    tx,
    sql`SELECT f.id FROM files f WHERE f.owner_id = ${person.owner}::int
      AND f.id IN (SELECT s.file_id FROM files g JOIN file_saves s ON s.file_id = g.id WHERE g.owner_id = ${person.owner}::int AND s.kept_bytes > 0)
      FOR UPDATE OF f SKIP LOCKED`,
  );
  const ids = sql`${`{${files.map((f) => f.id).join(',')}}`}::bigint[]`;
  const cut = await queryRows<{ kind: 'p' | 'g' | 'c'; file_id: string }>(
    tx,
    sql`WITH kept AS (
        SELECT 'p' AS kind, file_id, version, saved_at, bytes + ${versionKeptBytesSql} AS bytes FROM plot_versions v WHERE file_id = ANY(${ids})
        UNION ALL SELECT 'g', file_id, version, saved_at, bytes FROM grid_versions WHERE file_id = ANY(${ids})
        UNION ALL ${currentKeptSql(ids)}),
      ranked AS (SELECT *, sum(bytes) OVER (ORDER BY saved_at DESC, version DESC, file_id DESC, kind ROWS UNBOUNDED PRECEDING) AS total FROM kept),
      cut AS (SELECT kind, file_id, max(version) AS upto FROM ranked
        WHERE total > ${bound}::bigint - (SELECT coalesce(sum(s.kept_bytes), 0) FROM files f JOIN file_saves s ON s.file_id = f.id
          WHERE f.owner_id = ${person.owner}::int AND NOT f.id = ANY(${ids}))
        GROUP BY kind, file_id),
      p AS (DELETE FROM plot_versions v USING cut WHERE cut.kind = 'p' AND v.file_id = cut.file_id AND v.version <= cut.upto RETURNING 1),
      g AS (DELETE FROM grid_versions v USING cut WHERE cut.kind = 'g' AND v.file_id = cut.file_id AND v.version <= cut.upto RETURNING 1),
      c AS (DELETE FROM kept_columns k USING cut WHERE cut.kind = 'c' AND k.plot_id = cut.file_id AND k.data IS NOT NULL RETURNING 1)
    SELECT kind, file_id FROM cut CROSS JOIN (SELECT count(*) FROM p) dp CROSS JOIN (SELECT count(*) FROM g) dg CROSS JOIN (SELECT count(*) FROM c) dc`,
  );
  await dropUnusedValues(
    tx,
    cut.filter((c) => c.kind === 'g').map((c) => Number(c.file_id)),
  );
  await releaseKeptColumns(
    tx,
    cut.filter((c) => c.kind !== 'g').map((c) => Number(c.file_id)),
  );
  await sumKeptBytes(
    tx,
    cut.map((c) => Number(c.file_id)),
  );
}

/** How long after a save by the same author and client columns or rows appended join it. */
export const APPEND_BURST_SECONDS = 60;

/**
 * Before columns or rows are appended to a grid (the grid is locked): an append soon after a save by
 * the same author and client is part of that save (an import or a client's upload sends its columns
 * in several requests, and every state between is the final one cut short), so the current state
 * takes it with no new version; otherwise it is a save like any other (recordGridVersion). Either
 * way settleGridHistory ends the change.
 */
export async function recordGridAppend(tx: Db, gridId: number, save: Save): Promise<void> {
  const joined = await queryRows(
    tx,
    sql`UPDATE file_saves s SET saved_at = now() FROM (${currentSql(gridId)}) c
      WHERE s.file_id = ${gridId} AND s.author_id = ${save.authorId}::int AND s.client = ${save.client}::text
        AND c.saved_at > now() - make_interval(secs => ${APPEND_BURST_SECONDS})
      RETURNING s.file_id`,
  );
  if (!joined.length) await recordGridVersion(tx, gridId, save);
}

// ---------------------------------------------------------------------------------------------
// Reading a history

/** A file's versions as one relation (`version`, `saved_at`, `author_id`, `client`, and `extra` of the current row `live` and of the kept ones). */
function versionsSql(kind: VersionKind, fileId: number, extra: { live: SQL; kept: SQL }): SQL {
  const liveFrom = kind === 'plot' ? sql`JOIN plots p ON p.file_id = f.id` : sql``;
  return sql`SELECT c.*${extra.live} FROM (${currentSql(fileId)}) c CROSS JOIN files f ${liveFrom} WHERE f.id = ${fileId}
    UNION ALL
    SELECT version, saved_at, author_id, client${extra.kept} FROM ${TABLES[kind]} k WHERE k.file_id = ${fileId}`;
}

/** A kept plot version's (`k`) figure: its own, else that of the next version that keeps one, else the live plot's. */
const keptFigureSql = (fileId: number) => sql`coalesce(k.figure,
  (SELECT n.figure FROM plot_versions n WHERE n.file_id = ${fileId} AND n.version > k.version AND n.figure IS NOT NULL ORDER BY n.version LIMIT 1),
  (SELECT l.figure FROM plots l WHERE l.file_id = ${fileId}))`;

/** A version's record fields (JSON pairs over `v` and the author `u`): the list's, and a plot's title. */
const recordFields = (kind: VersionKind) =>
  sql`'version', v.version, 'date_modified', ${isoText(sql`v.saved_at`, 'millis')}, 'author', u.username, 'client', v.client${
    kind === 'plot' ? sql`, 'title', v.title` : sql``
  }`;

const TITLES = { live: sql`, p.title`, kept: sql`, title` };
const NO_EXTRA = { live: sql``, kept: sql`` };

/** What a page of versions takes: its size (1..100, 20 by default) and a cursor from a neighbour's link. */
export interface VersionsQuery {
  page_size?: number;
  cursor?: string;
}

/**
 * A page of a file's versions, newest first: each `{version, date_modified, author, client}` (a
 * plot's with its `title`) as JSON text. The caller checked the viewer is a writer (assertWriter).
 * The cursor is bound to the file.
 */
export async function listVersions(db: Db, kind: VersionKind, fileId: number, q: VersionsQuery): Promise<RowsPage<{ version: number; rec: string }>> {
  const order = `versions:${kind}:${fileId}`;
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order, (c) => c.k.length === 1 && Number.isInteger(c.k[0])) : null;
  const dir = cursor?.d ?? 'n';
  const size = q.page_size ?? 20;
  const past = cursor ? sql`WHERE v.version ${sql.raw(dir === 'n' ? '<' : '>')} ${Number(cursor.k[0])}::int` : sql``;
  const rows = await queryRows<{ version: number; rec: string }>(
    db,
    sql`SELECT v.version, json_build_object(${recordFields(kind)})::text AS rec
      FROM (${versionsSql(kind, fileId, kind === 'plot' ? TITLES : NO_EXTRA)}) v LEFT JOIN users u ON u.id = v.author_id
      ${past} ORDER BY v.version ${sql.raw(dir === 'n' ? 'DESC' : 'ASC')} LIMIT ${size + 1}`,
  );
  return keysetPage(db, rows, { size, cursor, order, keyOf: (r) => [Number(r.version)] });
}

/** The API's page: `{"next", "previous", "results"}`, the links built by the edge. */
export function versionsPageText(page: RowsPage<{ rec: string }>, link: (cursor: string) => string): string {
  const href = (cursor: string | null) => JSON.stringify(cursor && link(cursor));
  return `{"next":${href(page.next)},"previous":${href(page.previous)},"results":[${page.rows.map((r) => r.rec).join(',')}]}`;
}

/**
 * Version `n` of a plot: its record with its `figure` (srcs as stored; its stream tokens for the owner
 * alone, `owner`), as JSON text, the figure and title to restore, and whether it is the current one.
 */
export async function plotVersionAt(db: Db, fileId: number, n: number, owner = false) {
  const [row] = await queryRows<{ rec: string; figure: string; title: string; title_given: boolean; current: boolean }>(
    db,
    sql`SELECT json_build_object(${recordFields('plot')}, 'figure', ${owner ? sql`v.figure` : sql`figure_without_stream_tokens(v.figure)`})::text AS rec, v.figure::text AS figure, v.title, v.title_given, v.current
      FROM (${versionsSql('plot', fileId, { live: sql`, p.title, p.figure, p.title_given, true AS current`, kept: sql`, title, ${keptFigureSql(fileId)}, title_given, false` })}) v
      LEFT JOIN users u ON u.id = v.author_id WHERE v.version = ${n}::int`,
  );
  if (!row) throw notFound();
  return row;
}

/** Version `n` of a grid: its record's fields (JSON text without the closing brace) and where its columns are. */
export async function gridVersionAt(db: Db, fileId: number, n: number): Promise<{ head: string; current: boolean }> {
  const [row] = await queryRows<{ rec: string; current: boolean }>(
    db,
    sql`SELECT json_build_object(${recordFields('grid')})::text AS rec, v.current
      FROM (${versionsSql('grid', fileId, { live: sql`, true AS current`, kept: sql`, false` })}) v
      LEFT JOIN users u ON u.id = v.author_id WHERE v.version = ${n}::int`,
  );
  if (!row) throw notFound();
  return { head: row.rec.replace(/}$/, ''), current: row.current };
}

/** A route's version segment (`[n]`), or the 404 a missing version gets. */
export function versionParam(raw: string): number {
  const n = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : 0;
  if (!n || n > 2147483647) throw notFound();
  return n;
}
