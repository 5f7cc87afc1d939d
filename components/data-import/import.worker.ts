// The data import's worker: reads a CSV/TSV file, pasted text or an .xlsx file, keeps the table,
// detects column types, checks the person's choices, and stores the grid through the API
// (POST /v2/grids, then POST /v2/grids/{fid}/col for the columns past one request's size), so the
// page's main thread never parses, holds or sends the data.
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/web-worker';
import { unzipSync, strFromU8 } from 'fflate';
import { apiFilePath } from '@/lib/shared/urls';
import { type ByteTable, NotSimple, readByteTable, TableError } from './byte-table';
import type { FromWorker, Sharing, TablePreview, ToWorker } from './messages';
import {
  cellKind,
  columnJson,
  columnNames,
  columnProblem,
  type ColumnType,
  dateText,
  firstBadByte,
  isJsonNumber,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  PREVIEW_ROWS,
  sizeText,
  TypeTally,
  typeWithFirst,
} from './table-data';

const MAX_COLUMNS = 10_000;
/** A request's columns at most, in bytes: well under the API's 50 MiB grid body, and small enough
 * that the next request's body is built while the server stores this one. */
const BATCH_BYTES = 12 * 1024 * 1024;
const DECODE_CHUNK = 4 * 1024 * 1024;

const post = (message: FromWorker) => postMessage(message);

/** Bad input, said where: nothing is written. */
class InputError extends Error {}

/** The data read, whichever reader read it. */
interface Table {
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
function byteTable(name: string, t: ByteTable): Table {
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

let table: Table | null = null;
/** The .xlsx file read, while its sheets can be chosen. */
let workbook: Workbook | null = null;

/** The file's row number (1-based, blank lines counted) of a kept row. */
function rowNumber(t: Table, index: number): number {
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
class TableBuilder {
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
function decode(bytes: Uint8Array): string {
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
    post({ type: 'progress', phase: 'read', fraction: (0.3 * end) / bytes.length });
  }
  return parts.join('');
}

const DELIMITERS = [',', '\t', ';', '|'];

/** The delimiter the general parser would guess, from the file's first lines. */
function guessDelimiter(bytes: Uint8Array, from: number): string {
  const head = new TextDecoder().decode(bytes.subarray(from, from + 65536));
  const lines = head.lastIndexOf('\n') > 0 ? head.slice(0, head.lastIndexOf('\n')) : head;
  return Papa.parse<string[]>(lines, { delimitersToGuess: DELIMITERS, preview: 10 }).meta.delimiter;
}

/** A table from CSV or TSV text. */
function parseText(text: string, name: string, delimiter: string, empty: string): Table {
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
        post({ type: 'progress', phase: 'read', fraction: 0.3 + (0.7 * results.meta.cursor) / text.length });
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

/** An .xlsx cell as text: dates as plotly reads them, empty as "". */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return dateText(value);
  return String(value);
}

/**
 * Each sheet's formula cells (in the workbook's order): how many formulas it has, and the first one
 * saved without its computed value (which every reader sees as empty), by its reference.
 */
function sheetFormulas(bytes: Uint8Array): { formulas: number; uncached: string | null }[] {
  const wanted = new Set(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
  const meta = unzipSync(bytes, { filter: (f) => wanted.has(f.name) });
  const workbook = strFromU8(meta['xl/workbook.xml'] ?? new Uint8Array());
  const rels = strFromU8(meta['xl/_rels/workbook.xml.rels'] ?? new Uint8Array());
  const paths = [...workbook.matchAll(/<sheet\b[^>]*\br:id="([^"]+)"/g)].map(([, id], i) => {
    const target = new RegExp(`<Relationship\\b[^>]*\\bId="${id}"[^>]*\\bTarget="([^"]+)"|<Relationship\\b[^>]*\\bTarget="([^"]+)"[^>]*\\bId="${id}"`).exec(
      rels,
    );
    const href = target ? (target[1] ?? target[2]) : `worksheets/sheet${i + 1}.xml`;
    return href.startsWith('/') ? href.slice(1) : `xl/${href}`;
  });
  const wantedSheets = new Set(paths);
  const sheets = unzipSync(bytes, { filter: (f) => wantedSheets.has(f.name) });
  return paths.map((path) => {
    let formulas = 0;
    let uncached: string | null = null;
    for (const m of strFromU8(sheets[path] ?? new Uint8Array()).matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const body = m[2] ?? '';
      if (!/<f[\s>/]/.test(body)) continue;
      formulas++;
      if (uncached === null && !/<v[\s>]/.test(body)) uncached = /\br="([^"]+)"/.exec(m[1])?.[1] ?? '?';
    }
    return { formulas, uncached };
  });
}

