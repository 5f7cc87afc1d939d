// The data import's worker: reads a CSV/TSV file, pasted text or an .xlsx file, keeps the table,
// detects column types, checks the person's choices, and stores the grid through the API
// (POST /v2/grids, then POST /v2/grids/{fid}/col for the columns past one request's size), so the
// page's main thread never parses, holds or sends the data.
import { NotSimple, readByteTable, TableError } from './byte-table';
import type { FromWorker, TablePreview, ToWorker } from './messages';
import { byteTable, decode, guessDelimiter, InputError, MAX_COLUMNS, parseText, rowNumber, type Table } from './read-table';
import { readWorkbook, sheetTable, type Workbook } from './read-workbook';
import { store } from './store-grid';
import { cellKind, columnProblem, type ColumnType, isJsonNumber, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, PREVIEW_ROWS, sizeText, typeWithFirst } from './table-data';
import { progress } from './worker-progress';

const post = (message: FromWorker) => postMessage(message);

let table: Table | null = null;
/** The .xlsx file read, while its sheets can be chosen. */
let workbook: Workbook | null = null;

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
    const fraction = (f: number) => progress('read', f);
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
