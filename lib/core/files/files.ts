// Files common to plots, grids and folders: per-owner numbers, the create, names, lookups, folders and
// paths, and the common record. Changes (updates, the trash): file-changes.ts; the workspace's lists: own-files.ts.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { compiledQuery, queryRows, type CompiledQuery, type Db } from '@/db/client';
import { files } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { invalid, notFound } from '../errors';
import { numberedName, pathSchema } from '@/lib/shared/names';
import {
  canRead,
  canReadSql,
  collaborationSql,
  isOwner,
  recordPermission,
  seesCollaborators,
  seesCollaboratorsSql,
  seesShareKey,
  type Collaboration,
} from '../permissions';
import { collaboratorListOf, collaboratorsSql, fileNumbered, fidOf, NO_COLLABORATORS, type CollaboratorList, type Fid } from '../records';
import { apiFilePath, filePath, parentApiPath, profilePath, type ApiCollection } from '@/lib/shared/urls';
import { getUserByUsername } from '../accounts/users';

export type FileRow = typeof files.$inferSelect;
export type Filetype = FileRow['filetype'];
export interface OwnedFile extends FileRow {
  owner: string;
  /** The share by name of the viewer it was loaded for (getFile), if any. */
  collaboration?: Collaboration | null;
  /** Its record's `collaborators` for that viewer (getFile; none on a new file). */
  collaborators?: CollaboratorList;
}

/** A secret-link key: 128 random bits. */
export const newShareKey = () => randomBytes(16).toString('base64url');

/** What every file's create takes besides its type's own fields (POST /v2/plots, /v2/grids). */
export interface NewFileFields {
  filename?: string;
  parent_path?: string[];
  world_readable?: boolean;
  share_key_enabled?: boolean;
}

/**
 * Creates one of the owner's files in one transaction of several statements: its folder (which must
 * exist), a fresh number, the files row, then the type's own rows by `insertBody` (a callback, run
 * in the transaction), whose answer this answers. For creates whose type's rows need code between
 * statements (a grid's columns); `createFileWith` is the one-statement form.
 */
export async function createFile<T>(
  db: Db,
  owner: Viewer,
  filetype: Filetype,
  fields: NewFileFields,
  insertBody: (tx: Db, file: FileRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const parent = await parentFromPath(tx, owner.id, fields.parent_path);
    const file = await insertFile(tx, newFile(owner.id, filetype, fields, parent));
    return insertBody(tx, file);
  });
}

/**
 * The same create as `createFile` in one statement (no transaction round trips when there is no
 * folder to lock): `statement`, compiled once, builds its own rows from `NEW_FILE` (the create_file
 * call, a set of one files row); it runs with its own placeholders' `values` and the new file's, and
 * answers its rows. For creates whose rows SQL can build from values alone (a plot, a copy's plot
 * and grids); `createFile` is the transaction-with-a-callback form.
 */
export async function createFileWith<T>(
  db: Db,
  owner: Viewer,
  filetype: Filetype,
  fields: NewFileFields,
  statement: CompiledQuery<T>,
  values: Record<string, unknown>,
): Promise<T[]> {
  const run = (tx: Db, parent: number) => {
    const file = newFile(owner.id, filetype, fields, parent);
    const fileValues = {
      file_owner: file.ownerId,
      file_type: file.filetype,
      file_name: file.filename ?? null,
      file_parent: file.parent,
      file_public: file.worldReadable,
      file_share_key: file.shareKey ?? null,
    };
    return statement(tx, { ...values, ...fileValues }).catch(nameTaken);
  };
  if (!fields.parent_path?.length) return run(db, -1);
  return db.transaction(async (tx) => run(tx, await parentFromPath(tx, owner.id, fields.parent_path)));
}

interface NewFile {
  ownerId: number;
  filetype: Filetype;
  filename?: string;
  parent: number;
  worldReadable: boolean;
  shareKey?: string | null;
}

const newFile = (ownerId: number, filetype: Filetype, fields: NewFileFields, parent: number): NewFile => ({
  ownerId,
  filetype,
  filename: fields.filename,
  parent,
  worldReadable: fields.world_readable ?? true,
  shareKey: fields.share_key_enabled ? newShareKey() : null,
});

