// The data import's tables, read in its worker: the general reader's (delimited text, as papaparse
// reads it, or an .xlsx sheet's rows) and the fast reader's (byte-table.ts), behind one shape, with
// the checks every row passes (its width, the row count).
import Papa from 'papaparse';
import type { ByteTable } from './byte-table';
import { firstBadByte, isJsonNumber, MAX_IMPORT_ROWS, TypeTally } from './table-data';
import { progress } from './worker-progress';

export const MAX_COLUMNS = 10_000;
const DECODE_CHUNK = 4 * 1024 * 1024;

/** Bad input, said where: nothing is written. */
export class InputError extends Error {}

/** The data read, whichever reader read it. */
export interface Table {
  name: string;
  sheet: string | null;
  /** Rows, the first row included. */
  rows: number;
  width: number;
  /** Types of each column's cells after the first row. */
  tallies: TypeTally[];
  /** Kept-row indices before which a blank line was skipped (for the file's row numbers). */
  blanks: number[];
  /** Row i's cell of column k; row 0 is the first row. */
  cell(k: number, i: number): string;
  /** Column k's cells, the first row's included. */
  column(k: number): string[];
  /** Column k's cells from `start` on as a JSON array's bytes when all are numbers written as JSON
   * writes them (then sent as they are); else null. */
  plainJson(k: number, start: number): Uint8Array<ArrayBuffer> | null;
}

const encoder = new TextEncoder();

/** A table of strings (the general parser's and the .xlsx reader's). */
function stringTable(name: string, sheet: string | null, cols: string[][], tallies: TypeTally[], blanks: number[]): Table {
  return {
    name,
    sheet,
    rows: cols[0].length,
    width: cols.length,
    tallies,
    blanks,
    cell: (k, i) => cols[k][i],
    column: (k) => cols[k],
    plainJson: (k, start) =>
      tallies[k].plain && (start === 1 || isJsonNumber(cols[k][0])) ? encoder.encode(`[${(start ? cols[k].slice(start) : cols[k]).join(',')}]`) : null,
  };
}

/** A table of the fast reader's (delimited text without quotes). */
export function byteTable(name: string, t: ByteTable): Table {
  return {
    name,
    sheet: null,
    rows: t.rows,
    width: t.width,
    tallies: t.tallies,
    blanks: t.blanks,
    cell: (k, i) => t.cell(k, i),
    column: (k) => t.column(k),
    plainJson: (k, start) => (t.isPlain(k, start) ? t.plainJson(k, start) : null),
  };
}

/** The file's row number (1-based, blank lines counted) of a kept row. */
export function rowNumber(t: Table, index: number): number {
  let lo = 0;
  let hi = t.blanks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t.blanks[mid] <= index) lo = mid + 1;
    else hi = mid;
  }
  return index + 1 + lo;
}

/** Adds rows to the table, checking their width and count. */
export class TableBuilder {
  cols: string[][] = [];
  tallies: TypeTally[] = [];
  blanks: number[] = [];
  width = -1;
  rows = 0;

  add(row: string[]): void {
    if (row.length === 1 && row[0] === '') {
      this.blanks.push(this.rows);
      return;
    }
    if (this.width < 0) {
      if (row.length > MAX_COLUMNS)
        throw new InputError(
          `The first row has ${row.length.toLocaleString('en-US')} cells; a grid holds at most ${MAX_COLUMNS.toLocaleString('en-US')} columns.`,
        );
      this.width = row.length;
      this.cols = row.map(() => []);
      this.tallies = row.map(() => new TypeTally());
    } else {
      if (row.length !== this.width) {
        const line = this.rows + 1 + this.blanks.length;
        throw new InputError(
          `Row ${line} has ${row.length} ${row.length === 1 ? 'cell' : 'cells'}, but the first row has ${this.width}: every row needs one cell per column.`,
        );
      }
      if (this.rows > MAX_IMPORT_ROWS) {
        throw new InputError(`The data has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows after the header; a grid holds at most that many.`);
      }
      for (let k = 0; k < row.length; k++) this.tallies[k].add(row[k]);
    }
    for (let k = 0; k < row.length; k++) this.cols[k].push(row[k]);
    this.rows++;
  }

  done(name: string, sheet: string | null, empty: string): Table {
    if (this.rows === 0 || this.cols.every((c) => c.every((cell) => cell.trim() === ''))) throw new InputError(empty);
    return stringTable(name, sheet, this.cols, this.tallies, this.blanks);
  }
}

/** UTF-8 text of the bytes (a BOM dropped), or where they stop being UTF-8. */
export function decode(bytes: Uint8Array): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += DECODE_CHUNK) {
    const end = Math.min(at + DECODE_CHUNK, bytes.length);
    try {
      parts.push(decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length }));
    } catch {
      // The bad byte is in this chunk, or ends a character begun just before it.
      let from = at;
      while (from > 0 && at - from < 3 && (bytes[from] & 0xc0) === 0x80) from--;
      const bad = from + firstBadByte(bytes.subarray(from, end), end === bytes.length);
      let line = 1;
      for (let i = 0; i < bad; i++) if (bytes[i] === 10) line++;
      throw new InputError(
        `The file is not UTF-8 text (byte ${(bad + 1).toLocaleString('en-US')}, on line ${line.toLocaleString('en-US')}, is not UTF-8). Save it as UTF-8 (in Excel: "CSV UTF-8") and choose it again.`,
      );
    }
    progress('read', (0.3 * end) / bytes.length);
  }
  return parts.join('');
}

const DELIMITERS = [',', '\t', ';', '|'];

/** The delimiter the general parser would guess, from the file's first lines. */
export function guessDelimiter(bytes: Uint8Array, from: number): string {
  const head = new TextDecoder().decode(bytes.subarray(from, from + 65536));
  const lines = head.lastIndexOf('\n') > 0 ? head.slice(0, head.lastIndexOf('\n')) : head;
  return Papa.parse<string[]>(lines, { delimitersToGuess: DELIMITERS, preview: 10 }).meta.delimiter;
}

/** A table from CSV or TSV text. */
export function parseText(text: string, name: string, delimiter: string, empty: string): Table {
  if (text.trim() === '') throw new InputError(empty);
  const builder = new TableBuilder();
  let failure: unknown = null;
  // Papa streams a string in chunks when given `chunk` (its types list that option for files only).
  const config: Papa.ParseConfig<string[]> & { chunkSize: number; chunk: (results: Papa.ParseResult<string[]>, parser: Papa.Parser) => void } = {
    delimiter,
    delimitersToGuess: DELIMITERS,
    chunkSize: 4 * 1024 * 1024,
    chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
      try {
        const unterminated = results.errors.find((e) => e.code === 'MissingQuotes');
        for (const [i, row] of results.data.entries()) {
          if (unterminated && i >= (unterminated.row ?? 0)) {
            throw new InputError(`Row ${builder.rows + 1 + builder.blanks.length} has a quoted cell that never ends: a closing '"' is missing.`);
          }
          builder.add(row);
        }
        progress('read', 0.3 + (0.7 * results.meta.cursor) / text.length);
      } catch (e) {
        failure = e;
        parser.abort();
      }
    },
  };
  Papa.parse<string[]>(text, config);
  if (failure) throw failure;
  return builder.done(name, null, empty);
}
