// Files common to plots, grids and folders: per-owner numbers, names, folders and paths, records,
// updates and the trash.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { compiledQuery, queryRows, type CompiledQuery, type Db } from '@/db/client';
import { files } from '@/db/schema';
import type { Viewer } from './auth';
import { decodeCursor, keysetPage, type RowsPage } from './cursors';
import { invalid, notFound } from './errors';
import { filenameSchema, pathSchema } from './file-names';
import { refreshPlotsOfGrids } from './images';
import { assertOwner, canRead, canReadSql } from './permissions';
import { fileNumbered, fidOf, isoText, type Fid } from './records';
import { apiFilePath, filePath, parentApiPath, profilePath, type ApiCollection } from './urls';
import { getUserByUsername } from './users';

export type FileRow = typeof files.$inferSelect;
export type Filetype = FileRow['filetype'];
export interface OwnedFile extends FileRow {
  owner: string;
}

/** A secret-link key: 128 random bits. */
const newShareKey = () => randomBytes(16).toString('base64url');

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

/** create_file (migration 0012, as 0017 redefines it): a fresh number and the files row, named or default-named, in one call (values or placeholders). */
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
    const suffix = i === 1 ? '' : ` (${i})`;
    const name = `${base.slice(0, 255 - suffix.length).trimEnd()}${suffix}`;
    if (!(await liveFileNamed(db, ownerId, parent, name))) return name;
  }
  throw invalid('filename', `there are already 1,000 files named '${base}'; rename some of them`);
}

/** The contract's 400 when another live file of the owner has this name in this folder. */
async function assertNameFree(tx: Db, ownerId: number, parent: number, filename: string, exceptId?: number): Promise<void> {
  const clash = await liveFileNamed(tx, ownerId, parent, filename);
  if (clash && clash.id !== exceptId) throw invalid('filename', `Sorry, a file named '${filename}' already exists`);
}

/** A live (or trashed) file by owner name and number, any type, with the owner's canonical username. */
export async function getFile(db: Db, fid: Fid, state: 'live' | 'trashed' = 'live'): Promise<OwnedFile | undefined> {
  const [row] = await FILE_BY_FID[state](db, { owner: fid.owner, n: fid.n });
  return row ? { ...fileRowOf(row), owner: row.owner_name } : undefined;
}

