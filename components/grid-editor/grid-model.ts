// The grid editor's data and its edits, without React: columns held compactly (a column of numbers
// and empty cells as a Float64Array, NaN standing for the empty cell ""), every edit an operation that
// knows how to undo itself (no copies of a million-row grid per step), and what a save sends.
import { csvCell, csvLine } from '@/lib/shared/csv-text';
import { MAX_COLUMN_NAME_CHARS } from '@/lib/shared/limits';

/** A cell's value as the API stores it: JSON. */
export type Cell = unknown;

/** Numbers, and "" as NaN (the API never stores a non-finite number). */
export type Values = Float64Array | Cell[];

export interface Column {
  /** Stable within the page (React keys, undo steps). */
  key: number;
  /** The saved column's uid; null until a new column is saved. */
  uid: string | null;
  name: string;
  values: Values;
  /** The edit that last changed the values; equal to `savedRev` when they are as saved. */
  rev: number;
  savedRev: number;
}

export interface LoadedColumn {
  uid: string;
  name: string;
  values: Values;
}

/** What an undo step restores. */
interface Step {
  label: string;
  redo: () => void;
  undo: () => void;
}

/** Steps kept to undo. */
const MAX_STEPS = 200;

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

const valueAt = (values: Values, r: number): Cell => {
  if (r >= values.length) return EMPTY;
  const v = values[r];
  return values instanceof Float64Array && Number.isNaN(v as number) ? EMPTY : v;
};

/** `values` as a plain array (a Float64Array's NaN back to ""). */
const plain = (values: Values): Cell[] => (values instanceof Float64Array ? Array.from(values, (v) => (Number.isNaN(v) ? EMPTY : v)) : values);

// The edits change a column's values in place where they can: an undo step keeps only the cells it
// replaced, never a copy of the column. A Float64Array is copied when its length changes, and turned
// into a plain array for good when a cell other than a number or "" is written into it.

