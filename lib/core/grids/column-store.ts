// Column values as stored (column_values): each row is written once and never changed, and a grid's
// live columns and its kept versions' columns point to it, so a save that leaves a column's values as
// they were (a rename, a reorder, a change of another column) shares them instead of copying them.
// A write of values makes new rows; rows nothing points to any more go when the change settles
// (versions.ts settleGridHistory). Here too: the columns written to point at new rows.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { gridColumns } from '@/db/schema';
import type { ColumnValues } from '@/lib/shared/column-values';
import { MiB } from '../json-text';
import { writeBlocks } from './column-blocks';

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

/** Writes grid `gridId`'s new values (each at its id from newValuesIds), a few to a statement, and their blocks (long numeric ones). */
export async function writeValues(tx: Db, gridId: number, values: (ColumnValues & { valuesId: number })[]): Promise<void> {
  for (const group of statements(values, (v) => v.text)) {
    const rows = group.map(
      (v) =>
        sql`(${v.valuesId}::bigint, ${v.text}::text, ${v.length}::int, ${v.bytes}::bigint, ${JSON.stringify(v.head)}::text, ${v.blocks?.kind ?? null}::text, ${v.blocks?.sorted ?? null}::boolean)`,
    );
    await tx.execute(sql`INSERT INTO column_values (id, grid_id, data, length, bytes, preview, kind, sorted)
      SELECT v.id, ${gridId}::bigint, v.data::json, v.length, v.bytes, v.preview::json, v.kind, v.sorted
      FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, data, length, bytes, preview, kind, sorted)`);
    for (const v of group) if (v.blocks) await writeBlocks(tx, v.valuesId, v.blocks);
  }
}

export interface NewColumn extends ColumnValues {
  name: string;
  uid: string;
  ord: number;
}

/** A uid (6 lowercase hex characters) not in `taken`, which it joins. */
export function newUid(taken: Set<string>): string {
  let uid: string;
  do uid = randomBytes(3).toString('hex');
  while (taken.has(uid));
  taken.add(uid);
  return uid;
}

/** Writes new columns: their values, then the columns pointing to them. */
export async function insertColumns(tx: Db, gridId: number, cols: NewColumn[]): Promise<void> {
  const ids = await newValuesIds(tx, cols.length);
  await writeValues(
    tx,
    gridId,
    cols.map((c, i) => ({ ...c, valuesId: ids[i] })),
  );
  for (let i = 0; i < cols.length; i += 1000) {
    await tx.insert(gridColumns).values(
      cols.slice(i, i + 1000).map((c, k) => ({
        gridId,
        uid: c.uid,
        name: c.name,
        ord: c.ord,
        valuesId: ids[i + k],
        bytes: c.bytes,
        length: c.length,
        preview: sql`${JSON.stringify(c.head)}::json`,
      })),
    );
  }
}

/** Columns' names and data replaced (new values, which the columns then point to); the caller holds the grid's lock. */
export async function replaceColumnData(tx: Db, gridId: number, cols: (ColumnValues & { id: number; name: string })[]): Promise<void> {
  const ids = await newValuesIds(tx, cols.length);
  await writeValues(
    tx,
    gridId,
    cols.map((c, i) => ({ ...c, valuesId: ids[i] })),
  );
  await pointColumns(
    tx,
    cols.map((c, i) => ({ id: c.id, name: c.name, valuesId: ids[i] })),
  );
}

/** Columns (by id) point to new values (written), taking their length, bytes and preview, and their new name when given. */
export async function pointColumns(tx: Db, cols: { id: number; name?: string; valuesId: number }[]): Promise<void> {
  for (let i = 0; i < cols.length; i += 1000) {
    const rows = cols.slice(i, i + 1000).map((c) => sql`(${c.id}::bigint, ${c.name ?? null}::text, ${c.valuesId}::bigint)`);
    await tx.execute(sql`
      UPDATE grid_columns c SET name = coalesce(v.name, c.name), values_id = v.values_id, bytes = cv.bytes, length = cv.length, preview = cv.preview
      FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, name, values_id) JOIN column_values cv ON cv.id = v.values_id
      WHERE c.id = v.id`);
  }
}
