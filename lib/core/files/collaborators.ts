// People a file is shared with by name (docs/api.md "Collaborators"): its owner names users as `read` (they see
// it as if it were public to them) or `write` (they also change its content, never its place, name,
// sharing or existence). A folder's collaborators reach everything below it, as long as it stays
// there: the database decides that (file_collaboration, read by getFile and canReadSql).
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { collaborators } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { invalid, notFound, permissionDenied } from '../errors';
import { collaboratorsOf, getFile, type Filetype, type OwnedFile } from './files';
import { assertOwner, assertReadable, isOwner, seesCollaborators, type Collaboration } from '../permissions';
import { decodeCursor, keysetPage, type RowsPage } from '../cursors';
import { fileNumbered, isoText, MAX_COLLABORATORS, USERNAME, type CollaboratorEntry, type CollaboratorList, type Fid } from '../records';
import { blockedShare, blocksShares } from '../accounts/blocks';
import { getUserByUsername } from '../accounts/users';
import { notifyShare } from './notifications';

export const PERMISSIONS = ['read', 'write'] as const satisfies readonly Collaboration[];

const permissionSchema = z.enum(PERMISSIONS).meta({ description: '`read`: sees the file; `write`: also changes its content' });

export const collaboratorAddSchema = z.object({
  username: z.string().min(1).max(200).meta({ description: 'the user to share the file with' }),
  permission: permissionSchema,
});
export const collaboratorChangeSchema = z.object({ permission: permissionSchema });

/** The live file at `fid` as its owner or a collaborator sees it; anyone else gets the 404 of a missing file. */
async function sharedFile(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
  const file = assertReadable(await getFile(db, fid, viewer), viewer);
  if (!seesCollaborators(file, viewer)) throw notFound();
  return file;
}

/** GET /v2/files/{fid}/collaborators: the file's own collaborators (a folder's are listed on the folder), to its owner and collaborators. */
export async function listCollaborators(db: Db, viewer: Viewer | null, fid: Fid): Promise<CollaboratorList> {
  return collaboratorsOf(db, (await sharedFile(db, viewer, fid)).id);
}

/** The user a share names: an account other than the owner's, else a 400 naming `username`. */
async function collaboratorNamed(db: Db, file: OwnedFile, username: string) {
  const user = USERNAME.test(username) ? await getUserByUsername(db, username) : undefined;
  if (!user) throw invalid('username', `there is no user named '${username}'`);
  if (isOwner(user, file)) throw invalid('username', 'you own this file: it is yours already');
  return user;
}

const entryOf = (list: CollaboratorList, username: string) => list.results.find((e) => e.username.toLowerCase() === username.toLowerCase())!;

/**
 * POST /v2/files/{fid}/collaborators (the owner): shares the file with a user. Sharing again with
 * someone already named changes their permission (`created` false). At most MAX_COLLABORATORS per file.
 */
export async function addCollaborator(
  db: Db,
  viewer: Viewer | null,
  fid: Fid,
  input: z.output<typeof collaboratorAddSchema>,
): Promise<{ entry: CollaboratorEntry; created: boolean }> {
  const file = assertOwner(await getFile(db, fid, viewer), viewer);
  const user = await collaboratorNamed(db, file, input.username);
  const created = await db.transaction(async (tx) => {
    // One share at a time per file, so the bound holds under concurrent adds.
    await queryRows(tx, sql`SELECT 1 FROM files WHERE id = ${file.id} AND trashed_at IS NULL FOR UPDATE`);
    const [{ n, named }] = await queryRows<{ n: number; named: boolean }>(
      tx,
      sql`SELECT count(*)::int AS n, bool_or(user_id = ${user.id}) AS named FROM collaborators WHERE file_id = ${file.id}`,
    );
    if (!named && n >= MAX_COLLABORATORS) throw invalid('username', `a file is shared with at most ${MAX_COLLABORATORS} people`);
    if (await blocksShares(tx, user.id, file.ownerId)) throw blockedShare();
    await tx
      .insert(collaborators)
      .values({ fileId: file.id, userId: user.id, permission: input.permission })
      .onConflictDoUpdate({ target: [collaborators.fileId, collaborators.userId], set: { permission: input.permission } });
    if (!named) await notifyShare(tx, file.id, file.ownerId, user.id, input.permission);
    return !named;
  });
  return { entry: entryOf(await collaboratorsOf(db, file.id), user.username), created };
}

