// Grids: their columns, and the stored values those columns (live or kept in a version) point to.
import { bigint, bigserial, boolean, doublePrecision, index, integer, json, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from './column-types';
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
    // Set when the values are stored in blocks too (column_blocks): what they hold ('number' or
    // 'date', by lib/shared/figures/column-facts.ts valueKind over all of them) and whether they never decrease.
    kind: text('kind'),
    sorted: boolean('sorted'),
  },
  (t) => [index('column_values_grid_idx').on(t.gridId)],
);

/**
 * A long numeric or date column's values in blocks of 4,096 rows (lib/shared/series-blocks.ts), beside
 * their json text, so that a view reads a row range or a summary without parsing the whole column
 * (lib/core/grids/column-blocks.ts). Derived from column_values.data, written once with it.
 */
export const columnBlocks = pgTable(
  'column_blocks',
  {
    valuesId: bigint('values_id', { mode: 'number' })
      .notNull()
      .references(() => columnValues.id, { onDelete: 'cascade' }),
    block: integer('block').notNull(),
    // The block's lowest and highest value and their (first) rows in the column; null when all blank.
    min: doublePrecision('min'),
    minRow: integer('min_row'),
    max: doublePrecision('max'),
    maxRow: integer('max_row'),
    // Per stretch of 64 rows: min row, min, max row, max (float64 little-endian; NaN when all blank).
    stretches: bytea('stretches').notNull(),
    // The rows' values, float64 little-endian (dates as epoch ms UTC, blanks and text NaN).
    raw: bytea('raw').notNull(),
  },
  (t) => [primaryKey({ columns: [t.valuesId, t.block] })],
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
