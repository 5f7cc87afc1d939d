// A grid column's values, pure (no database): the rule that turns a column's `data` into the json text
// stored. Both the request path and the body worker (lib/http/grid-bodies.ts, which makes large
// bodies' values off the event loop) use it, and it makes a long numeric column's blocks there too.
import { columnBlocks, type ColumnBlocks } from './series-blocks';

/** Values a column holds at most (docs/limits.md: what a 10,000,000-row column costs to upload and store). */
export const MAX_COLUMN_VALUES = 10_000_000;
/** Values a column keeps in `preview` (the grid record's table). */
export const PREVIEW_VALUES = 20;

/** A text value's size at most (UTF-8): what one cell may cost every reader of every plot drawn from it. */
export const MAX_CELL_BYTES = 64 * 1024;

export const NON_FINITE = 'a number too large for JSON (it would be stored as null, e.g. 1e400) or not a number; send a finite number or a string';

/** A column's values ready to store: the json text and its size in bytes, top-level length, and first values. */
export interface ColumnValues {
  text: string;
  bytes: number;
  length: number;
  head: unknown[];
  /** A long numeric or date column's blocks (lib/shared/series-blocks.ts), stored beside the text. */
  blocks?: ColumnBlocks;
}

/** Why a column's `data` is refused; `index`: the value at fault, when one is. */
export interface ColumnProblem {
  message: string;
  index?: number;
}

/** A column's `data` whose values were made off the event loop: columnValues's answer, as made there. */
export class PreparedColumn {
  constructor(readonly values: ColumnValues | ColumnProblem) {}
}

/**
 * A column's `data`, everywhere: a plain array, a plotly.js typed array (decoded to plain values) or
 * a scalar (a one-value column: R's JSON encoder unboxes length-1 vectors).
 */
export function columnValues(data: unknown): ColumnValues | ColumnProblem {
  if (data instanceof PreparedColumn) return data.values;
  const scalar = data === null || ['number', 'string', 'boolean'].includes(typeof data);
  const values = Array.isArray(data) ? data : scalar ? [data] : decodeTypedArray(data);
  if (!values) return { message: 'expected an array of values (or a typed array {dtype, bdata})' };
  let count = values.length;
  for (const v of values) if (Array.isArray(v)) count += v.length;
  if (count > MAX_COLUMN_VALUES) return { message: `at most ${MAX_COLUMN_VALUES} values a column` };
  const bad = nonFinite(values);
  if (bad >= 0) return { message: NON_FINITE, index: bad };
  const long = oversizedCell(values);
  if (long >= 0) return { message: CELL_TOO_LARGE, index: long };
  const text = JSON.stringify(values);
  return { text, bytes: Buffer.byteLength(text), length: values.length, head: values.slice(0, PREVIEW_VALUES), blocks: columnBlocks(values) };
}

export const CELL_TOO_LARGE = `a text value over ${MAX_CELL_BYTES / 1024} KiB; a cell holds at most that much`;

/** The index of the first value that is (or holds) a string over MAX_CELL_BYTES, else -1. */
export function oversizedCell(values: unknown[]): number {
  // A string's UTF-8 size is at most 3 bytes a UTF-16 unit: most strings need no count.
  const long = (v: unknown): boolean =>
    typeof v === 'string' ? v.length * 3 > MAX_CELL_BYTES && Buffer.byteLength(v) > MAX_CELL_BYTES : Array.isArray(v) ? v.some(long) : false;
  return values.findIndex(long);
}

/** The index of the first value that is (or holds) a non-finite number, else -1: JSON.parse reads
 * 1e400 as Infinity (and typed arrays can hold NaN), which JSON.stringify would silently store as null. */
export function nonFinite(values: unknown[]): number {
  const bad = (v: unknown): boolean => (typeof v === 'number' ? !Number.isFinite(v) : Array.isArray(v) ? v.some(bad) : false);
  return values.findIndex(bad);
}

type TypedArrayReader = { size: number; read: (view: DataView, offset: number) => number };
const DTYPES: Record<string, TypedArrayReader> = {
  i1: { size: 1, read: (d, o) => d.getInt8(o) },
  u1: { size: 1, read: (d, o) => d.getUint8(o) },
  u1c: { size: 1, read: (d, o) => d.getUint8(o) },
  i2: { size: 2, read: (d, o) => d.getInt16(o, true) },
  u2: { size: 2, read: (d, o) => d.getUint16(o, true) },
  i4: { size: 4, read: (d, o) => d.getInt32(o, true) },
  u4: { size: 4, read: (d, o) => d.getUint32(o, true) },
  f4: { size: 4, read: (d, o) => d.getFloat32(o, true) },
  f8: { size: 8, read: (d, o) => d.getFloat64(o, true) },
};
const DIM = /^\s*\d+\s*$/;
const PADDING = /=+$/;

/** "3,4" (plotly.py writes "3, 4") or [3, 4]. */
function parseShape(shape: unknown): number[] | null {
  const dims = typeof shape === 'string' ? shape.split(',').map((s) => (DIM.test(s) ? Number(s) : NaN)) : shape;
  if (!Array.isArray(dims) || dims.length === 0) return null;
  return dims.every((d) => Number.isSafeInteger(d) && d > 0) ? (dims as number[]) : null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Plain (nested, when `shape` has several dims) number arrays from a plotly.js typed array spec
 *  `{dtype, bdata, shape?}`; null for anything that is not a well-formed one. */
export function decodeTypedArray(value: unknown): unknown[] | null {
  if (!isObject(value) || typeof value.bdata !== 'string' || typeof value.dtype !== 'string') return null;
  const reader = Object.hasOwn(DTYPES, value.dtype) ? DTYPES[value.dtype] : undefined;
  if (!reader) return null;
  const bytes = Buffer.from(value.bdata, 'base64');
  // Buffer.from silently skips junk characters: only canonical base64 (padding optional) is accepted.
  const canonical = bytes.toString('base64');
  if (canonical !== value.bdata && canonical.replace(PADDING, '') !== value.bdata) return null;
  if (bytes.length % reader.size !== 0) return null;
  const count = bytes.length / reader.size;
  const shape = value.shape === undefined ? [count] : parseShape(value.shape);
  if (!shape || shape.reduce((a, b) => a * b, 1) !== count) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const flat = new Array<number>(count);
  for (let i = 0; i < count; i++) flat[i] = reader.read(view, i * reader.size);
  // Row-major nesting, innermost dimension first.
  let out: unknown[] = flat;
  for (let d = shape.length - 1; d > 0; d--) {
    const len = shape[d];
    const next: unknown[] = [];
    for (let i = 0; i < out.length; i += len) next.push(out.slice(i, i + len));
    out = next;
  }
  return out;
}
