// The grid editor's commands on its model and selection, without React: each edits the model (an
// undoable step, grid-model.ts) and answers what to say on the status line, where the selection goes
// and any problem. The editor runs them and draws again.
import Papa from 'papaparse';
import type { Conflict } from './grid-merge';
import type { GridModel } from './grid-model';
import { type Cell, cellText, parseCell } from './grid-values';

/** Cells one copy, paste or clear handles at most. */
const MAX_BLOCK_CELLS = 2_000_000;
/** Pasted text at most, in characters. */
const MAX_PASTE = 64 * 1024 * 1024;

export interface Selection {
  /** The active cell. */
  r: number;
  c: number;
  /** The other corner of the selected range. */
  r2: number;
  c2: number;
}

export interface Edited {
  /** For the status line. */
  said?: string;
  /** The selection after the edit. */
  sel?: Selection;
  problem?: string;
}

export type GridEdit = (g: GridModel, sel: Selection) => Edited;

/** The selected range's rows and columns, from the lower to the higher. */
export const range = (s: Selection) => ({ rMin: Math.min(s.r, s.r2), rMax: Math.max(s.r, s.r2), cMin: Math.min(s.c, s.c2), cMax: Math.max(s.c, s.c2) });

const cellOnly = (r: number, c: number): Selection => ({ r, c, r2: r, c2: c });
const tooMany = (s: Selection) => {
  const { rMin, rMax, cMin, cMax } = range(s);
  return (rMax - rMin + 1) * (cMax - cMin + 1) > MAX_BLOCK_CELLS;
};
const most = MAX_BLOCK_CELLS.toLocaleString('en');

export const undoEdit: GridEdit = (g) => {
  const label = g.undoLabel;
  return g.undo() ? { said: `Undone: ${label}` } : {};
};

export const redoEdit: GridEdit = (g) => {
  const label = g.redoLabel;
  return g.redo() ? { said: `Redone: ${label}` } : {};
};

/** The active cell's text set to `text` (a number when it reads as one). */
export const setCell =
  (text: string): GridEdit =>
  (g, sel) => {
    g.setBlock(Math.min(sel.r, Math.max(0, g.rows - 1)), sel.c, [[parseCell(text)]], 'Edit cell');
    return {};
  };

export const clearRange: GridEdit = (g, sel) => {
  if (tooMany(sel)) return { said: `Select at most ${most} cells to clear at once.` };
  const { rMin, rMax, cMin, cMax } = range(sel);
  const last = Math.min(rMax, g.rows - 1);
  if (last < rMin) return {};
  g.setBlock(
    rMin,
    cMin,
    Array.from({ length: last - rMin + 1 }, () => Array<Cell>(cMax - cMin + 1).fill('')),
    'Clear cells',
  );
  return { said: 'Cleared.' };
};

/** Tab-separated text (a spreadsheet's copy) as rows of cells; the trailing line break is not a row. */
function parseBlock(text: string): Cell[][] {
  const rows = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { delimiter: '\t', quoteChar: '"' }).data;
  return rows.map((row) => row.map(parseCell));
}

/** Pasted text from the active cell on: rows are added as needed, columns past the last left out. */
export const paste =
  (text: string): GridEdit =>
  (g, sel) => {
    if (text.length > MAX_PASTE) return { said: 'That is too much to paste at once; import it as a new grid instead.' };
    const block = parseBlock(text);
    const cells = block.reduce((n, row) => n + row.length, 0);
    if (!cells || cells > MAX_BLOCK_CELLS) return { said: cells ? `Paste at most ${most} cells at once.` : 'Nothing to paste.' };
    const r = Math.min(sel.r, g.rows);
    const size = g.setBlock(r, sel.c, block, 'Paste');
    const wide = Math.max(...block.map((row) => row.length));
    const cut =
      wide > size.cols ? ` (${wide - size.cols} pasted ${wide - size.cols === 1 ? 'column' : 'columns'} beyond the last left out: add columns first)` : '';
    return { said: `Pasted ${size.rows} × ${size.cols} cells${cut}.`, sel: { r, c: sel.c, r2: r + size.rows - 1, c2: sel.c + size.cols - 1 } };
  };

/** The selected cells as a spreadsheet's text, or why not. */
export function copyText(g: GridModel, sel: Selection): { text: string } | { said: string } {
  if (tooMany(sel)) return { said: `Select at most ${most} cells to copy at once; "Download CSV" has everything.` };
  const { rMin, rMax, cMin, cMax } = range(sel);
  return { text: g.blockText(rMin, Math.min(rMax, g.rows - 1), cMin, cMax) };
}

export const addColumn: GridEdit = (g, sel) => {
  const at = g.columns.length ? sel.c + 1 : 0;
  g.addColumn(at);
  return { said: `Added column ${g.columns[at].name}.`, sel: cellOnly(sel.r, at) };
};

export const deleteColumn: GridEdit = (g, sel) => {
  const name = g.columns[sel.c]?.name;
  g.deleteColumn(sel.c);
  return { said: name === undefined ? undefined : `Deleted column ${name}.`, sel: cellOnly(sel.r, Math.max(0, Math.min(sel.c, g.columns.length - 1))) };
};

export const moveColumn =
  (by: number): GridEdit =>
  (g, sel) => {
    const to = sel.c + by;
    if (to < 0 || to >= g.columns.length) return {};
    g.moveColumn(sel.c, to);
    return { said: `Moved column ${g.columns[to].name} ${by < 0 ? 'left' : 'right'}.`, sel: cellOnly(sel.r, to) };
  };

export const renameColumn =
  (name: string): GridEdit =>
  (g, sel) => {
    const problem = g.renameColumn(sel.c, name);
    return problem ? { problem } : { said: `Renamed the column to ${name}.` };
  };

export const addRow: GridEdit = (g, sel) => {
  const at = g.rows ? sel.r + 1 : 0;
  g.insertRows(at, 1);
  return { said: `Added row ${at + 1}.`, sel: cellOnly(at, sel.c) };
};

export const deleteRows: GridEdit = (g, sel) => {
  const { rMin, rMax } = range(sel);
  const count = Math.min(rMax, g.rows - 1) - rMin + 1;
  if (count <= 0) return {};
  g.deleteRows(rMin, count);
  const r = Math.max(0, Math.min(rMin, g.rows - 1));
  return { said: count === 1 ? `Deleted row ${rMin + 1}.` : `Deleted rows ${rMin + 1} to ${rMin + count}.`, sel: cellOnly(r, sel.c) };
};

/** The active cell's text, to edit. */
export const activeText = (g: GridModel, sel: Selection) => cellText(g.cell(sel.r, sel.c));

/** A cell both people changed back to their value (a re-applied save's conflict, grid-merge.ts). */
export const takeTheirs =
  (conflict: Conflict): GridEdit =>
  (model) => {
    const c = model.columns.findIndex((col) => col.name === conflict.column);
    if (c < 0) return { problem: `The column “${conflict.column}” is no longer here.` };
    model.setBlock(conflict.row, c, [[conflict.theirs]], 'Use their value');
    return { said: `Row ${conflict.row + 1} of “${conflict.column}” has their value again.`, sel: cellOnly(conflict.row, c) };
  };
