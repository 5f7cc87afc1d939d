// The data import's .xlsx reading, in its worker: the workbook's sheets, each checked (formulas saved
// without their values read as empty in every reader, so they are refused with the reason), and a
// sheet as a table.
import { strFromU8, unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/web-worker';
import { InputError, type Table, TableBuilder } from './read-table';
import { dateText } from './table-data';
import { progress } from './worker-progress';

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
export interface Workbook {
  name: string;
  sheets: { sheet: string; data: unknown[][]; problem: { message: string; note: string } | null }[];
}

/** The workbook's sheets, each checked. */
export async function readWorkbook(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Workbook> {
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = await readXlsxFile(bytes.buffer);
  } catch {
    throw new InputError('The file could not be read as an Excel workbook (.xlsx). Save it again from your spreadsheet app, or export it as CSV.');
  }
  progress('read', 0.6);
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
export function sheetTable(workbook: Workbook, wanted?: string): Table {
  const chosen = workbook.sheets.find((s) => (wanted === undefined ? s.problem === null : s.sheet === wanted)) ?? workbook.sheets[0];
  if (!chosen) throw new InputError('The workbook has no sheets: the file has no data to import.');
  if (chosen.problem) throw new InputError(chosen.problem.message);
  const builder = new TableBuilder();
  for (const row of chosen.data) builder.add(row.map(cellText));
  progress('read', 1);
  return builder.done(workbook.name, chosen.sheet, `Sheet '${chosen.sheet}' is empty: the file has no data to import.`);
}
