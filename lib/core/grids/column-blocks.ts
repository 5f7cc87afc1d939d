// Long numeric and date columns in blocks (column_blocks, lib/shared/series-blocks.ts): written once
// beside their json text, and read as a SeriesSource, so that a view of a 10,000,000-row column reads
// a row range or a summary of it (per block, per stretch of 64 rows, or raw rows, whichever is the
// finest that stays under MAX_ENTRIES entries), never the whole column.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { valueKind } from '@/lib/shared/figures/column-facts';
import {
  BLOCK_ROWS,
  BLOCKS_FROM_ROWS,
  blocksOf,
  type ColumnBlocks,
  EXTREME_FIELDS,
  isSorted,
  numbersOf,
  type Series,
  seriesOf,
  STRETCH_ROWS,
} from '@/lib/shared/series-blocks';
import { MiB } from '../json-text';
import type { SeriesExtremes, SeriesSource } from './series-source';

const BLOCK_BYTES = BLOCK_ROWS * 8;
const STRETCHES_BYTES = (BLOCK_ROWS / STRETCH_ROWS) * EXTREME_FIELDS * 8;
/** Blocks a statement writes: about 8 MiB of parameters, as column-store.ts statements keeps to. */
const BLOCKS_A_STATEMENT = Math.floor((8 * MiB) / (BLOCK_BYTES + STRETCHES_BYTES));
/** Most stored entries (raw rows, stretches or blocks) one `extremes` reads and merges. */
export const MAX_ENTRIES = 65_536;

/** Writes column values `valuesId`'s blocks (its row in column_values written, with their kind and sorted), the first as block `firstBlock`. */
export async function writeBlocks(tx: Db, valuesId: number, blocks: ColumnBlocks, firstBlock = 0): Promise<void> {
  const count = blocks.blocks.length / EXTREME_FIELDS;
  const stretches = new Uint8Array(blocks.stretches.buffer, blocks.stretches.byteOffset, blocks.stretches.byteLength);
  for (let first = 0; first < count; first += BLOCKS_A_STATEMENT) {
    const last = Math.min(count, first + BLOCKS_A_STATEMENT);
    // Field k of blocks [first, last) as a float8[] literal (NaN is one).
    const field = (k: number) => `{${Array.from({ length: last - first }, (_, b) => blocks.blocks[(first + b) * EXTREME_FIELDS + k]).join(',')}}`;
    await tx.execute(sql`INSERT INTO column_blocks (values_id, block, min_row, min, max_row, max, stretches, raw)
      SELECT ${valuesId}::bigint, ${firstBlock + first}::int + s.i::int - 1, nullif(s.min_row, 'NaN')::int, nullif(s.min, 'NaN'), nullif(s.max_row, 'NaN')::int, nullif(s.max, 'NaN'),
             substring(${Buffer.from(stretches.subarray(first * STRETCHES_BYTES, last * STRETCHES_BYTES))}::bytea FROM (s.i::int - 1) * ${STRETCHES_BYTES}::int + 1 FOR ${STRETCHES_BYTES}::int),
             substring(${Buffer.from(blocks.raw.subarray(first * BLOCK_BYTES, last * BLOCK_BYTES))}::bytea FROM (s.i::int - 1) * ${BLOCK_BYTES}::int + 1 FOR ${BLOCK_BYTES}::int)
      FROM unnest(${field(0)}::float8[], ${field(1)}::float8[], ${field(2)}::float8[], ${field(3)}::float8[]) WITH ORDINALITY AS s(min_row, min, max_row, max, i)`);
  }
}

/** A column's rows appended (append_rows): its values before, the values made, and the rows added after `pad` blanks. */
export interface AppendedColumn {
  oldValuesId: number;
  newValuesId: number;
  oldLength: number;
  pad: number;
  /** Rows added, and their values as json text without brackets. */
  count: number;
  added: string;
}

/**
 * Blocks for columns whose rows were appended in the database (append_rows joins the texts there):
 * a long column's blocks are its old ones but the last, copied in SQL, then that last block's rows
 * and the new ones: the work is the rows added, never the column's. A column that reaches
 * BLOCKS_FROM_ROWS is read whole (under that many rows and the request's); a long one the rows turn
 * into words, or that had no blocks, has none.
 */
