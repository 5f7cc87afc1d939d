// Stars: a signed-in reader stars a plot and takes it back. plots.stars counts them (exact: a trigger
// moves it with each row, migration people_counts), which the -stars list order and records read.
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { decodeCursor, keysetPage, type RowsPage } from '../cursors';
import { limitSql, newestKey, past, type FeedQuery, type PageRow } from './plot-lists';
import { assertReadable, canReadSql } from '../permissions';
import { getPlotFile } from './plots';
import { isoText, originJoin, RECORD_JOIN, type Fid } from '../records';

/** POST /v2/files/{fid}/stars: stars a plot the caller can read (again: no change). Answers the plot's count and that it is starred. */
export async function starPlot(db: Db, viewer: Viewer, fid: Fid, shareKey?: string | null): Promise<{ starred: boolean; count: number }> {
  const file = assertReadable(await getPlotFile(db, fid, viewer), viewer, shareKey);
  await db.execute(sql`INSERT INTO stars (user_id, file_id) VALUES (${viewer.id}, ${file.id}) ON CONFLICT DO NOTHING`);
  return { starred: true, count: await starCount(db, file.id) };
}

/** DELETE /v2/files/{fid}/stars: takes the caller's star back (none: no change). */
export async function unstarPlot(db: Db, viewer: Viewer, fid: Fid, shareKey?: string | null): Promise<{ starred: boolean; count: number }> {
  const file = assertReadable(await getPlotFile(db, fid, viewer), viewer, shareKey);
  await db.execute(sql`DELETE FROM stars WHERE user_id = ${viewer.id} AND file_id = ${file.id}`);
  return { starred: false, count: await starCount(db, file.id) };
}

async function starCount(db: Db, fileId: number): Promise<number> {
  const [row] = await queryRows<{ stars: string }>(db, sql`SELECT stars FROM plots WHERE file_id = ${fileId}`);
  return Number(row?.stars ?? 0);
}

/** Whether the viewer starred the plot (its page's button). */
export async function hasStarred(db: Db, viewer: Viewer | null, fileId: number): Promise<boolean> {
  if (!viewer) return false;
  const rows = await queryRows(db, sql`SELECT 1 FROM stars WHERE user_id = ${viewer.id} AND file_id = ${fileId}`);
  return rows.length > 0;
}

/**
 * GET /v2/files/{fid}/stars: who starred a plot the caller can read, newest first, keyset-paged:
 * `{"username", "date_starred"}` rows as JSON text. The cursor is bound to the plot.
 */
export async function listStargazers(db: Db, viewer: Viewer | null, fid: Fid, q: FeedQuery, shareKey?: string | null): Promise<RowsPage<{ rec: string }>> {
  const file = assertReadable(await getPlotFile(db, fid, viewer), viewer, shareKey);
  const order = `stars:${file.id}`;
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order, (c) => c.k.length === 2 && typeof c.k[0] === 'string' && typeof c.k[1] === 'number') : null;
  const dir = cursor?.d ?? 'n';
  const size = q.page_size ?? 20;
  const after = cursor ? past(dir, sql`s.created_at, s.user_id`, sql`${cursor.k[0]}::timestamptz, ${cursor.k[1]}::int`) : sql``;
  const sorted = dir === 'n' ? sql`s.created_at DESC, s.user_id DESC` : sql`s.created_at ASC, s.user_id ASC`;
  const rows = await queryRows<{ rec: string; created: string; user_id: number }>(
    db,
    sql`SELECT json_build_object('username', su.username, 'date_starred', ${isoText(sql`s.created_at`, 'millis')})::text AS rec,
          ${isoText(sql`s.created_at`, 'micros')} AS created, s.user_id
        FROM stars s JOIN users su ON su.id = s.user_id
        WHERE s.file_id = ${file.id} ${after} ORDER BY ${sorted} ${limitSql(size + 1)}`,
  );
  return keysetPage(db, rows, { size, cursor, order, keyOf: (r) => [r.created, Number(r.user_id)] });
}

/**
 * The plots a person starred, newest star first (their profile's "Starred"), any projection over `p`,
 * `f`, `u` and `c.o` as listPlotRows: live ones the viewer may read only. The cursor is bound to the person.
 */
export async function listStarredRows<R>(
  db: Db,
  viewer: Viewer | null,
  userId: number,
  select: SQL,
  q: FeedQuery,
  origin: string,
): Promise<RowsPage<R & PageRow>> {
  const order = `starred:${userId}`;
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order, (c) => c.k.length === 2 && typeof c.k[0] === 'string' && typeof c.k[1] === 'number') : null;
  const size = q.page_size ?? 20;
  const dir = cursor?.d ?? 'n';
  const after = cursor ? past(dir, sql`s.created_at, s.file_id`, newestKey(cursor.k[0], cursor.k[1])) : sql``;
  const sorted = dir === 'n' ? sql`s.created_at DESC, s.file_id DESC` : sql`s.created_at ASC, s.file_id ASC`;
  const readable = canReadSql('f', viewer?.id ?? null);
  const rows = await queryRows<R & PageRow & { starred: string }>(
    db,
    sql`SELECT ${select}, p.file_id, ${isoText(sql`s.created_at`, 'micros')} AS starred, ${isoText(sql`p.created_at`, 'micros')} AS created, p.views
        FROM stars s JOIN plots p ON p.file_id = s.file_id ${RECORD_JOIN} ${originJoin(origin)}
        WHERE s.user_id = ${userId} AND f.trashed_at IS NULL AND ${readable} ${after}
        ORDER BY ${sorted} ${limitSql(size + 1)}`,
  );
  return keysetPage(db, rows, { size, cursor, order, keyOf: (r) => [r.starred, Number(r.file_id)] });
}
