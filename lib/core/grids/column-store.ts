// Column values as stored (column_values): each row is written once and never changed, and a grid's
// live columns and its kept versions' columns point to it, so a save that leaves a column's values as
// they were (a rename, a reorder, a change of another column) shares them instead of copying them.
// A write of values makes new rows; rows nothing points to any more go when the change settles
// (versions.ts settleGridHistory).
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { ColumnValues } from '@/lib/shared/column-values';
import { MiB } from '../json-text';

/**
 * Column writes in groups, one statement each: at most 100 columns (each message to Postgres stays
 * well under its limits) and about 8 MiB of values, as postgres.js copies a statement's parameters
 * several times in one go on the event loop.
 */
export function statements<T>(cols: T[], textOf: (col: T) => string): T[][] {
  const out: T[][] = [];
  let group: T[] = [];
  let size = 0;
  for (const col of cols) {
    const length = textOf(col).length;
    if (group.length && (group.length === 100 || size + length > 8 * MiB)) {
      out.push(group);
      group = [];
      size = 0;
    }
    group.push(col);
    size += length;
  }
  if (group.length) out.push(group);
  return out;
}

/** Ids for `count` new column_values rows, so that columns can point to them before they are written. */
export async function newValuesIds(tx: Db, count: number): Promise<number[]> {
  if (!count) return [];
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT nextval('column_values_id_seq') AS id FROM generate_series(1, ${count}::int)`);
  return rows.map((r) => Number(r.id));
}

/** Writes grid `gridId`'s new values (each at its id from newValuesIds), a few to a statement. */
export async function writeValues(tx: Db, gridId: number, values: (ColumnValues & { valuesId: number })[]): Promise<void> {
  for (const group of statements(values, (v) => v.text)) {
    const rows = group.map((v) => sql`(${v.valuesId}::bigint, ${v.text}::text, ${v.length}::int, ${v.bytes}::bigint, ${JSON.stringify(v.head)}::text)`);
    await tx.execute(sql`INSERT INTO column_values (id, grid_id, data, length, bytes, preview)
      SELECT v.id, ${gridId}::bigint, v.data::json, v.length, v.bytes, v.preview::json
      FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, data, length, bytes, preview)`);
  }
}

/** The stored text of one live column's values. */
export async function columnText(db: Db, columnId: number): Promise<string> {
  const [row] = await queryRows<{ data: string }>(
    db,
    sql`SELECT v.data::text AS data FROM grid_columns c JOIN column_values v ON v.id = c.values_id WHERE c.id = ${columnId}`,
  );
  return row?.data ?? 'null';
}
