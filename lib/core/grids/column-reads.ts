// Reading many grid columns' stored text: in batches, one statement per batch, each batch bounded in
// columns and in stored bytes. A grid of 10,000 columns read one statement a column cost seconds of
// round trips per anonymous read; all at once, its whole data in one reply. Batches keep both bounded.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { MiB } from '../json-text';

/** One statement reads at most this many columns, and at most this many stored bytes (a larger column goes alone). */
export const COLUMN_BATCH = { columns: 500, bytes: 8 * MiB } as const;

/** `items` in order, cut into runs of at most COLUMN_BATCH.columns items and COLUMN_BATCH.bytes bytes (an item over it alone). */
export function columnBatches<T extends { bytes: number }>(items: T[]): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Math.max(0, Number(item.bytes) || 0);
    if (batch.length && (batch.length >= COLUMN_BATCH.columns || bytes + size > COLUMN_BATCH.bytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/**
 * Each stored text of `items` in their order, read batch by batch (`read` answers one batch: key ->
 * text); a key it does not answer yields `missing`. Only one batch's texts are held at a time.
 */
export async function* batchedTexts<T extends { bytes: number }>(
  items: T[],
  keyOf: (item: T) => string,
  read: (batch: T[]) => Promise<Map<string, string>>,
  missing: string,
): AsyncGenerator<string> {
  for (const batch of columnBatches(items)) {
    const texts = await read(batch);
    for (const item of batch) yield texts.get(keyOf(item)) ?? missing;
  }
}

const idArray = (ids: number[]) => `{${ids.map((id) => Math.trunc(Number(id))).join(',')}}`;

/**
 * The stored texts (json) of the live grid columns `ids`, in the order given ('null' for one gone
 * since), in batches: one statement for the sizes, then one per batch. For every reader of many
 * columns (grid content, columns, CSV, a plot's content).
 */
export async function* columnTexts(db: Db, ids: number[]): AsyncGenerator<string> {
  if (!ids.length) return;
  const sizes = await queryRows<{ id: string | number; bytes: string | number }>(
    db,
    sql`SELECT id, bytes FROM grid_columns WHERE id = ANY(${idArray(ids)}::bigint[])`,
  );
  const bytesOf = new Map(sizes.map((r) => [String(r.id), Number(r.bytes)]));
  const items = ids.map((id) => ({ key: String(id), bytes: bytesOf.get(String(id)) ?? 0 }));
  yield* batchedTexts(
    items,
    (c) => c.key,
    async (batch) => {
      const rows = await queryRows<{ id: string | number; data: string }>(
        db,
        sql`SELECT c.id, v.data::text AS data FROM grid_columns c JOIN column_values v ON v.id = c.values_id
            WHERE c.id = ANY(${idArray(batch.map((c) => Number(c.key)))}::bigint[])`,
      );
      return new Map(rows.map((r) => [String(r.id), r.data]));
    },
    'null',
  );
}

/** All the stored texts of `ids` at once, by id (for a reader that needs every column together, as CSV's rows). */
export async function columnTextList(db: Db, ids: number[]): Promise<string[]> {
  const out: string[] = [];
  for await (const text of columnTexts(db, ids)) out.push(text);
  return out;
}

/**
 * `parts` joined into pieces of at least `min` characters (the last may be shorter): an answer of
 * 10,000 small columns streams as a few dozen writes, not tens of thousands (each a trip through the
 * response stream).
 */
export async function* coalesced(parts: AsyncIterable<string>, min = 64 * 1024): AsyncGenerator<string> {
  let pending = '';
  for await (const part of parts) {
    pending += part;
    if (pending.length >= min) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}
