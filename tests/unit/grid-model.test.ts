// The grid editor's model (components/grid-editor/grid-model.ts, its values and texts): edits, their undo and redo, the
// compact number columns, and what a save sends.
import { describe, expect, it } from 'vitest';
import { GridModel } from '@/components/grid-editor/grid-model';
import { csvParts } from '@/components/grid-editor/grid-text';
import { compactValues, parseCell } from '@/components/grid-editor/grid-values';

const grid = () =>
  new GridModel([
    { uid: 'aaaaaa', name: 'x', values: compactValues([1, 2, 3]) },
    { uid: 'bbbbbb', name: 'y', values: compactValues(['a', 'b', 'c']) },
  ]);
const table = (m: GridModel) => Array.from({ length: m.rows }, (_, r) => m.columns.map((_, c) => m.cell(r, c)));
const body = (m: GridModel) => JSON.parse(m.saveBody('7')) as { base: string; cols: { uid?: string; name: string; data?: unknown[] }[] };

describe('grid model', () => {
  it('reads typed text as numbers or text, and holds number columns compactly', () => {
    expect([parseCell('12'), parseCell(' -2.5e3 '), parseCell('1e400'), parseCell('N/A'), parseCell('')]).toEqual([12, -2500, '1e400', 'N/A', '']);
    expect(compactValues([1, '', 2])).toBeInstanceOf(Float64Array);
    expect(compactValues([1, 'a'])).toEqual([1, 'a']);
  });

  it('pastes a block that grows the rows, undoes and redoes it exactly; a save sends only changed data', () => {
    const m = grid();
    m.setBlock(2, 0, [
      [9, 'p'],
      [10, 'q'],
      ['t', 'r', 'cut'],
    ]);
    expect(table(m)).toEqual([
      [1, 'a'],
      [2, 'b'],
      [9, 'p'],
      [10, 'q'],
      ['t', 'r'],
    ]);
    expect(m.undo()).toBe(true);
    expect(table(m)).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(body(m).cols).toEqual([
      { uid: 'aaaaaa', name: 'x' },
      { uid: 'bbbbbb', name: 'y' },
    ]);
    expect(m.redo()).toBe(true);
    expect(body(m).cols[0]).toEqual({ uid: 'aaaaaa', name: 'x', data: [1, 2, 9, 10, 't'] });
    m.saved([{ uid: 'aaaaaa' }, { uid: 'bbbbbb' }]);
    expect(body(m).cols.every((c) => c.data === undefined)).toBe(true);
  });

  it('adds and deletes rows in every column, padding shorter ones, with undo', () => {
    const m = new GridModel([
      { uid: 'aaaaaa', name: 'x', values: compactValues([1, 2, 3]) },
      { uid: 'bbbbbb', name: 'y', values: compactValues(['a']) },
    ]);
    m.insertRows(1, 2);
    expect(table(m)).toEqual([
      [1, 'a'],
      ['', ''],
      ['', ''],
      [2, ''],
      [3, ''],
    ]);
    expect(body(m).cols[0].data).toEqual([1, '', '', 2, 3]);
    m.deleteRows(0, 2);
    expect(table(m)).toEqual([
      ['', ''],
      [2, ''],
      [3, ''],
    ]);
    m.undo();
    m.undo();
    expect(table(m)).toEqual([
      [1, 'a'],
      [2, ''],
      [3, ''],
    ]);
    expect(m.columns[1].values).toEqual(['a']);
  });

  it('adds, renames, moves and deletes columns with undo; names stay unique', () => {
    const m = grid();
    m.addColumn(2);
    expect(m.columns.map((c) => c.name)).toEqual(['x', 'y', 'Column 3']);
    expect(m.renameColumn(2, 'x')).toMatch(/Another column is named 'x'/);
    expect(m.renameColumn(2, 'z')).toBeNull();
    m.moveColumn(2, 0);
    m.deleteColumn(1);
    expect(body(m).cols).toEqual([
      { name: 'z', data: [] },
      { uid: 'bbbbbb', name: 'y' },
    ]);
    m.undo();
    m.undo();
    m.undo();
    expect(m.columns.map((c) => c.name)).toEqual(['x', 'y', 'Column 3']);
    expect(m.blockText(0, 1, 0, 1)).toBe('1\ta\n2\tb');
    expect(csvParts(m.csvSource()).join('')).toBe('x,y,Column 3\r\n1,a,\r\n2,b,\r\n3,c,\r\n');
  });

  it('sends a column deleted by a save and brought back by an undo as a new column', () => {
    const m = grid();
    m.deleteColumn(0);
    expect(body(m).cols).toEqual([{ uid: 'bbbbbb', name: 'y' }]);
    m.saved([{ uid: 'bbbbbb' }]);
    m.undo();
    expect(body(m).cols).toEqual([
      { name: 'x', data: [1, 2, 3] },
      { uid: 'bbbbbb', name: 'y' },
    ]);
    expect(m.changed([{ uid: 'bbbbbb', name: 'y' }])).toBe(true);
  });

  it('writes text into a number column by turning it into a plain one', () => {
    const m = grid();
    m.setBlock(0, 0, [['n/a']]);
    expect(body(m).cols[0].data).toEqual(['n/a', 2, 3]);
    m.undo();
    expect(table(m)[0]).toEqual([1, 'a']);
  });
});
