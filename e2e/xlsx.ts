// Small .xlsx workbooks for the import's browser tests, built with fflate (a zip of the few XML parts a
// workbook needs): cells are numbers, inline text, dates (a serial day number in a date format) or
// formulas, with or without their computed value saved.
import { strToU8, zipSync } from 'fflate';

export type XlsxCell = number | string | { date: number } | { formula: string; value?: number } | null;

const NS = 'http://schemas.openxmlformats.org';
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const column = (k: number) => String.fromCharCode(65 + k);

function cellXml(cell: XlsxCell, ref: string): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
  if (typeof cell === 'string') return `<c r="${ref}" t="inlineStr"><is><t>${xmlText(cell)}</t></is></c>`;
  if ('date' in cell) return `<c r="${ref}" s="1"><v>${cell.date}</v></c>`;
  return `<c r="${ref}"><f>${xmlText(cell.formula)}</f>${cell.value === undefined ? '' : `<v>${cell.value}</v>`}</c>`;
}

/** An .xlsx file of one sheet holding `rows`. */
export function xlsxFile(sheet: string, rows: XlsxCell[][]): Buffer {
  return xlsxWorkbook([{ name: sheet, rows }]);
}

/** An .xlsx file of several sheets, in order. */
export function xlsxWorkbook(sheets: { name: string; rows: XlsxCell[][] }[]): Buffer {
  const sheetXml = (rows: XlsxCell[][]) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${NS}/spreadsheetml/2006/main"><sheetData>${rows
      .map((row, i) => `<row r="${i + 1}">${row.map((c, k) => cellXml(c, `${column(k)}${i + 1}`)).join('')}</row>`)
      .join('')}</sheetData></worksheet>`;
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="${NS}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets
      .map(
        (_, i) =>
          `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join('')}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${NS}/package/2006/relationships"><Relationship Id="rId1" Type="${NS}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${NS}/spreadsheetml/2006/main" xmlns:r="${NS}/officeDocument/2006/relationships"><sheets>${sheets
      .map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${NS}/package/2006/relationships">${sheets
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('')}<Relationship Id="rIdStyles" Type="${NS}/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="${NS}/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    ...Object.fromEntries(sheets.map((s, i) => [`xl/worksheets/sheet${i + 1}.xml`, sheetXml(s.rows)])),
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, strToU8(text)]))));
}