const fileByFid = (state: SQL) =>
  compiledQuery<Record<string, unknown> & { owner_name: string }>(
    () => sql`SELECT f.*, u.username AS owner_name FROM users u
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
async function parentFromPath(tx: Db, ownerId: number, parentPath: string[] | undefined): Promise<number> {
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
async function lockFolder(tx: Db, ownerId: number, n: number): Promise<boolean> {
  const [row] = await queryRows<{ folder: boolean }>(
    tx,
    sql`SELECT filetype = 'fold' AND trashed_at IS NULL AS folder FROM files WHERE owner_id = ${ownerId}::int AND n = ${n}::int FOR SHARE`,
  );
  return row?.folder === true;
}

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
  // On a typed lookup a file of another type counts as none.
  return row && canRead(row, viewer) && (!opts.filetype || row.filetype === opts.filetype) ? { ...row, owner: owner.username } : null;
}

const API_KEYS: Record<Filetype, ApiCollection> = { plot: 'plots', grid: 'grids', fold: 'folders' };

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
    current_user_permission: viewer?.id === file.ownerId ? 'write' : 'read',
    // The owner learns the secret link's key (to share it); nobody else does.
    ...(viewer?.id === file.ownerId && file.shareKey ? { share_key: file.shareKey } : {}),
    api_urls: {
      files: `${origin}${apiFilePath('files', file.owner, file.n)}`,
      [kind]: `${origin}${apiFilePath(kind, file.owner, file.n)}`,
      parent: `${origin}${parentApiPath(file.owner, file.parent)}`,
    },
  };
}

/** A folder's live children the viewer may see (the folder detail). */
export async function listFolderChildren(db: Db, ownerId: number, parent: number, viewer: Viewer | null): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.ownerId, ownerId), eq(files.parent, parent), isNull(files.trashedAt), canReadSql(files, viewer?.id ?? null)))
    .orderBy(files.filename)
    .limit(1000);
}

// ---------------------------------------------------------------------------------------------
// The owner's own files (the web workspace): every file, private and secret included.

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

/** The viewer's newest live grids, in any folder (up to `size`): what a new chart can start from. */
export async function listOwnGrids(db: Db, viewer: Viewer, size: number): Promise<{ n: number; filename: string; modified: string }[]> {
  return queryRows(
    db,
    sql`SELECT f.n, f.filename, ${isoText(sql`f.updated_at`, 'micros')} AS modified
        FROM files f WHERE f.owner_id = ${viewer.id}::int AND f.filetype = 'grid' AND f.trashed_at IS NULL
        ORDER BY f.n DESC LIMIT ${size}`,
  );
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

// ---------------------------------------------------------------------------------------------
// Updates (PUT and PATCH on /v2/{files|plots|grids|folders}/{fid}): one partial update.

/**
 * The fields every file type takes on update (a type's schema extends these with its own). Unknown
 * keys are ignored, but kept, so that a field of another type can be refused (updateFile).
 */
export const fileFieldsSchema = z.looseObject({
  filename: filenameSchema.optional().meta({ description: 'rename (unique among the live files of its folder)' }),
  world_readable: z
    .boolean()
    .optional()
    .meta({ description: "true: anyone may read it. This file alone: a plot's grids keep their own sharing (the web's sharing forms take them along)" }),
  share_key_enabled: z.boolean().optional().meta({ description: 'true keeps the secret-link key or makes one; false drops it' }),
  parent: z
    .number()
    .int()
    .min(-1)
    .max(2147483647)
    .optional()
    .meta({ description: "move into the owner's folder with this number (-1: the top level); not with parent_path" }),
  parent_path: pathSchema.optional().meta({ description: 'move into the folder at this path ("a/b", which must exist); not with parent' }),
});
export type FileFields = z.output<typeof fileFieldsSchema>;

/** Each type's own update fields (the keys its schema adds to fileFieldsSchema): elsewhere they are 400. */
export const TYPE_FIELDS = { plot: ['figure', 'title', 'caption', 'source_fid'], grid: ['metadata'], fold: [] } as const satisfies Record<
  Filetype,
  readonly string[]
>;
const TYPE_NAMES: Record<Filetype, string> = { plot: 'plot', grid: 'grid', fold: 'folder' };

/** A type's own part of an update, checked before the transaction (it may read): the write to do in it, if any. */
export type TypeUpdate<I> = (db: Db, owner: Viewer, input: I) => Promise<((tx: Db, file: FileRow) => Promise<unknown>) | null>;

/**
 * PUT/PATCH: the owner's live file (of `filetype` when given) takes the fields given; absent ones keep
 * their values, `{}` changes nothing. `types` carries what plots and grids add. The row is locked,
 * so concurrent updates apply one after the other. Answers the file as it now is.
 */
export async function updateFile<I extends FileFields>(
  db: Db,
  viewer: Viewer | null,
  fid: Fid,
  input: I,
  opts: { filetype?: Filetype; types?: Partial<Record<Filetype, TypeUpdate<I>>> } = {},
): Promise<OwnedFile> {
  const file = await ownedFile(db, viewer, fid, 'live', opts.filetype);
  const given = input as Record<string, unknown>;
  for (const [type, names] of Object.entries(TYPE_FIELDS)) {
    const foreign = type !== file.filetype && names.find((name) => given[name] !== undefined);
    if (foreign) throw invalid(foreign, `not a field of a ${TYPE_NAMES[file.filetype]} (it is a ${TYPE_NAMES[type as Filetype]}'s)`);
  }
  if (input.parent !== undefined && input.parent_path !== undefined) throw invalid('parent_path', 'give parent or parent_path, not both');
  const typeWrite = await opts.types?.[file.filetype]?.(db, viewer!, input);
  const common = Object.keys(fileFieldsSchema.shape).some((name) => given[name] !== undefined);
  if (!common && !typeWrite) return file;
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(files)
      .where(and(eq(files.id, file.id), isNull(files.trashedAt)))
      .for('update');
    if (!locked) throw notFound();
    const parent = await targetFolder(tx, locked, input);
    const filename = input.filename ?? locked.filename;
    if (filename !== locked.filename || parent !== locked.parent) await assertNameFree(tx, locked.ownerId, parent, filename, locked.id);
    const shareKey = input.share_key_enabled === undefined ? locked.shareKey : input.share_key_enabled ? (locked.shareKey ?? newShareKey()) : null;
    const [row] = await tx
      .update(files)
      .set({ filename, parent, shareKey, worldReadable: input.world_readable ?? locked.worldReadable, updatedAt: sql`now()` })
      .where(eq(files.id, locked.id))
      .returning();
    await typeWrite?.(tx, row);
    // Other people's plots drew this grid's data while it was public (their images hold it): drawn again without it.
    if (row.filetype === 'grid' && locked.worldReadable && !row.worldReadable) await refreshPlotsOfGrids(tx, [{ owner: file.owner, n: row.n }]);
    return { ...row, owner: file.owner };
  });
}