/** Column `col` resized to `length` (new cells empty). */
function resize(col: Column, length: number): void {
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
function write(col: Column, at: number, cells: Cell[]): Cell[] {
  if (col.values instanceof Float64Array && !cells.every(fitsNumbers)) col.values = plain(col.values);
  const v = col.values;
  const old = cells.map((_, i) => valueAt(v, at + i));
  if (v instanceof Float64Array) for (let i = 0; i < cells.length; i++) v[at + i] = cells[i] === EMPTY ? Number.NaN : (cells[i] as number);
  else for (let i = 0; i < cells.length; i++) v[at + i] = cells[i];
  return old;
}

/** Inserts `cells` at row `at` (at most the column's length). */
function insert(col: Column, at: number, cells: Cell[]): void {
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
function remove(col: Column, at: number, count: number): Cell[] {
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

export class GridModel {
  columns: Column[];
  /** Rows shown: the longest column's length, or more once rows are added. */
  rows: number;
  private past: Step[] = [];
  private future: Step[] = [];
  private nextKey = 0;
  private edits = 0;
  /** The saved grid's columns: a column deleted by a save and brought back by an undo is new again. */
  private savedUids: Set<string>;

  constructor(loaded: LoadedColumn[]) {
    this.columns = loaded.map((c) => this.column(c.uid, c.name, c.values));
    this.rows = this.longest();
    this.savedUids = new Set(loaded.map((c) => c.uid));
  }

  private column(uid: string | null, name: string, values: Values): Column {
    return { key: this.nextKey++, uid, name, values, rev: 0, savedRev: 0 };
  }

  private longest(): number {
    return this.columns.reduce((max, c) => Math.max(max, c.values.length), 0);
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }
  get canRedo(): boolean {
    return this.future.length > 0;
  }
  get undoLabel(): string | null {
    return this.past.at(-1)?.label ?? null;
  }
  get redoLabel(): string | null {
    return this.future[0]?.label ?? null;
  }

  cell(r: number, c: number): Cell {
    const col = this.columns[c];
    return col ? valueAt(col.values, r) : EMPTY;
  }

  /** Runs an edit and keeps it to undo. */
  private run(step: Step): void {
    step.redo();
    this.past.push(step);
    if (this.past.length > MAX_STEPS) this.past.shift();
    this.future = [];
  }

  undo(): boolean {
    const step = this.past.pop();
    if (!step) return false;
    step.undo();
    this.future.unshift(step);
    return true;
  }

  redo(): boolean {
    const step = this.future.shift();
    if (!step) return false;
    step.redo();
    this.past.push(step);
    return true;
  }

  /** An edit of columns' values: `apply` changes them (answering how to undo that), and the rows shown become `rows`. */
  private edit(cols: Column[], apply: (col: Column) => () => void, rows: number, label: string): void {
    const revs = cols.map((c) => c.rev);
    const rowsBefore = this.rows;
    const rev = ++this.edits;
    let undos: (() => void)[] = [];
    this.run({
      label,
      redo: () => {
        undos = cols.map((col) => {
          const back = apply(col);
          col.rev = rev;
          return back;
        });
        this.rows = rows;
      },
      undo: () => {
        cols.forEach((col, i) => {
          undos[i]();
          col.rev = revs[i];
        });
        this.rows = rowsBefore;
      },
    });
  }

  /** Sets a block of cells from (r, c) down and right; rows grow as needed, columns past the last are left out. Returns the block's size as set. */
  setBlock(r: number, c: number, block: Cell[][], label = 'Edit'): { rows: number; cols: number } {
    const width = Math.min(Math.max(0, ...block.map((row) => row.length)), this.columns.length - c);
    if (!block.length || width <= 0) return { rows: 0, cols: 0 };
    const cols = this.columns.slice(c, c + width);
    const end = r + block.length;
    this.edit(
      cols,
      (col) => {
        const k = cols.indexOf(col);
        const cells = block.map((row) => (k < row.length ? row[k] : EMPTY));
        const length = col.values.length;
        if (length < end) resize(col, end);
        const old = write(col, r, cells);
        return () => {
          write(col, r, old);
          resize(col, length);
        };
      },
      Math.max(this.rows, end),
      label,
    );
    return { rows: block.length, cols: width };
  }

  /** Inserts empty rows at `at`: every column grows to the rows shown and takes the new empty cells. */
  insertRows(at: number, count: number): void {
    const shown = this.rows;
    this.edit(
      this.columns,
      (col) => {
        const length = col.values.length;
        resize(col, shown);
        insert(col, at, Array<Cell>(count).fill(EMPTY));
        return () => {
          remove(col, at, count);
          resize(col, length);
        };
      },
      shown + count,
      count === 1 ? 'Add row' : 'Add rows',
    );
  }

  /** Deletes rows [at, at + count) from every column. */
  deleteRows(at: number, count: number): void {
    const n = Math.min(count, this.rows - at);
    if (n <= 0) return;
    const cols = this.columns.filter((c) => c.values.length > at);
    this.edit(
      cols,
      (col) => {
        const removed = remove(col, at, Math.min(n, col.values.length - at));
        return () => insert(col, at, removed);
      },
      this.rows - n,
      n === 1 ? 'Delete row' : 'Delete rows',
    );
  }

  /** A name no column has: "Column N". */
  freeName(): string {
    const names = new Set(this.columns.map((c) => c.name));
    let i = this.columns.length + 1;
    while (names.has(`Column ${i}`)) i++;
    return `Column ${i}`;
  }

  /** Adds an empty column at `at`. */
  addColumn(at: number, name = this.freeName()): void {
    const col = this.column(null, name, []);
    col.rev = ++this.edits;
    this.run({
      label: 'Add column',
      redo: () => this.columns.splice(at, 0, col),
      undo: () => this.columns.splice(this.columns.indexOf(col), 1),
    });
  }

  deleteColumn(at: number): void {
    const col = this.columns[at];
    if (!col) return;
    this.run({
      label: 'Delete column',
      redo: () => this.columns.splice(this.columns.indexOf(col), 1),
      undo: () => this.columns.splice(at, 0, col),
    });
  }

  /** Renames column `at`; the error when another column has the name (names are unique in a grid). */
  renameColumn(at: number, name: string): string | null {
    const col = this.columns[at];
    if (!col || col.name === name) return null;
    if (!name.trim()) return 'A column needs a name.';
    if (name.length > MAX_COLUMN_NAME_CHARS) return `A column name has at most ${MAX_COLUMN_NAME_CHARS} characters.`;
    if (this.columns.some((c) => c !== col && c.name === name)) return `Another column is named '${name}' (names are unique in a grid).`;
    const before = col.name;
    this.run({
      label: 'Rename column',
      redo: () => {
        col.name = name;
      },
      undo: () => {
        col.name = before;
      },
    });
    return null;
  }

  /** Moves column `from` to position `to`. */
  moveColumn(from: number, to: number): void {
    const col = this.columns[from];
    if (!col || to < 0 || to >= this.columns.length || from === to) return;
    const move = (a: number, b: number) => {
      this.columns.splice(a, 1);
      this.columns.splice(b, 0, col);
    };
    this.run({ label: 'Move column', redo: () => move(from, to), undo: () => move(to, from) });
  }

  /** Anything not saved: columns' data, names, order, added or deleted. */
  changed(saved: { uid: string; name: string }[]): boolean {
    if (saved.length !== this.columns.length) return true;
    return this.columns.some((c, i) => c.rev !== c.savedRev || c.uid !== saved[i].uid || c.name !== saved[i].name);
  }

  /** What a save sends (POST /v2/grids/{fid}/edits): every column in order, kept ones by uid, values when changed or new. */
  saveItems(): SaveItem[] {
    return this.columns.map((c) => {
      const kept = c.uid !== null && this.savedUids.has(c.uid);
      if (kept && c.rev === c.savedRev) return { uid: c.uid!, name: c.name };
      return kept ? { uid: c.uid!, name: c.name, values: c.values } : { name: c.name, values: c.values };
    });
  }

  saveBody(base: string): string {
    return saveBodyText(base, this.saveItems());
  }

  /** After a save: the columns' uids as the API answered (in order), and their data as saved. */
  saved(cols: { uid: string }[]): void {
    this.columns.forEach((c, i) => {
      c.uid = cols[i].uid;
      c.savedRev = c.rev;
    });
    this.savedUids = new Set(cols.map((c) => c.uid));
  }

  /** The rows [r0, r1] of columns [c0, c1] as tab-separated text (what a spreadsheet pastes). */
  blockText(r0: number, r1: number, c0: number, c1: number): string {
    const lines: string[] = [];
    for (let r = r0; r <= r1; r++) {
      const cells: string[] = [];
      for (let c = c0; c <= c1; c++) cells.push(tsvCell(cellText(this.cell(r, c))));
      lines.push(cells.join('\t'));
    }
    return lines.join('\n');
  }

  /** What the CSV of the whole grid is made from (csvParts). */
  csvSource(): CsvSource {
    return { names: this.columns.map((c) => c.name), columns: this.columns.map((c) => c.values), rows: this.rows };
  }
}

/** One column of a save: kept (`uid`) or new, with its values when they are sent. */
export interface SaveItem {
  uid?: string;
  name: string;
  values?: Values;
}

/** A save's body text. */
export function saveBodyText(base: string, items: SaveItem[]): string {
  const parts = items.map((c) => {
    const head = c.uid === undefined ? `{"name":${JSON.stringify(c.name)}` : `{"uid":${JSON.stringify(c.uid)},"name":${JSON.stringify(c.name)}`;
    return c.values === undefined ? `${head}}` : `${head},"data":${valuesJson(c.values)}}`;
  });
  return `{"base":${JSON.stringify(base)},"cols":[${parts.join(',')}]}`;
}

export interface CsvSource {
  names: string[];
  columns: Values[];
  rows: number;
}

/** A grid as CSV (the server's format: lib/shared/csv-text.ts), a header row first, in pieces (a Blob takes them without one big string). */
export function csvParts({ names, columns, rows }: CsvSource): string[] {
  const parts = [csvLine(names.map((name) => csvCell(name, true)))];
  for (let r = 0; r < rows; r++) parts.push(csvLine(columns.map((v) => csvValue(valueAt(v, r)))));
  return parts;
}

/** A column's values as JSON ("" for NaN in a Float64Array). */
function valuesJson(values: Values): string {
  if (!(values instanceof Float64Array)) return JSON.stringify(values);
  let out = '[';
  for (let i = 0; i < values.length; i++) out += `${i ? ',' : ''}${Number.isNaN(values[i]) ? '""' : String(values[i])}`;
  return `${out}]`;
}

/** A cell's CSV field: its text, a string's neutralised as the server's (csvCell). */
const csvValue = (value: Cell) => csvCell(cellText(value), typeof value === 'string');
const tsvCell = (text: string) => (/["\t\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
