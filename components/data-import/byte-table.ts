// The import's fast reader for the common file: delimited text without quotes. It splits the file's bytes
// in one pass, keeping where each cell starts and ends rather than a string per cell, tallies each
// column's types as it goes, and writes a column of numbers that are already JSON numbers straight from
// the bytes. A million rows of numbers then never become five million strings (BENCHMARKS.md, data
// import). Files with quotes, a lone carriage return or any byte outside ASCII go to the general parser
// (papaparse, after a strict UTF-8 decode), which reads every CSV dialect; both give the same table.
import { TypeTally } from './table-data';

/** Why the fast reader gives up: the general parser reads the file instead. */
export class NotSimple extends Error {}

/** Bad input, said where: the same sentences the general path says. */
export class TableError extends Error {}

export interface ByteTableLimits {
  maxColumns: number;
  /** Rows after the first at most. */
  maxRows: number;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/**
 * Whether bytes s..e are a number written as JSON writes it and small enough to be finite: digits with
 * an optional sign, fraction and a short exponent (longer ones go through the general check).
 */
function plainNumber(b: Uint8Array, s: number, e: number): boolean {
  let i = s;
  if (i < e && b[i] === 45) i++;
  if (i >= e) return false;
  const lead = i;
  if (b[i] === 48) i++;
  else {
    if (b[i] < 49 || b[i] > 57) return false;
    while (i < e && b[i] >= 48 && b[i] <= 57) i++;
  }
  // Mantissas this long may overflow a double: the general check decides.
  if (i - lead > 300) return false;
  if (i < e && b[i] === 46) {
    i++;
    const digits = i;
    while (i < e && b[i] >= 48 && b[i] <= 57) i++;
    if (i === digits) return false;
  }
  if (i < e && (b[i] === 101 || b[i] === 69)) {
    i++;
    if (i < e && (b[i] === 43 || b[i] === 45)) i++;
    const digits = i;
    while (i < e && b[i] >= 48 && b[i] <= 57) i++;
    if (i === digits || i - digits > 2) return false;
  }
  return i === e;
}

/** Grows a row-major Int32Array of cell offsets. */
function grown(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const out = new Int32Array(Math.max(need, a.length * 2));
  out.set(a);
  return out;
}

export class ByteTable {
  readonly rows: number;
  /** The bytes as text: ASCII, so a cell's byte offsets are its character offsets. */
  private readonly text: string;
  private readonly columns = new Map<number, string[]>();

  constructor(
    private readonly bytes: Uint8Array,
    readonly width: number,
    rows: number,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    /** Per column, the types of its cells after the first row (`plain`: all written as JSON numbers). */
    readonly tallies: TypeTally[],
    readonly blanks: number[],
  ) {
    this.rows = rows;
    this.text = new TextDecoder().decode(bytes);
  }

  cell(k: number, i: number): string {
    const at = i * this.width + k;
    return this.text.slice(this.starts[at], this.ends[at]);
  }

  /** A column's cells as strings, made once when a rule needs them. */
  column(k: number): string[] {
    let cells = this.columns.get(k);
    if (!cells) {
      cells = new Array<string>(this.rows);
      for (let i = 0; i < this.rows; i++) cells[i] = this.cell(k, i);
      this.columns.set(k, cells);
    }
    return cells;
  }

  /** Whether column k's cells from `start` on are all plain JSON numbers. */
  isPlain(k: number, start: number): boolean {
    return this.tallies[k].plain && (start === 1 || plainNumber(this.bytes, this.starts[k], this.ends[k]));
  }