/** Where an update puts the file: `parent` or `parent_path` (a live folder of the owner), else where it is. */
async function targetFolder(tx: Db, file: FileRow, input: FileFields): Promise<number> {
  let field: 'parent' | 'parent_path';
  let parent: number;
  if (input.parent !== undefined) {
    field = 'parent';
    parent = input.parent;
    if (parent !== -1 && !(await lockFolder(tx, file.ownerId, parent))) throw invalid('parent', `you have no folder ${parent}`);
  } else if (input.parent_path !== undefined) {
    field = 'parent_path';
    parent = await parentFromPath(tx, file.ownerId, input.parent_path);
  } else {
    return file.parent;
  }
  if (file.filetype === 'fold' && parent !== -1 && parent !== file.parent) {
    // The target's chain of folders up to the top: the folder itself in it would make a cycle.
    const [inside] = await queryRows<{ n: number }>(
      tx,
      sql`WITH RECURSIVE up(n) AS (
            SELECT ${parent}::int
            UNION
            SELECT f.parent FROM files f JOIN up ON f.owner_id = ${file.ownerId} AND f.n = up.n AND f.parent <> -1
          ) SELECT n FROM up WHERE n = ${file.n} LIMIT 1`,
    );
    if (inside) throw invalid(field, 'a folder cannot move into itself or into a folder inside it');
  }
  return parent;
}

// ---------------------------------------------------------------------------------------------
// Trash, restore, permanent delete (under /v2/files/{fid}/... for any type, and under each type's path).

/**
 * The owner's live or trashed file, optionally of one type. Others get the 404 of a missing file
 * for a trashed one (public or not: its existence must not leak) and the usual 404/403 for a live one.
 */
async function ownedFile(db: Db, viewer: Viewer | null, fid: Fid, state: 'live' | 'trashed' | 'any', filetype?: Filetype) {
  const live = state === 'trashed' ? undefined : await getFile(db, fid);
  const trashed = live || state === 'live' ? undefined : await getFile(db, fid, 'trashed');
  const file = live ?? (trashed && trashed.ownerId === viewer?.id ? trashed : undefined);
  return assertOwner(file && (!filetype || file.filetype === filetype) ? file : undefined, viewer);
}

/**
 * The file's subtree (itself, and for a folder every file below it) as a recursive CTE `sub(id, n)`
 * over the owner's rows that `step` admits (a condition on `f`). UNION stops on any cycle.
 */
