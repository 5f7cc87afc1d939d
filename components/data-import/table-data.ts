// The data import's rules, pure and browser-safe (the parsing worker runs them; tests call them):
// what a file may be, each cell's kind, a column's detected type, and a column's values as the json
// text POST /v2/grids stores, or the first cell that cannot be of the chosen type.
import { MAX_CELL_BYTES, MAX_COLUMN_VALUES } from '@/lib/shared/column-values';
import { MAX_COLUMN_NAME_CHARS } from '@/lib/shared/limits';

export type ColumnType = 'number' | 'date' | 'text';
export const COLUMN_TYPES: ColumnType[] = ['number', 'date', 'text'];

/** The largest file (or paste) the import reads (docs/limits.md). */
export const MAX_IMPORT_BYTES = 500 * 1024 * 1024;
/** Rows the preview shows. */
export const PREVIEW_ROWS = 20;
/** Rows a grid holds at most: a column's values. */
export const MAX_IMPORT_ROWS = MAX_COLUMN_VALUES;

const NUMBER = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
// The date strings plotly.js reads (its dateTime2ms): YYYY-MM, YYYY-MM-DD, then a time after ' ' or
// 'T' (HH, HH:MM, HH:MM:SS.fraction) and a time zone it ignores. A bare year is read as a number.
const DATE = /^\s*-?\d{4}-(\d\d?)(?:-(\d\d?)(?:[ Tt](?:[01]?\d|2[0-3])(?::[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:[Zz]|[+-]\d\d(?::?\d\d)?)?)?)?)?\s*$/;

export type CellKind = 'empty' | ColumnType;

/** What a cell holds, most specific first: empty, a number, a date plotly reads, else text. */
export function cellKind(cell: string): CellKind {
  const c = cell.charCodeAt(0);
  // The common case first, without a regular expression: a number written with a digit first. Number()
  // also reads hexadecimal, binary and octal literals ("0x1F"), which are text here.
  if (c >= 48 && c <= 57 && Number.isFinite(+cell)) {
    const d = cell.charCodeAt(1) | 32;
    if (c !== 48 || (d !== 120 && d !== 98 && d !== 111)) return 'number';
  }
  if (cell.trim() === '') return 'empty';
  if (NUMBER.test(cell) && Number.isFinite(Number(cell))) return 'number';
  const date = DATE.exec(cell);
  if (date && Number(date[1]) >= 1 && Number(date[1]) <= 12 && (date[2] === undefined || (Number(date[2]) >= 1 && Number(date[2]) <= 31))) return 'date';
  return 'text';
}

/** Whether a number cell is already written as JSON writes numbers (it can be sent as it is). */
export const isJsonNumber = (cell: string) => JSON_NUMBER.test(cell);

/** Which types every non-empty cell so far fits, kept as cells are seen. */
export class TypeTally {
  number = true;
  date = true;
  filled = false;
  /** Every cell is a number written as JSON writes it (none empty): the column's json is its cells joined. */
  plain = true;

  add(cell: string): void {
    if (!this.number && !this.date) return;
    const kind = cellKind(cell);
    if (kind === 'empty') {
      this.plain = false;
      return;
    }
    this.filled = true;
    if (kind !== 'number') {
      this.number = false;
      this.plain = false;
    } else if (this.plain && !JSON_NUMBER.test(cell)) this.plain = false;
    if (kind !== 'date') this.date = false;
  }

  /** The type detected: number or date when every non-empty cell is one (and one is not empty), else text. */
  type(): ColumnType {
    if (!this.filled) return 'text';
    return this.number ? 'number' : this.date ? 'date' : 'text';
  }
}

/** The detected type of a column whose first cell may be data: its other cells' tally, and that cell. */
export function typeWithFirst(rest: TypeTally, first: string): ColumnType {
  const tally = Object.assign(new TypeTally(), rest);
  tally.add(first);
  return tally.type();
}

/** Column names from a header row: blanks named by position, repeats numbered, as a grid's names are unique;
 * each within a column name's length, its number included. */
export function columnNames(header: string[] | null, count: number): string[] {
  const seen = new Set<string>();
  return Array.from({ length: count }, (_, i) => {
    const given = header?.[i]?.trim().slice(0, MAX_COLUMN_NAME_CHARS) || `Column ${i + 1}`;
    let name = given;
    for (let k = 2; seen.has(name); k++) name = `${given.slice(0, MAX_COLUMN_NAME_CHARS - ` (${k})`.length)} (${k})`;
    seen.add(name);
    return name;
  });
}