/** PATCH /v2/files/{fid}/collaborators/{username} (the owner): a collaborator's new permission; 404 for someone not named. */
export async function changeCollaborator(
  db: Db,
  viewer: Viewer | null,
  fid: Fid,
  username: string,
  input: z.output<typeof collaboratorChangeSchema>,
): Promise<CollaboratorEntry> {
  const file = assertOwner(await getFile(db, fid, viewer), viewer);
  const user = USERNAME.test(username) ? await getUserByUsername(db, username) : undefined;
  const changed = user
    ? await db
        .update(collaborators)
        .set({ permission: input.permission })
        .where(and(eq(collaborators.fileId, file.id), eq(collaborators.userId, user.id)))
        .returning({ userId: collaborators.userId })
    : [];
  if (!user || !changed.length) throw notFound();
  return entryOf(await collaboratorsOf(db, file.id), user.username);
}

/**
 * DELETE /v2/files/{fid}/collaborators/{username}: the owner unshares the file, or a collaborator
 * leaves (declines) it; access ends with the statement. 404 for someone not named (and to anyone else).
 */
export async function removeCollaborator(db: Db, viewer: Viewer | null, fid: Fid, username: string): Promise<void> {
  const file = await sharedFile(db, viewer, fid);
  const user = USERNAME.test(username) ? await getUserByUsername(db, username) : undefined;
  if (!isOwner(viewer, file) && user?.id !== viewer!.id) throw permissionDenied('Only the owner unshares a file with others; you can leave it yourself.');
  if (!user) throw notFound();
  const gone = await db
    .delete(collaborators)
    .where(and(eq(collaborators.fileId, file.id), eq(collaborators.userId, user.id)))
    .returning({ userId: collaborators.userId });
  if (!gone.length) throw notFound();
}

/** One file shared with the viewer by name, as "Shared with me" lists it. */
export interface SharedFile {
  owner: string;
  n: number;
  filetype: Filetype;
  filename: string;
  /** A plot's title, else ''. */
  title: string;
  permission: Collaboration;
  shared_at: string;
}

/**
 * "Shared with me": the live files shared with the viewer by name, latest share first (keyset over
 * collaborators_user_idx), `size` a page. What is in a shared folder is listed with the folder (sharedFolderFiles).
 */
export async function listSharedWithMe(
  db: Db,
  viewer: Viewer,
  q: { size: number; cursor?: string },
): Promise<RowsPage<SharedFile & { at: string; id: number }>> {
  const order = `shared:${viewer.id}`;
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order, (c) => c.k.length === 2 && typeof c.k[0] === 'string' && Number.isInteger(c.k[1])) : null;
  const dir = cursor?.d ?? 'n';
  const [cmp, sort] = dir === 'n' ? ['<', 'DESC'] : ['>', 'ASC'];
  const past = cursor ? sql`AND (c.created_at, c.file_id) ${sql.raw(cmp)} (${String(cursor.k[0])}::timestamptz, ${Number(cursor.k[1])}::bigint)` : sql``;
  const rows = await queryRows<SharedFile & { at: string; id: string | number }>(
    db,
    sql`SELECT u.username AS owner, f.n, f.filetype, f.filename, coalesce(p.title, '') AS title, c.permission,
               ${isoText(sql`c.created_at`, 'millis')} AS shared_at, c.created_at::text AS at, f.id
        FROM collaborators c JOIN files f ON f.id = c.file_id JOIN users u ON u.id = f.owner_id LEFT JOIN plots p ON p.file_id = f.id
        WHERE c.user_id = ${viewer.id}::int AND f.trashed_at IS NULL ${past}
        ORDER BY c.created_at ${sql.raw(sort)}, c.file_id ${sql.raw(sort)} LIMIT ${q.size + 1}`,
  );
  const typed = rows.map((r) => ({ ...r, id: Number(r.id) }));
  return keysetPage(db, typed, { size: q.size, cursor, order, keyOf: (r) => [r.at, r.id] });
}

