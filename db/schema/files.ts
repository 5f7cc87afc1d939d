// Files of every kind (plots, grids, folders, dashboards, presentations: fids are owner:n) and the
// people each is shared with.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './column-types';
import { users } from './accounts';

export const files = pgTable(
  'files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    filetype: text('filetype', { enum: ['plot', 'grid', 'fold', 'dashboard', 'spectacle_presentation'] }).notNull(),
    filename: text('filename').notNull(),
    // The containing folder's n, -1 at top level.
    parent: integer('parent').notNull().default(-1),
    worldReadable: boolean('world_readable').notNull().default(true),
    shareKey: text('share_key'),
    // A grid's metadata (any JSON value, null when none); other types have none.
    metadata: jsonb('metadata'),
    // What the live file holds, kept by triggers: its grid columns' values (as served), a plot's
    // figure, a dashboard's or presentation's content, a grid's metadata. Its owner's storage sums these.
    storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull().default(0),
    trashedAt: ts('trashed_at'),
    // The folder whose trashing trashed this file too: restoring that folder restores it.
    trashedWith: bigint('trashed_with', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('files_owner_n_key').on(t.ownerId, t.n),
    uniqueIndex('files_live_filename_key').on(t.ownerId, t.parent, t.filename).where(sql`${t.trashedAt} IS NULL`),
    // A profile's plots, newest first (keyset), without scanning the owner's other files.
    index('files_owner_plots_newest_idx')
      .on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.filetype} = 'plot' AND ${t.trashedAt} IS NULL`),
    // The workspace: a folder's live files, its folders first, latest modified first or by name; and the
    // trash latest first (listOwnFiles, whose ORDER BY writes the folder flag the same way).
    index('files_owner_folder_modified_idx')
      .on(t.ownerId, t.parent, sql`(${t.filetype} = 'fold') DESC NULLS LAST`, t.updatedAt.desc(), t.n.desc())
      .where(sql`${t.trashedAt} IS NULL`),
    index('files_owner_folder_name_idx').on(t.ownerId, t.parent, sql`(${t.filetype} <> 'fold')`, t.filename, t.n).where(sql`${t.trashedAt} IS NULL`),
    index('files_owner_trash_idx').on(t.ownerId, t.trashedAt.desc(), t.n.desc()).where(sql`${t.trashedAt} IS NOT NULL AND ${t.trashedWith} IS NULL`),
    // An owner's dashboards (or presentations), newest first (keyset): GET /v2/dashboards.
    index('files_owner_documents_newest_idx')
      .on(t.ownerId, t.filetype, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.filetype} IN ('dashboard', 'spectacle_presentation') AND ${t.trashedAt} IS NULL`),
    // Dashboards and presentations found by their filename's words: files_documents_search_idx, a GIN
    // index on the SQL function document_search_doc(filename), defined with it.
    check('files_filetype_check', sql`${t.filetype} IN ('plot', 'grid', 'fold', 'dashboard', 'spectacle_presentation')`),
  ],
);

/**
 * People a file is shared with by name (lib/core/files/collaborators.ts): `read` or `write`. A folder's
 * collaborators reach everything below it (the SQL function file_collaboration).
 */
export const collaborators = pgTable(
  'collaborators',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permission: text('permission', { enum: ['read', 'write'] }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.userId] }),
    // "Shared with me": a person's shares, newest first.
    index('collaborators_user_idx').on(t.userId, t.createdAt.desc(), t.fileId.desc()),
    check('collaborators_permission_check', sql`${t.permission} IN ('read', 'write')`),
  ],
);