/** The SQL function create_file: a fresh number and the files row, named or default-named, in one call (values or placeholders). */
const createFileCall = (input: Record<keyof NewFile, unknown>) =>
  sql`create_file(${input.ownerId}::int, ${input.filetype}::text, ${input.filename}::text, ${input.parent}::int, ${input.worldReadable}::boolean, ${input.shareKey}::text)`;

/** The create_file call of `createFileWith`'s statements, over the placeholders it fills. */
export const NEW_FILE = createFileCall({
  ownerId: sql.placeholder('file_owner'),
  filetype: sql.placeholder('file_type'),
  filename: sql.placeholder('file_name'),
  parent: sql.placeholder('file_parent'),
  worldReadable: sql.placeholder('file_public'),
  shareKey: sql.placeholder('file_share_key'),
});

/** create_file's PF409 (the name is taken in the folder) as the contract's 400 "already exists". */
function nameTaken(error: unknown): never {
  for (let e = error, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === 'PF409') throw invalid('filename', `Sorry, a file named '${(e as Error).message}' already exists`);
  }
  throw error;
}

/**
 * Inserts a file row with a fresh number. A name clash among the folder's live files is the
 * contract's 400 "already exists"; with no name given, the file gets a free default name.
 */
async function insertFile(tx: Db, input: NewFile): Promise<FileRow> {
  const [raw] = await queryRows<Record<string, unknown>>(
    tx,
    sql`SELECT * FROM ${createFileCall({ ...input, filename: input.filename ?? null, shareKey: input.shareKey ?? null })}`,
  ).catch(nameTaken);
  return fileRowOf(raw);
}

const FILE_COLUMNS = Object.entries(getTableColumns(files));

/** A raw files row (SELECT *) as drizzle maps one (dates, bigints, json). */
const fileRowOf = (raw: Record<string, unknown>) =>
  Object.fromEntries(FILE_COLUMNS.map(([key, column]) => [key, raw[column.name] === null ? null : column.mapFromDriverValue(raw[column.name])])) as FileRow;

/** The owner's live file named `filename` in folder `parent` (there is at most one: files_live_filename_key). */
async function liveFileNamed(db: Db, ownerId: number, parent: number, filename: string): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.ownerId, ownerId), eq(files.parent, parent), eq(files.filename, filename), isNull(files.trashedAt)))
    .limit(1);
  return row;
}

/**
 * The first of `base`, `base (2)`, `base (3)`… that no live file of the owner in folder `parent` has
 * (a copy's name, as file managers name copies). `base` is cut so every candidate fits a filename.
 */
export async function freeFilename(db: Db, ownerId: number, parent: number, base: string): Promise<string> {
  for (let i = 1; i <= 1000; i++) {
    const name = numberedName(base, i);
    if (!(await liveFileNamed(db, ownerId, parent, name))) return name;
  }
  throw invalid('filename', `there are already 1,000 files named '${base}'; rename some of them`);
}

/** The contract's 400 when another live file of the owner has this name in this folder. */
export async function assertNameFree(tx: Db, ownerId: number, parent: number, filename: string, exceptId?: number): Promise<void> {
  const clash = await liveFileNamed(tx, ownerId, parent, filename);
  if (clash && clash.id !== exceptId) throw invalid('filename', `Sorry, a file named '${filename}' already exists`);
}

/**
 * A live (or trashed) file by owner name and number, any type, with the owner's canonical username
 * and `viewer`'s share of it by name: the permission rules are then asked about that viewer only.
 */
export async function getFile(db: Db, fid: Fid, viewer: Viewer | null, state: 'live' | 'trashed' = 'live'): Promise<OwnedFile | undefined> {
  const [row] = await FILE_BY_FID[state](db, { owner: fid.owner, n: fid.n, viewer: viewer?.id ?? null });
  return row ? { ...fileRowOf(row), owner: row.owner_name, collaboration: row.collaboration, collaborators: collaboratorListOf(row.collaborators) } : undefined;
}

/** A file row's `collaborators` column for `viewerId` (see seesCollaboratorsSql), over `f`. */
const collaboratorsColumn = (viewerId: number | null | SQL | ReturnType<typeof sql.placeholder>) => collaboratorsSql(seesCollaboratorsSql('f', viewerId));

