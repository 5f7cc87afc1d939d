// A grid column's values as the grid editor holds them (grid-model.ts edits them): a column of
// numbers and empty cells as a Float64Array, NaN standing for the empty cell "", else a plain array;
// changed in place where they can be, so that an undo step keeps only the cells it replaced.

/** A cell's value as the API stores it: JSON. */
export type Cell = unknown;

/** Numbers, and "" as NaN (the API never stores a non-finite number). */
export type Values = Float64Array | Cell[];

/** What holds a column's values (the model's column): the edits below replace them when they must. */
export interface Held {
  values: Values;
}

export const EMPTY = '';

/** A cell's text in the grid and in the CSV: numbers as JavaScript writes them, "" and null empty. */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isNaN(value) ? '' : String(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** What typed or pasted text stores: a finite decimal number as a number, else the text ("" when empty). */
export function parseCell(text: string): Cell {
  const t = text.trim();
  if (NUMBER.test(t)) {
    const n = Number(t);
    if (Number.isFinite(n)) return n;
  }
  return text;
}

const fitsNumbers = (v: Cell) => (typeof v === 'number' && Number.isFinite(v)) || v === EMPTY;

/** A loaded column's values, compact when they are numbers and empty cells. */
export function compactValues(values: Cell[]): Values {
  if (!values.every(fitsNumbers)) return values;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] === EMPTY ? Number.NaN : (values[i] as number);
  return out;
}

/** Row r's cell: "" past the column's end. */
export const valueAt = (values: Values, r: number): Cell => {
  if (r >= values.length) return EMPTY;
  const v = values[r];
  return values instanceof Float64Array && Number.isNaN(v as number) ? EMPTY : v;
};

/** `values` as a plain array (a Float64Array's NaN back to ""). */
const plain = (values: Values): Cell[] => (values instanceof Float64Array ? Array.from(values, (v) => (Number.isNaN(v) ? EMPTY : v)) : values);

// A Float64Array is copied when its length changes, and turned into a plain array for good when a
// cell other than a number or "" is written into it.

/** Column `col` resized to `length` (new cells empty). */
export function resize(col: Held, length: number): void {
  const v = col.values;
  if (v.length === length) return;
  if (v instanceof Float64Array) {
    const out = new Float64Array(length).fill(Number.NaN);
    out.set(v.subarray(0, Math.min(length, v.length)));
    col.values = out;
  } else if (v.length > length) v.length = length;
  else for (let i = v.length; i < length; i++) v.push(EMPTY);
}

/** Writes `cells` from row `at` (within the column's length); answers the cells replaced. */
export function write(col: Held, at: number, cells: Cell[]): Cell[] {
  if (col.values instanceof Float64Array && !cells.every(fitsNumbers)) col.values = plain(col.values);
  const v = col.values;
  const old = cells.map((_, i) => valueAt(v, at + i));
  if (v instanceof Float64Array) for (let i = 0; i < cells.length; i++) v[at + i] = cells[i] === EMPTY ? Number.NaN : (cells[i] as number);
  else for (let i = 0; i < cells.length; i++) v[at + i] = cells[i];
  return old;
}

/** Inserts `cells` at row `at` (at most the column's length). */
export function insert(col: Held, at: number, cells: Cell[]): void {
  const v = col.values;
  if (v instanceof Float64Array) {
    const out = new Float64Array(v.length + cells.length);
    out.set(v.subarray(0, at));
    out.set(v.subarray(at), at + cells.length);
    col.values = out;
    write(col, at, cells);
  } else if (cells.length < 10_000) v.splice(at, 0, ...cells);
  // Spread arguments have a limit: many cells make a new array instead.
  else col.values = v.slice(0, at).concat(cells, v.slice(at));
}

/** Removes `count` rows from `at` (within the column's length); answers them. */
export function remove(col: Held, at: number, count: number): Cell[] {
  const v = col.values;
  const removed = Array.from({ length: count }, (_, i) => valueAt(v, at + i));
  if (v instanceof Float64Array) {
    const out = new Float64Array(v.length - count);
    out.set(v.subarray(0, at));
    out.set(v.subarray(at + count), at);
    col.values = out;
  } else v.splice(at, count);
  return removed;
}
