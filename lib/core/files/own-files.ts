// The owner's own files as the web workspace lists them: every file, private and secret included, by
// folder, by the grid they draw from, or in the trash, of one type or all, in one of three orders; and
// the owner's folders. The views' kinds, orders and places are lib/shared/workspace-view.ts's.
import 'server-only';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { files } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { decodeCursor, keysetPage, type Cursor, type RowsPage } from '../cursors';
import type { Filetype } from './files';
import { isoText } from '../records';
import type { OwnFilter, OwnPlace, OwnSort } from '@/lib/shared/workspace-view';

/** One of the owner's files as the workspace lists it (a plot's title, views and kind too). */
export interface OwnFileRow {
  id: string | number;
  n: number;
  filetype: Filetype;
  filename: string;
  world_readable: boolean;
  share_key: string | null;
  title: string;
  views: number;
  is_theme: boolean;
  is_template: boolean;
  created: string;
  modified: string;
  trashed: string | null;
}

const FILTER_SQL: Record<OwnFilter, SQL> = {
  all: sql`true`,
  plot: sql`f.filetype = 'plot' AND NOT coalesce(p.is_theme OR p.is_template, false)`,
  grid: sql`f.filetype = 'grid'`,
  fold: sql`f.filetype = 'fold'`,
  dashboard: sql`f.filetype = 'dashboard'`,
  spectacle_presentation: sql`f.filetype = 'spectacle_presentation'`,
  theme: sql`p.is_theme`,
  template: sql`p.is_template`,
};

/**
 * Each order's keyset: its columns (compared as one row, all ascending or all descending), how a row's
 * key reads back from it, and the key's shape a cursor must have. The number breaks ties.
 */
const ORDERS = {
  modified: { col: sql`f.updated_at`, desc: true, key: (r: OwnFileRow) => [r.modified, r.n], cast: sql`::timestamptz`, text: true },
  name: { col: sql`f.filename`, desc: false, key: (r: OwnFileRow) => [r.filename, r.n], cast: sql`::text`, text: true },
  views: { col: sql`coalesce(p.views, 0)`, desc: true, key: (r: OwnFileRow) => [r.views, r.n], cast: sql`::bigint`, text: false },
  trashed: { col: sql`f.trashed_at`, desc: true, key: (r: OwnFileRow) => [r.trashed!, r.n], cast: sql`::timestamptz`, text: true },
} satisfies Record<string, { col: SQL; desc: boolean; key: (r: OwnFileRow) => Cursor['k']; cast: SQL; text: boolean }>;

/**
 * In a folder, folders come first whatever the order: the key leads with whether a row is a folder,
 * written to sort first in the order's own direction (so the whole key compares as one row and reads
 * off files_owner_folder_modified_idx or files_owner_folder_name_idx, which lead with the same).
 */
const FOLDER_FIRST = {
  desc: { col: sql`(f.filetype = 'fold')`, of: (r: OwnFileRow) => (r.filetype === 'fold' ? 1 : 0) },
  asc: { col: sql`(f.filetype <> 'fold')`, of: (r: OwnFileRow) => (r.filetype === 'fold' ? 0 : 1) },
};

const placeKey = (place: OwnPlace) => (typeof place === 'object' ? `uses:${place.uses}` : String(place));

/**
 * A page of the viewer's own files of kind `filter` in order `sort` (keyset on the order's columns): a
 * live folder's contents (`folder`, -1 the top level; its folders first), the owner's live plots
 * drawing from their grid `{ uses }` (any folder), or the trash (`'trash'`: what was trashed itself,
 * not what went with a folder, latest trashed first whatever `sort`). The cursor is bound to the
 * owner, the place, the kind and the order, so it is not replayed elsewhere.
 */
export async function listOwnFiles(
  db: Db,
  viewer: Viewer,
  place: OwnPlace,
  q: { cursor?: string; size: number; filter?: OwnFilter; sort?: OwnSort },
): Promise<RowsPage<OwnFileRow>> {
  const filter = q.filter ?? 'all';
  const sortName = place === 'trash' ? 'trashed' : (q.sort ?? 'modified');
  const order = ORDERS[sortName];
  const folders = typeof place === 'number' ? FOLDER_FIRST[order.desc ? 'desc' : 'asc'] : null;
  const orderId = `own:${viewer.id}:${placeKey(place)}:${filter}:${sortName}${folders ? ':folders' : ''}`;
  const cursor: Cursor | null = q.cursor
    ? await decodeCursor(db, q.cursor, orderId, (c) => {
        const k = folders ? c.k.slice(1) : c.k;
        return (
          c.k.length === (folders ? 3 : 2) &&
          (!folders || c.k[0] === 0 || c.k[0] === 1) &&
          typeof k[0] === (order.text ? 'string' : 'number') &&
          typeof k[1] === 'number'
        );
      })
    : null;
  // Forward in a descending order reads smaller keys; backward flips both.
  const down = order.desc === ((cursor?.d ?? 'n') === 'n');
  const cmp = sql.raw(down ? '<' : '>');
  // The indexes keep nulls last (none of these columns holds one): a forward page reads them forward, a
  // backward page backward, so the order must say the same of nulls to be read off the index.
  const dir = sql.raw(`${down ? 'DESC' : 'ASC'} ${(cursor?.d ?? 'n') === 'n' ? 'NULLS LAST' : 'NULLS FIRST'}`);
  const where =
    place === 'trash'
      ? sql`f.trashed_at IS NOT NULL AND f.trashed_with IS NULL`
      : typeof place === 'object'
        ? sql`f.trashed_at IS NULL AND f.filetype = 'plot' AND plot_grid_keys(p.src_refs) @> ARRAY[lower(${viewer.username}) || ':' || ${place.uses}::int]`
        : sql`f.parent = ${place}::int AND f.trashed_at IS NULL`;
  const [key, n] = folders ? (cursor?.k.slice(1) ?? []) : (cursor?.k ?? []);
  const after = !cursor
    ? sql``
    : folders
      ? sql`AND (${folders.col}, ${order.col}, f.n) ${cmp} (${cursor.k[0]}::int::boolean, ${key}${order.cast}, ${n}::int)`
      : sql`AND (${order.col}, f.n) ${cmp} (${key}${order.cast}, ${n}::int)`;
  const orderBy = folders ? sql`${folders.col} ${dir}, ${order.col} ${dir}, f.n ${dir}` : sql`${order.col} ${dir}, f.n ${dir}`;
  const rows = await queryRows<OwnFileRow>(
    db,
    sql`SELECT f.id, f.n, f.filetype, f.filename, f.world_readable, f.share_key, coalesce(p.title, '') AS title,
          coalesce(p.views, 0)::float8 AS views, coalesce(p.is_theme, false) AS is_theme, coalesce(p.is_template, false) AS is_template,
          ${isoText(sql`f.created_at`, 'micros')} AS created, ${isoText(sql`f.updated_at`, 'micros')} AS modified,
          ${isoText(sql`f.trashed_at`, 'micros')} AS trashed
        FROM files f LEFT JOIN plots p ON p.file_id = f.id
        WHERE f.owner_id = ${viewer.id}::int AND ${where} AND ${FILTER_SQL[filter]} ${after}
        ORDER BY ${orderBy} LIMIT ${q.size + 1}`,
  );
  const keyOf = folders ? (r: OwnFileRow) => [folders.of(r), ...order.key(r)] : order.key;
  return keysetPage(db, rows, { size: q.size, cursor, order: orderId, keyOf });
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
