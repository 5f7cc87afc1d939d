// A long numeric or date column as blocks (issue "charts of any size"): its values as float64s, cut into
// blocks of BLOCK_ROWS rows, each with its extremes and those of its stretches of STRETCH_ROWS rows,
// so that a view reads a row range or a summary of one without the rest (column_blocks,
// lib/core/grids/column-blocks.ts). Pure: made where the column's values are parsed (columnValues,
// in a body worker for large bodies). Also the rule that turns a column's values into numbers, which a
// source reading the json text uses too.
import { dateMs, valueKind } from './figures/column-facts';

export const BLOCK_ROWS = 4096;
export const STRETCH_ROWS = 64;
/** Columns of at least this many rows are stored in blocks too (shorter ones are read whole, cheaply). */
export const BLOCKS_FROM_ROWS = 65_536;
/** Numbers a stored extreme holds: min row, min, max row, max. */
export const EXTREME_FIELDS = 4;

/** A column's values as numbers: numbers (and numeric strings) as they are, dates as epoch ms UTC, blanks and text NaN. */
export interface Series {
  kind: 'number' | 'date';
  /** Never decreasing, blanks aside. */
  sorted: boolean;
  numbers: Float64Array;
}

/** A Series stored: the numbers' bytes (float64, little-endian as every host this runs on), and the extremes. */
export interface ColumnBlocks {
  kind: 'number' | 'date';
  sorted: boolean;
  raw: Uint8Array;
  /** Per block: min row, min, max row, max (NaN when all blank). */
  blocks: Float64Array;
  /** Per stretch of STRETCH_ROWS rows (the last of a column may be shorter): as `blocks`. */
  stretches: Float64Array;
}

/** The values as numbers, when the app draws them as numbers or dates (valueKind), else null. */
export function seriesOf(values: unknown[]): Series | null {
  const kind = valueKind(values);
  if (kind === 'category') return null;
  const numbers = numbersOf(values, kind);
  return { kind, sorted: isSorted(numbers), numbers };
}

/** Values of a column of `kind` as numbers: dates as epoch ms UTC, blanks NaN. */
export function numbersOf(values: unknown[], kind: Series['kind']): Float64Array {
  const numbers = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    numbers[i] = v === null || v === '' || v === undefined ? NaN : kind === 'date' ? (typeof v === 'string' ? dateMs(v) : NaN) : Number(v);
  }
  return numbers;
}

/** Never decreasing, blanks aside (and from `after`, the value before them). */
export function isSorted(numbers: Float64Array, after = -Infinity): boolean {
  let last = after;
  for (const n of numbers) {
    if (n < last) return false;
    if (!Number.isNaN(n)) last = n;
  }
  return true;
}

/** Writes into `out` at `at` the extremes of rows [from, to) of `numbers`: min row, min, max row, max (first rows on ties). */
export function extremesInto(numbers: Float64Array, from: number, to: number, out: Float64Array, at: number, rowBase = 0): void {
  let min = NaN;
  let max = NaN;
  let minRow = NaN;
  let maxRow = NaN;
  for (let i = from; i < to; i++) {
    const v = numbers[i];
    if (Number.isNaN(v)) continue;
    if (!(v >= min)) {
      min = v;
      minRow = i;
    }
    if (!(v <= max)) {
      max = v;
      maxRow = i;
    }
  }
  out[at] = minRow + rowBase;
  out[at + 1] = min;
  out[at + 2] = maxRow + rowBase;
  out[at + 3] = max;
}

/** A column's blocks, when it is long enough and holds numbers or dates; else undefined. */
export function columnBlocks(values: unknown[]): ColumnBlocks | undefined {
  if (values.length < BLOCKS_FROM_ROWS) return undefined;
  const series = seriesOf(values);
  return series ? blocksOf(series) : undefined;
}

/** A series' blocks; `rowBase`: the row its first number is (a column's tail, from a block's first row, as rows are appended). */
export function blocksOf({ kind, sorted, numbers }: Series, rowBase = 0): ColumnBlocks {
  const n = numbers.length;
  const blockCount = Math.ceil(n / BLOCK_ROWS);
  const stretchCount = Math.ceil(n / STRETCH_ROWS);
  const blocks = new Float64Array(blockCount * EXTREME_FIELDS);
  const stretches = new Float64Array(stretchCount * EXTREME_FIELDS);
  for (let s = 0; s < stretchCount; s++) extremesInto(numbers, s * STRETCH_ROWS, Math.min(n, (s + 1) * STRETCH_ROWS), stretches, s * EXTREME_FIELDS, rowBase);
  for (let b = 0; b < blockCount; b++) extremesInto(numbers, b * BLOCK_ROWS, Math.min(n, (b + 1) * BLOCK_ROWS), blocks, b * EXTREME_FIELDS, rowBase);
  return { kind, sorted, raw: new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength), blocks, stretches };
}