  /** Column k's cells from `start` on as a JSON array's bytes (they must be plain: isPlain). */
  plainJson(k: number, start: number): Uint8Array<ArrayBuffer> {
    const { bytes, starts, ends, width } = this;
    let size = 2;
    for (let i = start; i < this.rows; i++) size += ends[i * width + k] - starts[i * width + k] + 1;
    const out = new Uint8Array(size - (this.rows > start ? 1 : 0));
    let at = 0;
    out[at++] = 91;
    for (let i = start; i < this.rows; i++) {
      if (i > start) out[at++] = 44;
      const e = ends[i * width + k];
      for (let j = starts[i * width + k]; j < e; j++) out[at++] = bytes[j];
    }
    out[at] = 93;
    return out;
  }
}

/**
 * Reads delimited bytes (a BOM already skipped: `from`) into a ByteTable, or throws NotSimple for the
 * general parser, or TableError for bad input. `progress` is told the fraction read now and then.
 */
export function readByteTable(bytes: Uint8Array, from: number, delimiter: number, limits: ByteTableLimits, progress: (fraction: number) => void): ByteTable {
  if (bytes.indexOf(QUOTE, from) >= 0) throw new NotSimple('quotes');
  let width = -1;
  let rows = 0;
  let cellsInRow = 0;
  let starts = new Int32Array(1 << 16);
  let ends = new Int32Array(1 << 16);
  let tallies: TypeTally[] = [];
  const blanks: number[] = [];
  let filled = false;
  // The first row's cells, until its width is known.
  const first: [number, number][] = [];
  let firstExtra = 0;
  let cellStart = from;
  let nextProgress = from + (4 << 20);
  const n = bytes.length;

  const endCell = (s: number, e: number) => {
    if (width < 0) {
      // Past the limit only counted, for the message.
      if (first.length < limits.maxColumns) first.push([s, e]);
      else firstExtra++;
      return;
    }
    if (cellsInRow >= width) {
      cellsInRow++;
      return;
    }
    const at = rows * width + cellsInRow;
    starts[at] = s;
    ends[at] = e;
    if (rows > 0) {
      const tally = tallies[cellsInRow];
      // What TypeTally.add does with such a cell, without making its string.
      if (tally.number && plainNumber(bytes, s, e)) {
        tally.filled = true;
        tally.date = false;
      } else if (tally.number || tally.date) tally.add(latin1(bytes, s, e));
    }
    cellsInRow++;
  };

  const endRow = (lineStart: number, s: number, e: number) => {
    // A blank line: skipped, and counted for the rows' numbers.
    if (e === lineStart && cellsInRow === 0) {
      blanks.push(rows);
      return;
    }
    endCell(s, e);
    if (width < 0) {
      if (firstExtra > 0) {
        const cells = (first.length + firstExtra).toLocaleString('en-US');
        throw new TableError(`The first row has ${cells} cells; a grid holds at most ${limits.maxColumns.toLocaleString('en-US')} columns.`);
      }
      width = first.length;
      tallies = first.map(() => new TypeTally());
      first.forEach(([fs, fe], k) => {
        starts[k] = fs;
        ends[k] = fe;
      });
      rows = 1;
    } else {
      if (cellsInRow !== width) {
        const line = rows + 1 + blanks.length;
        throw new TableError(
          `Row ${line} has ${cellsInRow} ${cellsInRow === 1 ? 'cell' : 'cells'}, but the first row has ${width}: every row needs one cell per column.`,
        );
      }
      if (rows > limits.maxRows) {
        throw new TableError(`The data has more than ${limits.maxRows.toLocaleString('en-US')} rows after the header; a grid holds at most that many.`);
      }
      rows++;
    }
    cellsInRow = 0;
    starts = grown(starts, (rows + 1) * width);
    ends = grown(ends, (rows + 1) * width);
  };

  let lineStart = from;
  for (let i = from; i < n; i++) {
    const b = bytes[i];
    if (b === delimiter) {
      endCell(cellStart, i);
      cellStart = i + 1;
    } else if (b === LF) {
      endRow(lineStart, cellStart, i > cellStart && bytes[i - 1] === CR ? i - 1 : i);
      cellStart = lineStart = i + 1;
      if (i >= nextProgress) {
        progress(i / n);
        nextProgress = i + (4 << 20);
      }
    } else if (b === CR) {
      if (bytes[i + 1] !== LF && i + 1 < n) throw new NotSimple('carriage return');
    } else if (b >= 128) throw new NotSimple('not ASCII');
    else if (!filled && b !== SPACE && b !== TAB) filled = true;
  }
  // The last line, or after a final newline the empty one the general parser sees (and skips).
  endRow(lineStart, cellStart, n > cellStart && bytes[n - 1] === CR ? n - 1 : n);
  // A file of blank cells (delimiters and spaces only) holds no data.
  if (!filled || rows === 0) throw new TableError('The file is empty: it holds no data, only blank lines.');
  return new ByteTable(bytes, width, rows, starts, ends, tallies, blanks);
}

/** ASCII bytes as a string (the bytes read so far are all ASCII). */
function latin1(bytes: Uint8Array, s: number, e: number): string {
  return String.fromCharCode.apply(null, bytes.subarray(s, e) as unknown as number[]);
}
