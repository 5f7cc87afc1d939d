// Files common to plots, grids and folders: per-owner numbers, names, folders and paths.
import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { files, users } from '@/db/schema';
import type { Viewer } from './auth';
import { invalid, notFound } from './errors';
import { assertOwner, canRead } from './permissions';
import { fileUrls, fidOf, parentApiUrl, type Fid } from './records';
import { getUserByUsername } from './users';

export type FileRow = typeof files.$inferSelect;
export type Filetype = FileRow['filetype'];
export interface OwnedFile extends FileRow {
  owner: string;
}

const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

export const filenameSchema = z
  .string()
  .trim()
  .min(1, 'may not be blank')
  .max(255, 'at most 255 characters')
  .refine((s) => !s.includes('/'), 'may not contain "/"')
  .refine(noControl, 'may not contain control characters')
  .meta({ description: "the file's name: 1..255 characters, no `/`, unique among the owner's live files in its folder" });

export const pathSchema = z
  .string()
  .max(1024, 'at most 1024 characters')
  .refine(noControl, 'may not contain control characters')
  .transform((s) => s.split('/').filter(Boolean))
  .refine((parts) => parts.every((p) => p.length <= 255 && p !== '.' && p !== '..'), 'invalid folder name')
  .refine((parts) => parts.length <= 20, 'at most 20 levels')
  .meta({ description: 'a path of folder names, `a/b` (at most 20 levels)' });

/** A secret-link key: 128 random bits. */
export const newShareKey = () => randomBytes(16).toString('base64url');

/** The next number of an owner's files. The row lock serializes one owner's creates, and a rolled
 * back create rolls the counter back too, so numbers are distinct and gap-free. */
export async function allocateFileNumber(tx: Db, ownerId: number): Promise<number> {
  const [row] = await tx
    .update(users)
    .set({ fileCounter: sql`${users.fileCounter} + 1` })
    .where(eq(users.id, ownerId))
    .returning({ n: users.fileCounter });
  return row.n;
}

/**
 * Inserts a file row with a fresh number. A name clash among the folder's live files is the
 * contract's 400 "already exists"; with no name given, the file gets a free default name.
 */
export async function insertFile(
  tx: Db,
  input: { ownerId: number; filetype: Filetype; filename?: string; parent: number; worldReadable: boolean; shareKey?: string | null },
): Promise<FileRow> {
  const n = await allocateFileNumber(tx, input.ownerId);
  const names = input.filename ? [input.filename] : defaultNames(input.filetype, n);
  for (const filename of names) {
    const [row] = await tx
      .insert(files)
      .values({
        ownerId: input.ownerId,
        n,
        filetype: input.filetype,
        filename,
        parent: input.parent,
        worldReadable: input.worldReadable,
        shareKey: input.shareKey ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
  }
  throw invalid('filename', `Sorry, a file named '${names[0]}' already exists`);
}

function defaultNames(filetype: Filetype, n: number): string[] {
  const stem = filetype === 'fold' ? 'folder' : filetype;
  return [`${stem} ${n}`, ...Array.from({ length: 5 }, () => `${stem} ${n} (${randomBytes(3).toString('hex')})`)];
}

/** Renames/moves a live file, answering the contract's 400 on a clash. */
export async function renameFile(tx: Db, file: FileRow, filename: string, parent: number): Promise<void> {
  if (file.filename === filename && file.parent === parent) return;
  const clash = await tx
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.ownerId, file.ownerId), eq(files.parent, parent), eq(files.filename, filename), isNull(files.trashedAt)))
    .limit(1);
  if (clash.length) throw invalid('filename', `Sorry, a file named '${filename}' already exists`);
  await tx.update(files).set({ filename, parent }).where(eq(files.id, file.id));
}

/** A live (or trashed) file by owner name and number, any type, with the owner's canonical username. */
export async function getFile(db: Db, fid: Fid, state: 'live' | 'trashed' = 'live'): Promise<OwnedFile | undefined> {
  const rows = await db
    .select({ file: files, owner: users.username })
    .from(files)
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(
      and(
        sql`lower(${users.username}) = lower(${fid.owner})`,
        eq(files.n, fid.n),
        state === 'live' ? isNull(files.trashedAt) : isNotNull(files.trashedAt),
      ),
    )
    .limit(1);
  return rows[0] ? { ...rows[0].file, owner: rows[0].owner } : undefined;
}

/** The folder number at `parts` under the owner's top level (-1 for none), or null when missing. */
export async function resolveFolder(db: Db, ownerId: number, parts: string[]): Promise<number | null> {
  let parent = -1;
  for (const name of parts) {
    const [row] = await db
      .select({ n: files.n })
      .from(files)
      .where(
        and(eq(files.ownerId, ownerId), eq(files.parent, parent), eq(files.filename, name), eq(files.filetype, 'fold'), isNull(files.trashedAt)),
      )
      .limit(1);
    if (!row) return null;
    parent = row.n;
  }
  return parent;
}

/** The folder for a create's `parent_path`: it must exist. */
export async function parentFromPath(db: Db, ownerId: number, parentPath: string[] | undefined): Promise<number> {
  if (!parentPath?.length) return -1;
  const parent = await resolveFolder(db, ownerId, parentPath);
  if (parent === null) throw invalid('parent_path', `the folder '${parentPath.join('/')}' does not exist; create it with POST /v2/folders`);
  return parent;
}