const subtree = (file: FileRow, step: SQL) => sql`WITH RECURSIVE sub(id, n) AS (
    SELECT id, n FROM files WHERE id = ${file.id}
    UNION
    SELECT f.id, f.n FROM files f JOIN sub ON f.owner_id = ${file.ownerId} AND f.parent = sub.n WHERE ${step}
  )`;

/**
 * Trashed files leave every list, lookup, feed and page; their numbers stay taken. A folder takes its
 * live contents with it, marked as trashed with it (files trashed before stay as they were).
 */
export async function trashFile(db: Db, viewer: Viewer | null, fid: Fid, filetype?: Filetype): Promise<void> {
  const file = await ownedFile(db, viewer, fid, 'live', filetype);
  await db.transaction(async (tx) => {
    // Lock the subtree first: the update's fresh snapshot then sees every file put into it meanwhile
    // (creates and moves share-lock their folder: parentFromPath).
    await tx.execute(sql`${subtree(file, sql`f.trashed_at IS NULL`)} SELECT id FROM files WHERE id IN (SELECT id FROM sub) FOR UPDATE`);
    const gone = await queryRows<Changed>(
      tx,
      sql`${subtree(file, sql`f.trashed_at IS NULL`)}
      UPDATE files SET trashed_at = now(), updated_at = now(), trashed_with = CASE WHEN id = ${file.id} THEN NULL ELSE ${file.id}::bigint END
      WHERE id IN (SELECT id FROM sub) AND trashed_at IS NULL RETURNING n, filetype`,
    );
    await refreshPlotsOn(tx, file.owner, gone);
  });
}

type Changed = { n: number; filetype: Filetype };

/** Plots on grids that went, or came back, draw other data now (their srcs stay, inlined or not). */
const refreshPlotsOn = (tx: Db, owner: string, changed: Changed[]) =>
  refreshPlotsOfGrids(
    tx,
    changed.filter((f) => f.filetype === 'grid').map((f) => ({ owner, n: f.n })),
  );

/**
 * Restores a trashed file and, for a folder, exactly the files trashed with it (the same trash
 * action). A file whose folder is no longer live comes back at the top level. A live file that took
 * its name is the contract's 400 "already exists".
 */
export async function restoreFile(db: Db, viewer: Viewer | null, fid: Fid, filetype?: Filetype): Promise<void> {
  const file = await ownedFile(db, viewer, fid, 'trashed', filetype);
  await db.transaction(async (tx) => {
    const folderLive = file.parent === -1 || (await lockFolder(tx, file.ownerId, file.parent));
    const parent = folderLive ? file.parent : -1;
    await assertNameFree(tx, file.ownerId, parent, file.filename);
    const action = file.trashedWith ?? file.id;
    const back = await queryRows<Changed>(
      tx,
      sql`${subtree(file, sql`f.trashed_with = ${action}::bigint AND f.trashed_at IS NOT NULL`)}
      UPDATE files SET trashed_at = NULL, trashed_with = NULL, updated_at = now(),
        parent = CASE WHEN id = ${file.id} THEN ${parent}::int ELSE parent END
      WHERE id IN (SELECT id FROM sub) AND trashed_at IS NOT NULL RETURNING n, filetype`,
    );
    await refreshPlotsOn(tx, file.owner, back);
  });
}

/** Deletes a file for good, trashed or not, a folder with everything below it; numbers are never reused. */
export async function deleteFile(db: Db, viewer: Viewer | null, fid: Fid, filetype?: Filetype): Promise<void> {
  const file = await ownedFile(db, viewer, fid, 'any', filetype);
  await db.transaction(async (tx) => {
    const deleted = await queryRows<Changed>(tx, sql`${subtree(file, sql`true`)} DELETE FROM files WHERE id IN (SELECT id FROM sub) RETURNING n, filetype`);
    await refreshPlotsOn(tx, file.owner, deleted);
  });
}
