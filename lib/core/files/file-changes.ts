// Changes to a file of any type: one partial update (PUT and PATCH) with each type's own part, the
// trash, restore and permanent delete.
import 'server-only';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { files } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { invalid, notFound, permissionDenied } from '../errors';
import { filenameSchema, pathSchema } from '@/lib/shared/names';
import { assertNameFree, getFile, lockFolder, newShareKey, parentFromPath, type FileRow, type Filetype, type OwnedFile } from './files';
import { refreshPlotsOfGrids } from '../images/images';
import { assertEditor, assertOwner, isOwner } from '../permissions';
import type { Fid } from '../records';
import type { Client, Save } from './versions';

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
export const TYPE_FIELDS = {
  plot: ['figure', 'title', 'caption', 'source_fid', 'comments_enabled'],
  grid: ['metadata'],
  fold: [],
  dashboard: ['content'],
  spectacle_presentation: ['content'],
} as const satisfies Record<Filetype, readonly string[]>;

/** The common update fields: where a file is, its name and who sees it. Every one is its owner's. */
const COMMON_FIELDS = Object.keys(fileFieldsSchema.shape) as (keyof typeof fileFieldsSchema.shape)[];

/**
 * The update fields only a file's owner changes, by type: the common ones and the type's own settings
 * that are not its content (a plot's comments switch). A `write` collaborator changes the rest of
 * TYPE_FIELDS (the content); giving any of these answers them 403, one sentence for every field.
 */
export const OWNER_FIELDS = {
  plot: [...COMMON_FIELDS, 'comments_enabled'],
  grid: COMMON_FIELDS,
  fold: COMMON_FIELDS,
  dashboard: COMMON_FIELDS,
  spectacle_presentation: COMMON_FIELDS,
} as const satisfies Record<Filetype, readonly string[]>;

/** The 403 a writer gets for an owner's field. */
export const ownerFieldSentence = (field: string) => `Only the owner changes a file's ${field}.`;

const TYPE_NAMES: Record<Filetype, string> = { plot: 'plot', grid: 'grid', fold: 'folder', dashboard: 'dashboard', spectacle_presentation: 'presentation' };

/** A type's own part of an update by `editor` (the owner or a writer) of `file`, checked before the transaction (it may read):
 * the write to do in it, if any (`save` says who saves with what, for the file's history: lib/core/files/versions.ts). */
export type TypeUpdate<I> = (db: Db, editor: Viewer, input: I, file: OwnedFile) => Promise<((tx: Db, file: FileRow, save: Save) => Promise<unknown>) | null>;

/**
 * PUT/PATCH: the owner's (or, for its content, a writer's) live file (of `filetype` when given) takes the fields given; absent ones keep
 * their values, `{}` changes nothing. `types` carries what plots and grids add; `client` is what the
 * change came from (the API's when not given). The row is locked, so concurrent updates apply one
 * after the other. Answers the file as it now is.
 */
export async function updateFile<I extends FileFields>(
  db: Db,
  viewer: Viewer | null,
  fid: Fid,
  input: I,
  opts: { filetype?: Filetype; types?: Partial<Record<Filetype, TypeUpdate<I>>>; client?: Client } = {},
): Promise<OwnedFile> {
  const found = await getFile(db, fid, viewer);
  const file = assertEditor(found && (!opts.filetype || found.filetype === opts.filetype) ? found : undefined, viewer);
  const given = input as Record<string, unknown>;
  // Writers change what a file holds; where it is, its name, who sees it and its settings stay the owner's.
  const ownerFields: readonly string[] = OWNER_FIELDS[file.filetype];
  const ownerField = !isOwner(viewer, file) && ownerFields.find((name) => given[name] !== undefined);
  if (ownerField) throw permissionDenied(ownerFieldSentence(ownerField));
  const own: readonly string[] = TYPE_FIELDS[file.filetype];
  for (const [type, names] of Object.entries(TYPE_FIELDS)) {
    const foreign = type !== file.filetype && names.find((name) => given[name] !== undefined && !own.includes(name));
    if (foreign) throw invalid(foreign, `not a field of a ${TYPE_NAMES[file.filetype]} (it is a ${TYPE_NAMES[type as Filetype]}'s)`);
  }
  if (input.parent !== undefined && input.parent_path !== undefined) throw invalid('parent_path', 'give parent or parent_path, not both');
  const typeWrite = await opts.types?.[file.filetype]?.(db, viewer!, input, file);
  const common = COMMON_FIELDS.some((name) => given[name] !== undefined);
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
    await typeWrite?.(tx, row, { authorId: viewer!.id, client: opts.client ?? 'api' });
    // Other people's plots drew this grid's data while it was public (their images hold it): drawn again without it.
    if (row.filetype === 'grid' && locked.worldReadable && !row.worldReadable) await refreshPlotsOfGrids(tx, [{ owner: file.owner, n: row.n }]);
    return { ...row, owner: file.owner, collaboration: file.collaboration, collaborators: file.collaborators };
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
  const live = state === 'trashed' ? undefined : await getFile(db, fid, viewer);
  const trashed = live || state === 'live' ? undefined : await getFile(db, fid, viewer, 'trashed');
  const file = live ?? (trashed && isOwner(viewer, trashed) ? trashed : undefined);
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
