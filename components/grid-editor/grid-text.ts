// What the grid editor writes of a grid: a save's body (POST /v2/grids/{fid}/edits), the CSV download
// (the server's format, lib/shared/csv-text.ts) and a spreadsheet's tab-separated copy.
import { csvCell, csvLine } from '@/lib/shared/csv-text';
import { type Cell, cellText, type Values, valueAt } from './grid-values';

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
/** A cell's text in a tab-separated copy. */
export const tsvCell = (text: string) => (/["\t\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