/** A workbook read: its sheets' names and values, and why each cannot be imported (null: it can),
 * in a sentence and in a word or two for the sheet's choice. */
interface Workbook {
  name: string;
  sheets: { sheet: string; data: unknown[][]; problem: { message: string; note: string } | null }[];
}

/** The workbook's sheets, each checked. */
async function readWorkbook(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Workbook> {
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = await readXlsxFile(bytes.buffer);
  } catch {
    throw new InputError('The file could not be read as an Excel workbook (.xlsx). Save it again from your spreadsheet app, or export it as CSV.');
  }
  post({ type: 'progress', phase: 'read', fraction: 0.6 });
  const formulas = sheetFormulas(bytes);
  const resave = 'open the file in a spreadsheet app and save it again.';
  return {
    name,
    sheets: sheets.map(({ sheet, data }, i) => {
      const { formulas: count, uncached } = formulas[i] ?? { formulas: 0, uncached: null };
      const blank = data.every((row) => row.every((v) => v === null || v === ''));
      const problem =
        blank && count > 0
          ? { message: `Sheet '${sheet}' holds only formulas (no computed values were saved): ${resave}`, note: 'formulas without values' }
          : uncached
            ? { message: `Sheet '${sheet}' has formulas whose values were not saved (cell ${uncached} is one): ${resave}`, note: 'formulas without values' }
            : blank
              ? { message: `Sheet '${sheet}' is empty: the file has no data to import.`, note: 'empty' }
              : null;
      return { sheet, data, problem };
    }),
  };
}

/** A table from one of the workbook's sheets: the one named, else the first that can be imported. */
function sheetTable(workbook: Workbook, wanted?: string): Table {
  const chosen = workbook.sheets.find((s) => (wanted === undefined ? s.problem === null : s.sheet === wanted)) ?? workbook.sheets[0];
  if (!chosen) throw new InputError('The workbook has no sheets: the file has no data to import.');
  if (chosen.problem) throw new InputError(chosen.problem.message);
  const builder = new TableBuilder();
  for (const row of chosen.data) builder.add(row.map(cellText));
  post({ type: 'progress', phase: 'read', fraction: 1 });
  return builder.done(workbook.name, chosen.sheet, `Sheet '${chosen.sheet}' is empty: the file has no data to import.`);
}

const baseName = (file: File) => file.name.replace(/\.[^.]*$/, '') || file.name;

async function read(message: Extract<ToWorker, { type: 'file' | 'paste' }>): Promise<Table> {
  if (message.type === 'paste') {
    if (message.text.length > MAX_IMPORT_BYTES)
      throw new InputError(`The pasted data is ${sizeText(message.text.length)}; at most ${sizeText(MAX_IMPORT_BYTES)}.`);
    // A spreadsheet's copied cells are tab-separated.
    const delimiter = message.text.slice(0, 65536).includes('\t') ? '\t' : '';
    return parseText(message.text, 'Pasted data', delimiter, 'Nothing was pasted.');
  }
  const { file } = message;
  if (file.size > MAX_IMPORT_BYTES) throw new InputError(`The file is ${sizeText(file.size)}; at most ${sizeText(MAX_IMPORT_BYTES)} can be imported.`);
  if (file.size === 0) throw new InputError('The file is empty.');
  const name = baseName(file);
  const bytes = new Uint8Array(await file.arrayBuffer());
  // A zip archive: an .xlsx workbook (whatever its name says).
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    workbook = await readWorkbook(bytes, name);
    return sheetTable(workbook);
  }
  if (/\.xls$/i.test(file.name) || (bytes[0] === 0xd0 && bytes[1] === 0xcf)) {
    throw new InputError('Old Excel files (.xls) cannot be read: save the sheet as .xlsx or CSV and choose it again.');
  }
  const delimiter = /\.(tsv|tab)$/i.test(file.name) ? '\t' : '';
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    const limits = { maxColumns: MAX_COLUMNS, maxRows: MAX_IMPORT_ROWS };
    const fraction = (f: number) => post({ type: 'progress', phase: 'read', fraction: f });
    return byteTable(name, readByteTable(bytes, bom, (delimiter || guessDelimiter(bytes, bom)).charCodeAt(0), limits, fraction));
  } catch (e) {
    if (e instanceof TableError) throw new InputError(e.message);
    if (!(e instanceof NotSimple)) throw e;
  }
  return parseText(decode(bytes), name, delimiter, 'The file is empty: it holds no data, only blank lines.');
}

