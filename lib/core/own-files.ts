// The owner's own files as the web workspace lists them: every file, private and secret included, by
// folder or in the trash, and the owner's folders.
import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { files } from '@/db/schema';
import type { Viewer } from './auth';
import { decodeCursor, keysetPage, type RowsPage } from './cursors';
import type { Filetype } from './files';
import { isoText } from './records';

/** One of the owner's files as the workspace lists it (a plot's title too). */
export interface OwnFileRow {
  n: number;
  filetype: Filetype;
  filename: string;
  world_readable: boolean;
  share_key: string | null;
  title: string;
  created: string;
  modified: string;
  trashed: string | null;
}

/**
 * A page of the viewer's own files: a live folder's contents (`folder`, -1 the top level), newest first,
 * or the trash (`'trash'`: what was trashed itself, not what went with a folder), latest trashed first.
 * The cursor is bound to the owner and the place, so it is not replayed elsewhere.
 */
export async function listOwnFiles(db: Db, viewer: Viewer, place: number | 'trash', q: { cursor?: string; size: number }): Promise<RowsPage<OwnFileRow>> {
  const trash = place === 'trash';
  const order = `own:${viewer.id}:${place}`;
  const cursor = q.cursor
    ? await decodeCursor(
        db,
        q.cursor,
        order,
        (c) => (trash ? c.k.length === 2 && typeof c.k[0] === 'string' : c.k.length === 1) && typeof c.k.at(-1) === 'number',
      )
    : null;
  const dir = cursor?.d ?? 'n';
  const cmp = sql.raw(dir === 'n' ? '<' : '>');
  const sort = sql.raw(dir === 'n' ? 'DESC' : 'ASC');
  const where = trash
    ? sql`f.trashed_at IS NOT NULL AND f.trashed_with IS NULL ${cursor ? sql`AND (f.trashed_at, f.n) ${cmp} (${cursor.k[0]}::timestamptz, ${cursor.k[1]}::int)` : sql``}`
    : sql`f.parent = ${place}::int AND f.trashed_at IS NULL ${cursor ? sql`AND f.n ${cmp} ${cursor.k[0]}::int` : sql``}`;
  const rows = await queryRows<OwnFileRow>(
    db,
    sql`SELECT f.n, f.filetype, f.filename, f.world_readable, f.share_key, coalesce(p.title, '') AS title,
          ${isoText(sql`f.created_at`, 'micros')} AS created, ${isoText(sql`f.updated_at`, 'micros')} AS modified,
          ${isoText(sql`f.trashed_at`, 'micros')} AS trashed
        FROM files f LEFT JOIN plots p ON p.file_id = f.id
        WHERE f.owner_id = ${viewer.id}::int AND ${where}
        ORDER BY ${trash ? sql`f.trashed_at ${sort}, ` : sql``}f.n ${sort} LIMIT ${q.size + 1}`,
  );
  return keysetPage(db, rows, { size: q.size, cursor, order, keyOf: (r) => (trash ? [r.trashed!, r.n] : [r.n]) });
}

/** The owner's live folders (number, name, containing folder), for paths and "move to" choices. */
export async function listOwnFolders(db: Db, ownerId: number): Promise<{ n: number; filename: string; parent: number }[]> {
  return db
    .select({ n: files.n, filename: files.filename, parent: files.parent })
    .from(files)
    .where(and(eq(files.ownerId, ownerId), eq(files.filetype, 'fold'), isNull(files.trashedAt)))
    .orderBy(files.filename)
    .limit(2000);
}
