// One CSV format for every writer: the server's downloads (lib/web/csv.ts) and the grid editor's
// "Download CSV" in the browser (components/grid-editor). RFC 4180: CRLF line ends; a field with a
// comma, quote or line break quoted, its quotes doubled. Pure and browser-safe (no server imports).

/** Text a spreadsheet would run as a formula (OWASP "CSV injection"): it starts with =, +, -, @, tab or CR. */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * One CSV field of a cell's text. `isText`: the cell holds text (a string value, or a column name);
 * such text a spreadsheet would run as a formula gets a leading ' (a number such as -2 stays as it is).
 */
export function csvCell(text: string, isText: boolean): string {
  const safe = isText && FORMULA.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line of fields already made by csvCell. */
export const csvLine = (fields: readonly string[]): string => `${fields.join(',')}\r\n`;