function preview(t: Table): TablePreview {
  const columns = Array.from({ length: t.width }, (_, k) => k);
  const first = columns.map((k) => t.cell(k, 0));
  const withHeader = t.tallies.map((tally) => tally.type());
  const asData = t.tallies.map((tally, k) => typeWithFirst(tally, first[k]));
  // A header sits atop its column's values: some cell of the first row is not of its column's type.
  const header =
    t.rows > 1 &&
    (withHeader.every((type) => type === 'text')
      ? first.every((cell) => cellKind(cell) !== 'number')
      : withHeader.some((type, k) => type !== 'text' && cellKind(first[k]) !== type));
  return {
    name: t.name,
    sheet: t.sheet,
    sheets: t.sheet === null || !workbook ? [] : workbook.sheets.map((w) => ({ name: w.sheet, note: w.problem?.note ?? null })),
    rows: Array.from({ length: Math.min(t.rows, PREVIEW_ROWS + 1) }, (_, i) => columns.map((k) => t.cell(k, i))),
    rowCount: t.rows,
    width: t.width,
    detected: { header: withHeader, data: asData },
    header,
  };
}

/** Per column: why its cells cannot be of the chosen type (the first one at fault), or null. */
function check(t: Table, header: boolean, types: ColumnType[]): (string | null)[] {
  const start = header ? 1 : 0;
  return t.tallies.map((_, k) => {
    // Numbers written as JSON writes them are numbers, and short enough for any text cell.
    if (types[k] !== 'date' && t.tallies[k].plain && (start === 1 || isJsonNumber(t.cell(k, 0)))) return null;
    const cells = t.column(k);
    const problem = columnProblem(header ? cells.slice(start) : cells, types[k]);
    return problem && `Row ${rowNumber(t, problem.index + start)}: ${problem.message}.`;
  });
}

interface ApiErrorBody {
  errors?: { message: string; field: string | null }[];
}

/** An API answer's error as a sentence, and the field it names (the name: said at its field). */
async function apiError(res: Response): Promise<InputError & { field?: 'filename' }> {
  const body = (await res.json().catch(() => ({}))) as ApiErrorBody;
  const first = body.errors?.[0];
  // The API's messages begin with the field they name.
  const message = first?.field ? first.message.replace(`${first.field}: `, '') : first?.message;
  if (first?.field === 'filename') return Object.assign(new InputError(`${message}. Choose another name.`), { field: 'filename' as const });
  return new InputError(
    first ? `The grid was not stored: ${message}${first.field ? ` (${first.field})` : ''}.` : `The grid was not stored (error ${res.status}).`,
  );
}

/**
 * One request body from text and bytes, as bytes: sent from memory as it is, where a Blob body would
 * go through the browser's blob store first.
 */
function bodyOf(parts: (string | Uint8Array<ArrayBuffer>)[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const chunks = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** POSTs a body, waiting out the server's "busy" answers (429 with Retry-After). */
async function send(url: string, body: Uint8Array<ArrayBuffer>): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin' });
    if (res.status !== 429 || attempt === 5) return res;
    await new Promise((r) => setTimeout(r, 1000 * Math.max(1, Number(res.headers.get('Retry-After')) || 1)));
  }
}