const fileByFid = (state: SQL) =>
  compiledQuery<Record<string, unknown> & { owner_name: string; collaboration: Collaboration | null; collaborators: unknown }>(
    () => sql`SELECT f.*, u.username AS owner_name, file_collaboration(f.id, ${sql.placeholder('viewer')}::int) AS collaboration,
      ${collaboratorsColumn(sql.placeholder('viewer'))} AS collaborators FROM users u
      CROSS JOIN LATERAL (${fileNumbered(sql`u.id`, sql`${sql.placeholder('n')}::int`)}) f
      WHERE lower(u.username) = lower(${sql.placeholder('owner')}::text) AND f.trashed_at ${state}`,
  );
const FILE_BY_FID = { live: fileByFid(sql`IS NULL`), trashed: fileByFid(sql`IS NOT NULL`) };

/** The folder number at `parts` under the owner's top level (-1 for none), or null when missing. */
async function resolveFolder(db: Db, ownerId: number, parts: string[], from = -1): Promise<number | null> {
  let parent = from;
  for (const name of parts) {
    const row = await liveFileNamed(db, ownerId, parent, name);
    if (row?.filetype !== 'fold') return null;
    parent = row.n;
  }
  return parent;
}

/**
 * The folder for a create's or a move's `parent_path`: it must exist. Its row is share-locked until
 * the transaction ends, so the folder cannot go to the trash while a file goes into it.
 */
export async function parentFromPath(tx: Db, ownerId: number, parentPath: string[] | undefined): Promise<number> {
  if (!parentPath?.length) return -1;
  const parent = await resolveFolder(tx, ownerId, parentPath);
  if (parent === null || !(await lockFolder(tx, ownerId, parent))) {
    throw invalid('parent_path', `the folder '${parentPath.join('/')}' does not exist; create it with POST /v2/folders`);
  }
  return parent;
}

/**
 * Share-locks the owner's file `n` and says whether it is a live folder (see parentFromPath). Its
 * state is tested on the locked row, not in the WHERE (see fileNumbered): by the unique index.
 */
export async function lockFolder(tx: Db, ownerId: number, n: number): Promise<boolean> {
  const [row] = await queryRows<{ folder: boolean }>(
    tx,
    sql`SELECT filetype = 'fold' AND trashed_at IS NULL AS folder FROM files WHERE owner_id = ${ownerId}::int AND n = ${n}::int FOR SHARE`,
  );
  return row?.folder === true;
}

/** POST /v2/folders: the folder's path. */
export const folderCreateSchema = z.object({ path: pathSchema });