export async function appendBlocks(tx: Db, columns: AppendedColumn[]): Promise<void> {
  for (const c of columns) {
    if (c.oldLength + c.pad + c.count < BLOCKS_FROM_ROWS) continue;
    if (c.oldLength < BLOCKS_FROM_ROWS) {
      const [row] = await queryRows<{ data: string }>(tx, sql`SELECT data::text AS data FROM column_values WHERE id = ${c.newValuesId}`);
      const series = seriesOf(JSON.parse(row.data));
      if (series) await storeSeries(tx, c.newValuesId, series, 0);
      continue;
    }
    const [old] = await queryRows<{ kind: 'number' | 'date' | null; sorted: boolean | null }>(
      tx,
      sql`SELECT kind, sorted FROM column_values WHERE id = ${c.oldValuesId}`,
    );
    if (!old?.kind) continue;
    const added = c.count ? (JSON.parse(`[${c.added}]`) as unknown[]) : [];
    if (added.some((v) => v !== null && v !== '' && v !== undefined) && valueKind(added) !== old.kind) continue;
    const kept = Math.floor(c.oldLength / BLOCK_ROWS);
    await tx.execute(sql`INSERT INTO column_blocks (values_id, block, min_row, min, max_row, max, stretches, raw)
      SELECT ${c.newValuesId}::bigint, block, min_row, min, max_row, max, stretches, raw FROM column_blocks WHERE values_id = ${c.oldValuesId} AND block < ${kept}::int`);
    const [last] = await queryRows<{ raw: Uint8Array }>(tx, sql`SELECT raw FROM column_blocks WHERE values_id = ${c.oldValuesId} AND block = ${kept}::int`);
    const before = last ? float64s(last.raw).subarray(0, c.oldLength - kept * BLOCK_ROWS) : new Float64Array(0);
    const fresh = numbersOf(added, old.kind);
    const tail = new Float64Array(before.length + c.pad + fresh.length).fill(Number.NaN);
    tail.set(before);
    tail.set(fresh, before.length + c.pad);
    const [top] = await queryRows<{ max: number | null }>(
      tx,
      sql`SELECT max(max) AS max FROM column_blocks WHERE values_id = ${c.oldValuesId} AND block < ${kept}::int`,
    );
    const sorted = old.sorted === true && isSorted(tail, top?.max ?? -Infinity);
    await storeSeries(tx, c.newValuesId, { kind: old.kind, sorted, numbers: tail }, kept);
  }
}

/** A series' kind and sorted on its column_values row, and its blocks from block `firstBlock` (its first row that block's). */
async function storeSeries(tx: Db, valuesId: number, series: Series, firstBlock: number): Promise<void> {
  await tx.execute(sql`UPDATE column_values SET kind = ${series.kind}, sorted = ${series.sorted} WHERE id = ${valuesId}`);
  await writeBlocks(tx, valuesId, blocksOf(series, firstBlock * BLOCK_ROWS), firstBlock);
}

/** A bytea as read (a Buffer from postgres.js, whose slice() is a view into a shared pool; a Uint8Array from PGlite), copied as float64s. */
const float64s = (bytes: Uint8Array) => new Float64Array(Uint8Array.from(bytes).buffer);

/** One column's per-block extremes in one statement (the benchmark's floor): block order, null when a block is all blank. */
export async function blockExtremesOfColumn(db: Db, valuesId: number) {
  return queryRows<{ min: number | null; max: number | null }>(db, sql`SELECT min, max FROM column_blocks WHERE values_id = ${valuesId} ORDER BY block`);
}