/** Stores the table as a grid: the first batch of columns creates it, the rest are appended. */
async function store(t: Table, message: Extract<ToWorker, { type: 'import' }>): Promise<{ owner: string; n: number }> {
  const start = message.header ? 1 : 0;
  const total = t.width;
  const names = columnNames(message.header ? Array.from({ length: total }, (_, k) => t.cell(k, 0)) : null, total);
  let next = 0;
  /** The next batch: columns' json as bytes, up to BATCH_BYTES (at least one column). */
  const batch = () => {
    const parts: { name: string; order: number; bytes: Uint8Array<ArrayBuffer> }[] = [];
    let size = 0;
    while (next < total && (parts.length === 0 || size < BATCH_BYTES)) {
      let bytes = message.types[next] === 'number' ? t.plainJson(next, start) : null;
      if (!bytes) {
        const cells = start ? t.column(next).slice(start) : t.column(next);
        const json = columnJson(cells, message.types[next]);
        if (!('text' in json)) throw new InputError(`Column '${names[next]}', row ${rowNumber(t, json.index + start)}: ${json.message}.`);
        bytes = encoder.encode(json.text);
      }
      parts.push({ name: names[next], order: next, bytes });
      size += bytes.length;
      next++;
    }
    return parts;
  };
  const sharing: Record<Sharing, object> = {
    private: { world_readable: false },
    public: { world_readable: true },
    secret: { world_readable: false, share_key_enabled: true },
  };
  const fields = JSON.stringify({ filename: message.filename, ...sharing[message.sharing] }).slice(0, -1);
  const first = batch();
  // Data that fits one request goes in the create. More is appended to a grid created empty: the
  // column verb's body is parsed as it is, while a create's is first scanned for repeated names.
  const whole = next === total;
  const createBody = bodyOf([
    `${fields},"data":{"cols":{`,
    ...(whole ? first : []).flatMap((c, i) => [`${i ? ',' : ''}${JSON.stringify(c.name)}:{"order":${c.order},"data":`, c.bytes, '}']),
    '}}}',
  ]);
  post({ type: 'progress', phase: 'store', fraction: 0.05 });
  const created = await send('/v2/grids', createBody);
  if (created.status !== 201) throw await apiError(created);
  let stored = whole ? first.length : 0;
  let upcoming = whole ? null : first;
  const { file } = (await created.json()) as { file: { fid: string } };
  const at = file.fid.lastIndexOf(':');
  const grid = { owner: file.fid.slice(0, at), n: Number(file.fid.slice(at + 1)) };
  try {
    while (upcoming) {
      post({ type: 'progress', phase: 'store', fraction: stored / total });
      const body = bodyOf(['{"cols":[', ...upcoming.flatMap((c, i) => [`${i ? ',' : ''}{"name":${JSON.stringify(c.name)},"data":`, c.bytes, '}']), ']}']);
      const sent = upcoming.length;
      const pending = send(`${apiFilePath('grids', grid.owner, grid.n)}/col`, body);
      upcoming = next < total ? batch() : null;
      const res = await pending;
      if (res.status !== 201) throw await apiError(res);
      stored += sent;
    }
  } catch (e) {
    // A grid missing columns is no import: it goes, and the person sees why.
    await fetch(apiFilePath('grids', grid.owner, grid.n), { method: 'DELETE', credentials: 'same-origin' }).catch(() => {});
    throw e;
  }
  post({ type: 'progress', phase: 'store', fraction: 1 });
  return grid;
}

let busy: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  // One message at a time, in order: a check waits for the table it checks.
  busy = busy.then(async () => {
    try {
      if (message.type === 'file' || message.type === 'paste') {
        table = null;
        workbook = null;
        table = await read(message);
        post({ type: 'table', table: preview(table) });
      } else if (workbook && message.type === 'sheet') {
        table = sheetTable(workbook, message.sheet);
        post({ type: 'table', table: preview(table) });
      } else if (table && message.type === 'check') {
        post({ type: 'checked', problems: check(table, message.header, message.types) });
      } else if (table && message.type === 'import') {
        const grid = await store(table, message);
        post({ type: 'stored', ...grid });
      }
    } catch (e) {
      if (e instanceof InputError) post({ type: 'error', message: e.message, field: (e as { field?: 'filename' }).field });
      else post({ type: 'error', message: `The data could not be read: ${e instanceof Error ? e.message : String(e)}` });
    }
  });
};
