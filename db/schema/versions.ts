// Histories: the current state's place in a file's history, and the earlier states kept.
import { sql } from 'drizzle-orm';
import { bigint, boolean, foreignKey, index, integer, json, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './column-types';
import { users } from './accounts';
import { files } from './files';

/**
 * The current state's place in the history of a plot (figure and title) or a grid (columns): its
 * version number, who saved it, with what client, when (lib/core/files/versions.ts). The state itself is
 * the live row; earlier ones are in plot_versions and grid_versions. A file without a row has had
 * no save since it was made before histories were kept: its current state is version 1, its owner's.
 */
export const fileSaves = pgTable(
  'file_saves',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client'),
    savedAt: ts('saved_at').notNull().defaultNow(),
    // The stored bytes of the file's kept earlier versions (the sum of their `bytes`): a person's
    // history is bounded by the sum over their files (lib/core/files/versions.ts).
    keptBytes: bigint('kept_bytes', { mode: 'number' }).notNull().default(0),
  },
  // Deleting a user sets its authorship to null: found by index, not by a scan of every save.
  (t) => [index('file_saves_author_idx').on(t.authorId).where(sql`${t.authorId} IS NOT NULL`)],
);

/** A plot's earlier figures and titles, each as it was current (bounded: lib/core/files/versions.ts). */
export const plotVersions = pgTable(
  'plot_versions',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    // Null when it is the figure of the next version (or of the live plot, for the newest kept one):
    // a change of the title alone keeps no copy of the figure (lib/core/files/versions.ts).
    figure: jsonb('figure'),
    title: text('title').notNull(),
    titleGiven: boolean('title_given').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client'),
    savedAt: ts('saved_at').notNull(),
    // Its stored figure's and title's text: what the history's byte bounds count.
    bytes: integer('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.version] }), index('plot_versions_author_idx').on(t.authorId).where(sql`${t.authorId} IS NOT NULL`)],
);

/** A grid's earlier states (their columns: grid_version_columns), bounded like plot_versions. */
export const gridVersions = pgTable(
  'grid_versions',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client'),
    savedAt: ts('saved_at').notNull(),
    // The stored bytes of the column values it is the newest state to hold (values the live grid or
    // a later version holds count there): what dropping it and every older version frees.
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.version] }), index('grid_versions_author_idx').on(t.authorId).where(sql`${t.authorId} IS NOT NULL`)],
);

/** The columns of a grid's earlier state, as grid_columns held them: their values shared (column_values). */
export const gridVersionColumns = pgTable(
  'grid_version_columns',
  {
    fileId: bigint('file_id', { mode: 'number' }).notNull(),
    version: integer('version').notNull(),
    uid: text('uid').notNull(),
    name: text('name').notNull(),
    ord: integer('ord').notNull(),
    valuesId: bigint('values_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.version, t.uid] }),
    foreignKey({ columns: [t.fileId, t.version], foreignColumns: [gridVersions.fileId, gridVersions.version] }).onDelete('cascade'),
  ],
);

/**
 * The grid columns a plot's kept versions draw from, its owner's grids' only (recorded as each
 * version is kept: lib/core/files/kept-columns.ts): while the column's values exist they are read
 * through `values_id`; when they go (the grid deleted, the column deleted and out of the grid's own
 * history) a trigger copies them into `data`, counted in the plot's kept bytes. A row goes when no
 * kept version at or before `version`, the newest that draws it, is left.
 */
export const keptColumns = pgTable(
  'kept_columns',
  {
    plotId: bigint('plot_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    // The src's grid as its text names it: lower(owner):n (it may be gone).
    gridKey: text('grid_key').notNull(),
    uid: text('uid').notNull(),
    name: text('name').notNull(),
    valuesId: bigint('values_id', { mode: 'number' }).notNull(),
    version: integer('version').notNull(),
    data: json('data'),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.plotId, t.gridKey, t.uid] }), index('kept_columns_values_idx').on(t.valuesId)],
);
