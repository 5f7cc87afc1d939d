// A chart's "Data table", pure: the figure's data as a table a screen reader can walk, one column per
// trace field (x, y, labels, values, text…), headed by the trace's name, one page of rows at a time.
// Bounded whatever the figure: rows a page, columns (the rest are counted, for a note), and the
// characters of a cell, so a page is at most TABLE_ROWS × TABLE_COLUMNS × CELL_CHARS characters.
import { dataFields, traceName, tracesOf, valueText, type DataField } from './chart-values';

export const TABLE_ROWS = 50;
export const TABLE_COLUMNS = 20;
export const CELL_CHARS = 120;

export interface TableColumn {
  /** The trace's name (its legend entry, else "Trace k"). */
  trace: string;
  field: DataField;
}

export interface ChartTable {
  columns: TableColumn[];
  /** Columns the figure has in all (more than shown: the page says so). */
  columnCount: number;
  /** Rows of the longest column shown. */
  rowCount: number;
  /** 1-based page shown, and how many there are (at least 1). */
  page: number;
  pageCount: number;
  /** The first row's number (1-based) on this page. */
  firstRow: number;
  /** Each row's cells, as text, one per column. */
  rows: string[][];
}

/** Page `page` of the figure's data table; a page past the last shows the last. */
export function chartTable(figure: unknown, page: number): ChartTable {
  const traces = tracesOf(figure);
  const picked: (TableColumn & { values: unknown[] })[] = [];
  let columnCount = 0;
  traces.forEach((trace, i) => {
    for (const { field, values } of dataFields(trace)) {
      columnCount++;
      if (picked.length < TABLE_COLUMNS) picked.push({ trace: traceName(trace, i), field, values });
    }
  });
  const rowCount = picked.reduce((n, c) => Math.max(n, c.values.length), 0);
  const pageCount = Math.max(1, Math.ceil(rowCount / TABLE_ROWS));
  const shown = Math.min(Math.max(1, Math.trunc(page) || 1), pageCount);
  const start = (shown - 1) * TABLE_ROWS;
  const end = Math.min(rowCount, start + TABLE_ROWS);
  const rows: string[][] = [];
  for (let r = start; r < end; r++) rows.push(picked.map((c) => valueText(c.values[r], CELL_CHARS)));
  return {
    columns: picked.map(({ trace, field }) => ({ trace, field })),
    columnCount,
    rowCount,
    page: shown,
    pageCount,
    firstRow: start + 1,
    rows,
  };
}