/** What a shared folder holds that the viewer may see (its live children, by name; bounded like the API's folder detail). */
export async function sharedFolderFiles(db: Db, viewer: Viewer, fid: Fid): Promise<{ folder: OwnedFile; files: SharedFile[] }> {
  const folder = assertReadable(await getFile(db, fid, viewer), viewer);
  if (folder.filetype !== 'fold' || (!folder.collaboration && !isOwner(viewer, folder))) throw notFound();
  const rows = await queryRows<SharedFile>(
    db,
    sql`SELECT ${folder.owner}::text AS owner, f.n, f.filetype, f.filename, coalesce(p.title, '') AS title,
               ${folder.collaboration ?? 'write'}::text AS permission, ${isoText(sql`f.created_at`, 'millis')} AS shared_at
        FROM files f LEFT JOIN plots p ON p.file_id = f.id
        WHERE f.owner_id = ${folder.ownerId}::int AND f.parent = ${folder.n}::int AND f.trashed_at IS NULL
        ORDER BY f.filetype = 'fold' DESC, lower(f.filename), f.n LIMIT ${FOLDER_PAGE}`,
  );
  return { folder, files: rows };
}

/** Files a shared folder's page shows (the API's folder detail shows as many). */
const FOLDER_PAGE = 1000;

/**
 * For each of a plot's collaborators, the owner's private grids the plot draws from that they cannot
 * read (the chart still shows them the columns it draws, as to any reader, but not the grids): what the
 * owner is told, and offered to share too.
 */
export async function unreadableGridsOf(db: Db, viewer: Viewer, fid: Fid): Promise<UnreadableGrids[]> {
  return unreadableGridsOfOwn(db, assertOwner(await getFile(db, fid, viewer), viewer));
}

export type UnreadableGrids = { username: string; grids: { n: number; filename: string }[] };

/** SQL: the owner's untrashed grids the plot draws from (id, n, filename, world_readable). */
const plotGridsSql = (plot: OwnedFile) => sql`
  SELECT DISTINCT g.id, g.n, g.filename, g.world_readable FROM plots p
  CROSS JOIN LATERAL unnest(plot_grid_keys(p.src_refs)) AS k(key)
  CROSS JOIN LATERAL (${fileNumbered(sql`${plot.ownerId}::int`, sql`split_part(k.key, ':', 2)::int`)}) g
  WHERE p.file_id = ${plot.id} AND split_part(k.key, ':', 1) = lower(${plot.owner}) AND g.filetype = 'grid' AND g.trashed_at IS NULL`;

/** The owner's private grids an own plot draws from: what sharing it to edit offers to share too. */
export async function listPrivateGridsOf(db: Db, plot: OwnedFile): Promise<{ n: number; filename: string }[]> {
  if (plot.filetype !== 'plot') return [];
  return queryRows(db, sql`SELECT n, filename FROM (${plotGridsSql(plot)}) g WHERE NOT g.world_readable ORDER BY n`);
}

/** unreadableGridsOf a file the caller already found to be the viewer's own (isOwner): a page that looked it up once. */
export async function unreadableGridsOfOwn(db: Db, plot: OwnedFile): Promise<UnreadableGrids[]> {
  if (plot.filetype !== 'plot') return [];
  const rows = await queryRows<{ username: string; grids: { n: number; filename: string }[] | string }>(
    db,
    sql`WITH grids AS (${plotGridsSql(plot)})
        SELECT u.username, json_agg(json_build_object('n', g.n, 'filename', g.filename) ORDER BY g.n) AS grids
        FROM collaborators c JOIN users u ON u.id = c.user_id CROSS JOIN grids g
        WHERE c.file_id = ${plot.id} AND NOT g.world_readable AND file_collaboration(g.id, c.user_id) IS NULL
        GROUP BY u.username ORDER BY lower(u.username)`,
  );
  return rows.map((r) => ({ username: r.username, grids: typeof r.grids === 'string' ? JSON.parse(r.grids) : r.grids }));
}