/** POST /v2/folders: creates the folder and any missing parents; an existing one is 400. */
export async function createFolders(db: Db, viewer: Viewer, parts: string[]): Promise<OwnedFile> {
  if (!parts.length) throw invalid('path', 'This field is required.');
  return db.transaction(async (tx) => {
    let parent = -1;
    let created: FileRow | undefined;
    for (const name of parts) {
      const [row] = await tx
        .select()
        .from(files)
        .where(and(eq(files.ownerId, viewer.id), eq(files.parent, parent), eq(files.filename, name), isNull(files.trashedAt)))
        .limit(1);
      if (row) {
        if (row.filetype !== 'fold') throw invalid('path', `Sorry, a file named '${name}' already exists`);
        parent = row.n;
        created = undefined;
        continue;
      }
      created = await insertFile(tx, { ownerId: viewer.id, filetype: 'fold', filename: name, parent, worldReadable: true });
      parent = created.n;
    }
    if (!created) throw invalid('path', `Sorry, a folder named '${parts.join('/')}' already exists`);
    return { ...created, owner: viewer.username };
  });
}

/** GET /v2/files/lookup: the file at `path` of the caller or of `user`, if the caller may read it. */
export async function lookupPath(db: Db, viewer: Viewer | null, path: string[], username?: string): Promise<OwnedFile> {
  const owner = username ? await getUserByUsername(db, username) : viewer ? { id: viewer.id, username: viewer.username } : undefined;
  if (!owner || !path.length) throw notFound();
  const parent = await resolveFolder(db, owner.id, path.slice(0, -1));
  if (parent === null) throw notFound();
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.ownerId, owner.id), eq(files.parent, parent), eq(files.filename, path[path.length - 1]), isNull(files.trashedAt)))
    .limit(1);
  if (!row || !canRead(row, viewer)) throw notFound();
  return { ...row, owner: owner.username };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** Spec time formats from a JS Date (millisecond precision; the database's microseconds come via SQL). */
export function isoMillis(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}

/** The common record of a grid or folder (plots use the SQL builder in records.ts). */
export function fileRecord(origin: string, file: OwnedFile, viewer: Viewer | null) {
  const fid = fidOf(file.owner, file.n);
  const { web_url } = fileUrls(origin, file.owner, file.n);
  const kind = file.filetype === 'grid' ? 'grids' : 'folders';
  return {
    fid,
    filename: file.filename,
    filetype: file.filetype,
    owner: file.owner,
    parent: file.parent,
    parented: file.parent !== -1,
    world_readable: file.worldReadable,
    web_url: file.filetype === 'fold' ? `${origin}/~${file.owner}/` : web_url,
    creation_time: isoMillis(file.createdAt).replace('Z', '000Z'),
    date_modified: isoMillis(file.updatedAt),
    current_user_permission: viewer?.id === file.ownerId ? 'write' : 'read',
    // As on plots: the owner of a secret file learns its key (to share it); nobody else does.
    ...(viewer?.id === file.ownerId && file.shareKey && !file.worldReadable ? { share_key: file.shareKey } : {}),
    api_urls: {
      files: `${origin}/v2/files/${fid}`,
      [kind]: `${origin}/v2/${kind}/${fid}`,
      parent: parentApiUrl(origin, file.owner, file.parent),
    },
  };
}

/** A folder's live children the viewer may see (the folder detail). */
export async function listFolderChildren(db: Db, ownerId: number, parent: number, viewer: Viewer | null): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(
      and(
        eq(files.ownerId, ownerId),
        eq(files.parent, parent),
        isNull(files.trashedAt),
        sql`(${files.worldReadable} OR ${files.ownerId} = ${viewer?.id ?? null}::int)`,
      ),
    )
    .orderBy(files.filename)
    .limit(1000);
}

// Trash, restore, permanent delete (plots under /v2/plots/{fid}/..., any file under /v2/files/{fid}/...).

/** The owner's live or trashed file, optionally of one type (others get the 404 of a missing one). */
async function ownedFile(db: Db, viewer: Viewer | null, fid: Fid, state: 'live' | 'trashed' | 'any', filetype?: Filetype) {
  const file = state === 'any' ? ((await getFile(db, fid)) ?? (await getFile(db, fid, 'trashed'))) : await getFile(db, fid, state);
  return assertOwner(file && (!filetype || file.filetype === filetype) ? file : undefined, viewer);
}

/** Trashed files leave every list, feed and page; their numbers stay taken. */
export async function trashFile(db: Db, viewer: Viewer | null, fid: Fid, filetype?: Filetype): Promise<void> {
  const file = await ownedFile(db, viewer, fid, 'live', filetype);
  await db.update(files).set({ trashedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(files.id, file.id));
}

export async function restoreFile(db: Db, viewer: Viewer | null, fid: Fid, filetype?: Filetype): Promise<void> {
  const file = await ownedFile(db, viewer, fid, 'trashed', filetype);
  const clash = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.ownerId, file.ownerId), eq(files.parent, file.parent), eq(files.filename, file.filename), isNull(files.trashedAt)))
    .limit(1);
  if (clash.length) throw invalid('filename', `Sorry, a file named '${file.filename}' already exists`);
  await db.update(files).set({ trashedAt: null, updatedAt: sql`now()` }).where(eq(files.id, file.id));
}

/** Deletes a file for good, trashed or not (a grid's columns with it); its number is never reused. */
export async function deleteFile(db: Db, viewer: Viewer | null, fid: Fid, filetype?: Filetype): Promise<void> {
  const file = await ownedFile(db, viewer, fid, 'any', filetype);
  await db.delete(files).where(eq(files.id, file.id));
}
