// The grid editor's data and its edits, without React: columns held compactly (grid-values.ts), every
// edit an operation that knows how to undo itself (no copies of a million-row grid per step), and
// what a save sends (grid-text.ts).
import { MAX_COLUMN_NAME_CHARS } from '@/lib/shared/limits';
import type { BaseColumn, Merged, MineColumn } from './grid-merge';
import { type CsvSource, type SaveItem, saveBodyText, tsvCell } from './grid-text';
import { type Cell, cellText, compactValues, EMPTY, insert, remove, resize, type Values, valueAt, write } from './grid-values';

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
  /** The saved grid's columns as saved (a copy: edits change the columns in place), by uid: what a
   * refused save's edits are re-applied from (grid-merge.ts). Twice the grid's memory, at most. */
  private base = new Map<string, BaseColumn>();
  /** Row insertions and deletions since the save, undone ones not counted. */
  private reshapes = 0;

  constructor(loaded: LoadedColumn[]) {
    this.columns = loaded.map((c) => this.column(c.uid, c.name, c.values));
    this.rows = this.longest();
    this.savedUids = new Set(loaded.map((c) => c.uid));
    this.keepBase();
  }

  private keepBase(): void {
    this.base = new Map(this.columns.flatMap((c) => (c.uid ? [[c.uid, { name: c.name, values: c.values.slice() }] as const] : [])));
    this.reshapes = 0;
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
  private edit(cols: Column[], apply: (col: Column) => () => void, rows: number, label: string, reshape = false): void {
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
        if (reshape) this.reshapes++;
      },
      undo: () => {
        cols.forEach((col, i) => {
          undos[i]();
          col.rev = revs[i];
        });
        this.rows = rowsBefore;
        if (reshape) this.reshapes--;
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
      true,
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
      true,
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
    this.keepBase();
  }

  /** Whether rows were added or deleted since the save: then edits cannot be re-applied cell by cell. */
  get rowsReshaped(): boolean {
    return this.reshapes !== 0;
  }

  /** What a refused save re-applies (grid-merge.ts mergeEdits): the base, and the columns here. */
  sinceSave(): { base: Map<string, BaseColumn>; mine: MineColumn[] } {
    return { base: this.base, mine: this.columns.map((c) => ({ uid: c.uid, name: c.name, values: c.values, edited: c.rev !== c.savedRev })) };
  }

  /**
   * The grid as saved by someone else (`theirs`) with these edits re-applied (`merged`): theirs becomes
   * the saved state, the re-applied edits unsaved changes (one step undoes them all).
   */
  rebase(merged: Merged, theirs: LoadedColumn[]): void {
    const rev = ++this.edits;
    const columns = merged.columns.map((m) => {
      const col = this.column(m.uid, m.name, Array.isArray(m.values) ? compactValues(m.values) : m.values.slice());
      if (m.changed || m.uid === null) col.rev = rev;
      return col;
    });
    this.columns = theirs.map((t) => this.column(t.uid, t.name, t.values.slice()));
    this.rows = this.longest();
    this.savedUids = new Set(theirs.map((t) => t.uid));
    this.keepBase();
    this.past = [];
    this.future = [];
    const after = { columns, rows: Math.max(0, ...columns.map((c) => c.values.length)) };
    const theirsShown = { columns: this.columns, rows: this.rows };
    this.run({
      label: 'Re-apply my edits',
      redo: () => Object.assign(this, after),
      undo: () => Object.assign(this, theirsShown),
    });
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