/** POST /v2/folders: creates the folder and any missing parents; an existing one is 400. */
export async function createFolders(db: Db, viewer: Viewer, parts: string[]): Promise<OwnedFile> {
  if (!parts.length) throw invalid('path', 'This field is required.');
  return db.transaction(async (tx) => {
    let parent = -1;
    let created: FileRow | undefined;
    for (const name of parts) {
      const row = await liveFileNamed(tx, viewer.id, parent, name);
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

/** Whose files a request means: `user`'s, else the caller's own; 404 when there is no such user (or no caller and no `user`). */
export async function filesOwner(db: Db, viewer: Viewer | null, user?: string | null): Promise<{ id: number; username: string }> {
  const owner = user ? await getUserByUsername(db, user) : viewer;
  if (!owner) throw notFound();
  return { id: owner.id, username: owner.username };
}

/** GET /v2/files/lookup and the typed lookups: the live file at `path` (below folder `parent`) of the caller or of
 * `user` that the caller may read, else null; 404 when there is no such user (or no caller and no `user`). */
export async function lookupPath(
  db: Db,
  viewer: Viewer | null,
  path: string[],
  opts: { user?: string; parent?: number; filetype?: Filetype } = {},
): Promise<OwnedFile | null> {
  const owner = await filesOwner(db, viewer, opts.user);
  if (!path.length) throw notFound();
  const parent = await resolveFolder(db, owner.id, path.slice(0, -1), opts.parent);
  if (parent === null) return null;
  const row = await liveFileNamed(db, owner.id, parent, path[path.length - 1]);
  if (!row) return null;
  const collaboration = await collaborationOf(db, row, viewer);
  const collaborators = seesCollaborators({ ...row, collaboration }, viewer) ? await collaboratorsOf(db, row.id) : NO_COLLABORATORS;
  const file: OwnedFile = { ...row, owner: owner.username, collaboration, collaborators };
  // On a typed lookup a file of another type counts as none.
  return canRead(file, viewer) && (!opts.filetype || file.filetype === opts.filetype) ? file : null;
}

/** A file's collaborators, for its owner or a collaborator (getFile loads them with the file). */
export async function collaboratorsOf(db: Db, fileId: number): Promise<CollaboratorList> {
  const [row] = await queryRows<{ list: unknown }>(db, sql`SELECT ${collaboratorsSql(sql`true`, sql`${fileId}::bigint`)} AS list`);
  return collaboratorListOf(row.list);
}

/** The viewer's share of a file by name (getFile loads it with the file). */
async function collaborationOf(db: Db, file: FileRow, viewer: Viewer | null): Promise<Collaboration | null> {
  if (!viewer || isOwner(viewer, file)) return null;
  const [row] = await queryRows<{ c: Collaboration | null }>(db, sql`SELECT ${collaborationSql(sql`${file.id}::bigint`, viewer.id)} AS c`);
  return row.c;
}

const API_KEYS: Record<Filetype, ApiCollection> = {
  plot: 'plots',
  grid: 'grids',
  fold: 'folders',
  dashboard: 'dashboards',
  spectacle_presentation: 'spectacle-presentations',
};

/** The common record of any file (plots' own records are built in SQL: records.ts). */
export function fileRecord(origin: string, file: OwnedFile, viewer: Viewer | null) {
  const fid = fidOf(file.owner, file.n);
  const kind = API_KEYS[file.filetype];
  return {
    fid,
    filename: file.filename,
    filetype: file.filetype,
    owner: file.owner,
    parent: file.parent,
    parented: file.parent !== -1,
    world_readable: file.worldReadable,
    share_key_enabled: file.shareKey !== null,
    web_url: `${origin}${file.filetype === 'fold' ? profilePath(file.owner) : filePath(file.owner, file.n)}`,
    // The spec's creation_time has microseconds; a Date holds milliseconds, so the last three are 0.
    creation_time: `${file.createdAt.toISOString().slice(0, -1)}000Z`,
    date_modified: file.updatedAt.toISOString(),
    current_user_permission: recordPermission(file, viewer),
    // Shown to the owner and collaborators: a file not loaded for them (a new one) has none yet.
    collaborators: file.collaborators ?? NO_COLLABORATORS,
    // The owner learns the secret link's key (to share it); nobody else does (seesShareKey without a key).
    ...(file.shareKey && seesShareKey(file, viewer) ? { share_key: file.shareKey } : {}),
    api_urls: {
      files: `${origin}${apiFilePath('files', file.owner, file.n)}`,
      [kind]: `${origin}${apiFilePath(kind, file.owner, file.n)}`,
      parent: `${origin}${parentApiPath(file.owner, file.parent)}`,
    },
  };
}

/** A folder's live children the viewer may see (the folder detail). */
export async function listFolderChildren(
  db: Db,
  ownerId: number,
  parent: number,
  viewer: Viewer | null,
): Promise<(FileRow & { collaboration: Collaboration | null; collaborators: CollaboratorList })[]> {
  const rows = await db
    .select({
      ...getTableColumns(files),
      collaboration: sql<Collaboration | null>`${collaborationSql(files.id, viewer?.id ?? null)}`,
      collaborators: sql<unknown>`${collaboratorsSql(seesCollaboratorsSql(files, viewer?.id ?? null), sql`${files.id}`)}`,
    })
    .from(files)
    .where(and(eq(files.ownerId, ownerId), eq(files.parent, parent), isNull(files.trashedAt), canReadSql(files, viewer?.id ?? null)))
    .orderBy(files.filename)
    .limit(1000);
  return rows.map((row) => ({ ...row, collaborators: collaboratorListOf(row.collaborators) }));
}