export interface CellProblem {
  /** Index of the cell in the column. */
  index: number;
  message: string;
}

const shown = (cell: string) => `'${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}'`;
const encoder = new TextEncoder();

/**
 * A column's values as json text (a JSON array): numbers as JSON numbers (written as given when they
 * already are one), dates and text as strings, empty cells as "" (what the API pads rows with, and a
 * gap to plotly). Or the first cell that cannot be of the type, or is over the API's cell limit.
 */
export function columnJson(cells: string[], type: ColumnType, plain = false): { text: string } | CellProblem {
  // Numbers already written as JSON numbers, none empty (the tally saw each): the cells joined.
  if (type === 'number' && plain) return { text: `[${cells.join(',')}]` };
  const out = new Array<string>(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    const trimmed = cell.trim();
    if (trimmed === '') {
      out[i] = '""';
      continue;
    }
    if (type === 'number') {
      if (JSON_NUMBER.test(trimmed) && Number.isFinite(Number(trimmed))) {
        out[i] = trimmed;
        continue;
      }
      if (cellKind(trimmed) === 'number') {
        out[i] = String(Number(trimmed));
        continue;
      }
      return { index: i, message: `${shown(cell)} is not a number` };
    }
    if (type === 'date') {
      if (cellKind(trimmed) !== 'date')
        return { index: i, message: `${shown(cell)} is not a date (write dates as YYYY-MM-DD, with a time as YYYY-MM-DD HH:MM:SS)` };
      out[i] = JSON.stringify(trimmed);
      continue;
    }
    if (cell.length * 3 > MAX_CELL_BYTES && encoder.encode(cell).length > MAX_CELL_BYTES) {
      return { index: i, message: `the text is over ${MAX_CELL_BYTES / 1024} KiB; a cell holds at most that much` };
    }
    out[i] = JSON.stringify(cell);
  }
  return { text: `[${out.join(',')}]` };
}

/** The first cell that cannot be of the type (columnJson's check without building the text). */
export function columnProblem(cells: ArrayLike<string>, type: ColumnType): CellProblem | null {
  if (type === 'text') {
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i];
      if (cell.length * 3 > MAX_CELL_BYTES && encoder.encode(cell).length > MAX_CELL_BYTES) {
        return { index: i, message: `the text is over ${MAX_CELL_BYTES / 1024} KiB; a cell holds at most that much` };
      }
    }
    return null;
  }
  for (let i = 0; i < cells.length; i++) {
    const kind = cellKind(cells[i]);
    if (kind !== 'empty' && kind !== type) {
      return {
        index: i,
        message:
          type === 'number'
            ? `${shown(cells[i])} is not a number`
            : `${shown(cells[i])} is not a date (write dates as YYYY-MM-DD, with a time as YYYY-MM-DD HH:MM:SS)`,
      };
    }
  }
  return null;
}

/**
 * The first byte of `bytes` that is not UTF-8, or -1. A decoder reports only that there is one:
 * this narrows it down by decoding ever shorter prefixes (each a streaming decode, so a character
 * cut at a prefix's end is not counted as bad; at the end of the bytes it is, unless more follow:
 * `final` false).
 */
export function firstBadByte(bytes: Uint8Array, final = true): number {
  const fails = (end: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream: !final || end < bytes.length });
      return false;
    } catch {
      return true;
    }
  };
  if (!fails(bytes.length)) return -1;
  let lo = 0;
  let hi = bytes.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fails(mid)) hi = mid;
    else lo = mid;
  }
  // The prefix that first fails ends with a bad byte, or (at the very end) with a cut character's last.
  if (hi === bytes.length && final && !fails(hi - 1)) {
    let start = hi - 1;
    while (start > 0 && (bytes[start] & 0xc0) === 0x80) start--;
    return start;
  }
  return hi - 1;
}

/** Text as a date plotly reads: YYYY-MM-DD, with the time when there is one (xlsx dates are UTC). */
export function dateText(date: Date): string {
  const iso = date.toISOString();
  const time = iso.slice(11, 19);
  return time === '00:00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${time}`;
}

/** The size a person reads (60 MB). */
export function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${mb >= 10 ? Math.round(mb) : mb.toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
