// Grids: their columns, and the stored values those columns (live or kept in a version) point to.
import { bigint, bigserial, index, integer, json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { files } from './files';

/**
 * Column values as stored (lib/core/grids/column-store.ts): a grid's live columns and its kept versions'
 * columns point here, so a change that leaves a column's values as they were (a rename, a reorder,
 * another column's change) shares them instead of copying them. A row is never changed once
 * written: a write of values makes a new row, and a row no live or kept column points to goes in
 * the transaction that let it go. Rows belong to one grid (gone with it).
 */
export const columnValues = pgTable(
  'column_values',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gridId: bigint('grid_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    // json (not jsonb) keeps the values' text exactly as written, so reads splice it into answers as is.
    data: json('data').notNull(),
    length: integer('length').notNull(),
    // The stored json text's size in bytes: what serving the column costs, without reading it.
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    // The first 20 values (json array), for the grid record's `preview` without reading `data`.
    preview: json('preview'),
  },
  (t) => [index('column_values_grid_idx').on(t.gridId)],
);

export const gridColumns = pgTable(
  'grid_columns',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gridId: bigint('grid_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    name: text('name').notNull(),
    ord: integer('ord').notNull(),
    // Its values (column_values); length, bytes and preview are theirs, copied here for the reads
    // that list columns without their values.
    valuesId: bigint('values_id', { mode: 'number' }).notNull(),
    length: integer('length').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    preview: json('preview'),
  },
  (t) => [uniqueIndex('grid_columns_grid_uid_key').on(t.gridId, t.uid), index('grid_columns_grid_ord_idx').on(t.gridId, t.ord)],
);
