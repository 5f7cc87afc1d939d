// The grid editor's commands (components/grid-editor/grid-edits.ts) and keys (grid-keys.ts) on a real
// model: what each edits, where the selection goes and what the status line says.
import { describe, expect, it } from 'vitest';
import { addColumn, clearRange, copyText, deleteRows, moveColumn, paste, redoEdit, renameColumn, undoEdit } from '@/components/grid-editor/grid-edits';
import { gridKey } from '@/components/grid-editor/grid-keys';
import { GridModel } from '@/components/grid-editor/grid-model';
import { compactValues } from '@/components/grid-editor/grid-values';

const grid = () =>
  new GridModel([
    { uid: 'aaaaaa', name: 'x', values: compactValues([1, 2, 3]) },
    { uid: 'bbbbbb', name: 'y', values: compactValues(['a', 'b', 'c']) },
  ]);
const table = (m: GridModel) => Array.from({ length: m.rows }, (_, r) => m.columns.map((_, c) => m.cell(r, c)));
const at = (r: number, c: number, r2 = r, c2 = c) => ({ r, c, r2, c2 });
const key = (k: string, mods: Partial<Record<'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('grid editor commands', () => {
  it('a paste adds the rows it needs and selects what it set; columns past the last are left out and said', () => {
    const m = grid();
    const out = paste('7\t8\tcut\n"q\tr"\t9\n')(m, at(2, 0));
    expect(out).toEqual({ said: 'Pasted 2 × 2 cells (1 pasted column beyond the last left out: add columns first).', sel: at(2, 0, 3, 1) });
    expect(table(m)).toEqual([
      [1, 'a'],
      [2, 'b'],
      [7, 8],
      ['q\tr', 9],
    ]);
    expect(paste('')(m, at(0, 0))).toEqual({ said: 'Nothing to paste.' });
    expect(undoEdit(m, at(0, 0))).toEqual({ said: 'Undone: Paste' });
    expect(m.rows).toBe(3);
    expect(redoEdit(m, at(0, 0))).toEqual({ said: 'Redone: Paste' });
  });

  it('copies, clears and deletes the selected range', () => {
    const m = grid();
    expect(copyText(m, at(0, 0, 1, 1))).toEqual({ text: '1\ta\n2\tb' });
    expect(clearRange(m, at(1, 1, 0, 0))).toEqual({ said: 'Cleared.' });
    expect(table(m)).toEqual([
      ['', ''],
      ['', ''],
      [3, 'c'],
    ]);
    expect(deleteRows(m, at(2, 1, 0, 1))).toEqual({ said: 'Deleted rows 1 to 3.', sel: at(0, 1) });
    expect(m.rows).toBe(0);
  });

  it('adds, moves and renames columns, refusing a name another column has', () => {
    const m = grid();
    expect(addColumn(m, at(1, 0))).toEqual({ said: 'Added column Column 3.', sel: at(1, 1) });
    expect(moveColumn(-1)(m, at(1, 1))).toEqual({ said: 'Moved column Column 3 left.', sel: at(1, 0) });
    expect(moveColumn(-1)(m, at(1, 0))).toEqual({});
    expect(renameColumn('y')(m, at(0, 0))).toEqual({ problem: "Another column is named 'y' (names are unique in a grid)." });
    expect(renameColumn('z')(m, at(0, 0))).toEqual({ said: 'Renamed the column to z.' });
    expect(m.columns.map((c) => c.name)).toEqual(['z', 'x', 'y']);
  });
});

describe('grid editor keys', () => {
  const sel = at(1, 1);
  it('move, select, jump to the ends, edit and clear; Tab leaves the grid at its ends', () => {
    expect(gridKey(key('ArrowDown'), sel, 10, 3, 5)).toEqual({ type: 'select', r: 2, c: 1, extend: false });
    expect(gridKey(key('ArrowUp', { shiftKey: true }), at(1, 1, 4, 2), 10, 3, 5)).toEqual({ type: 'select', r: 3, c: 2, extend: true });
    expect(gridKey(key('PageDown'), sel, 10, 3, 5)).toEqual({ type: 'select', r: 6, c: 1, extend: false });
    expect(gridKey(key('ArrowRight', { ctrlKey: true }), sel, 10, 3, 5)).toEqual({ type: 'select', r: 1, c: 2, extend: false });
    expect(gridKey(key('End', { metaKey: true }), sel, 10, 3, 5)).toEqual({ type: 'select', r: 9, c: 1, extend: false });
    expect(gridKey(key('Tab'), at(0, 2), 10, 3, 5)).toBeNull();
    expect(gridKey(key('Tab', { shiftKey: true }), sel, 10, 3, 5)).toEqual({ type: 'select', r: 1, c: 0, extend: false });
    expect(gridKey(key('F2'), sel, 10, 3, 5)).toEqual({ type: 'edit' });
    expect(gridKey(key('7'), sel, 10, 3, 5)).toEqual({ type: 'edit', text: '7' });
    expect(gridKey(key('z', { ctrlKey: true }), sel, 10, 3, 5)).toBeNull();
    expect(gridKey(key('Backspace'), sel, 10, 3, 5)).toEqual({ type: 'clear' });
  });
});