/** Column values `valuesId` as a SeriesSource read from their blocks; null when they have none. `maxEntries`: MAX_ENTRIES, lower in tests. */
export async function blockSeries(db: Db, valuesId: number, maxEntries = MAX_ENTRIES): Promise<SeriesSource | null> {
  const [head] = await queryRows<{ length: number; kind: 'number' | 'date'; sorted: boolean }>(
    db,
    sql`SELECT length, kind, sorted FROM column_values WHERE id = ${valuesId} AND kind IS NOT NULL`,
  );
  if (!head) return null;
  const length = Number(head.length);

  async function rows(from: number, to: number): Promise<Float64Array> {
    from = Math.max(0, Math.floor(from));
    to = Math.min(length, Math.ceil(to));
    if (to <= from) return new Float64Array(0);
    const found = await queryRows<{ block: number; raw: Uint8Array }>(
      db,
      sql`SELECT block, raw FROM column_blocks WHERE values_id = ${valuesId} AND block BETWEEN ${Math.floor(from / BLOCK_ROWS)}::int AND ${Math.floor((to - 1) / BLOCK_ROWS)}::int ORDER BY block`,
    );
    const out = new Float64Array(to - from);
    for (const { block, raw } of found) {
      const start = block * BLOCK_ROWS;
      const values = float64s(raw);
      const a = Math.max(from, start);
      const b = Math.min(to, start + values.length);
      out.set(values.subarray(a - start, b - start), a - from);
    }
    return out;
  }

  async function rowAtOrAfter(value: number): Promise<number> {
    const [found] = await queryRows<{ block: number; raw: Uint8Array }>(
      db,
      sql`SELECT block, raw FROM column_blocks WHERE values_id = ${valuesId} AND max >= ${value}::float8 ORDER BY block LIMIT 1`,
    );
    if (!found) return length;
    const values = float64s(found.raw);
    const at = values.findIndex((v) => v >= value);
    return found.block * BLOCK_ROWS + at;
  }

  async function extremes(from: number, to: number, stretches: number): Promise<SeriesExtremes> {
    from = Math.max(0, Math.floor(from));
    to = Math.min(length, Math.ceil(to));
    const span = Math.max(0, to - from);
    const unit = [1, STRETCH_ROWS, BLOCK_ROWS].find((g) => span / g <= maxEntries) ?? BLOCK_ROWS;
    const size = Math.max(unit, Math.ceil(span / Math.max(1, Math.floor(stretches)) / unit) * unit);
    const bounds = [from];
    for (let b = (Math.floor(from / size) + 1) * size; b < to; b += size) bounds.push(b);
    if (to > from) bounds.push(to);
    const out = mergeInto(bounds, size);
    // Whole units in [a, b) from the level, partial ones at either edge from raw rows.
    const a = Math.min(to, Math.ceil(from / unit) * unit);
    const b = Math.max(a, Math.floor(to / unit) * unit);
    const edge = async (x: number, y: number) => {
      const values = await rows(x, y);
      for (let i = 0; i < values.length; i++) out.add(x + i, x + i, values[i], x + i, values[i]);
    };
    await edge(from, a);
    if (unit === BLOCK_ROWS && b > a) {
      const found = await queryRows<{ block: number; min: number | null; min_row: number | null; max: number | null; max_row: number | null }>(
        db,
        sql`SELECT block, min, min_row, max, max_row FROM column_blocks WHERE values_id = ${valuesId} AND block >= ${a / BLOCK_ROWS}::int AND block < ${b / BLOCK_ROWS}::int ORDER BY block`,
      );
      for (const r of found) out.add(r.block * BLOCK_ROWS, r.min_row ?? NaN, r.min ?? NaN, r.max_row ?? NaN, r.max ?? NaN);
    } else if (unit === STRETCH_ROWS && b > a) {
      const found = await queryRows<{ block: number; stretches: Uint8Array }>(
        db,
        sql`SELECT block, stretches FROM column_blocks WHERE values_id = ${valuesId} AND block BETWEEN ${Math.floor(a / BLOCK_ROWS)}::int AND ${Math.floor((b - 1) / BLOCK_ROWS)}::int ORDER BY block`,
      );
      for (const { block, stretches: bytes } of found) {
        const e = float64s(bytes);
        for (let k = 0; k < e.length; k += EXTREME_FIELDS) {
          const start = block * BLOCK_ROWS + (k / EXTREME_FIELDS) * STRETCH_ROWS;
          if (start >= a && start < b) out.add(start, e[k], e[k + 1], e[k + 2], e[k + 3]);
        }
      }
    } else await edge(a, b);
    await edge(b, to);
    return out.result;
  }

  return { length, kind: head.kind, sorted: head.sorted, rowAtOrAfter, rows, extremes };
}

/** Stretches at `bounds` (every inner bound a multiple of `size`) whose extremes entries are merged into, in row order. */
function mergeInto(bounds: number[], size: number) {
  const count = Math.max(0, bounds.length - 1);
  const result: SeriesExtremes = {
    bounds: Float64Array.from(bounds),
    minRow: new Float64Array(count).fill(NaN),
    min: new Float64Array(count).fill(NaN),
    maxRow: new Float64Array(count).fill(NaN),
    max: new Float64Array(count).fill(NaN),
  };
  const add = (start: number, minRow: number, min: number, maxRow: number, max: number) => {
    const k = count < 2 || start < bounds[1] ? 0 : 1 + Math.floor((start - bounds[1]) / size);
    // Strictly lower (higher): the first row holding the extreme stays, as in one pass over the rows.
    if (!Number.isNaN(min) && !(min >= result.min[k])) {
      result.min[k] = min;
      result.minRow[k] = minRow;
    }
    if (!Number.isNaN(max) && !(max <= result.max[k])) {
      result.max[k] = max;
      result.maxRow[k] = maxRow;
    }
  };
  return { add, result };
}
