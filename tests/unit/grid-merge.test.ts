// A refused grid save's edits re-applied onto the grid as someone else saved it (components/grid-editor/grid-merge.ts).
import { describe, expect, it } from 'vitest';
import { type BaseColumn, MAX_CONFLICTS_LISTED, mergeEdits } from '@/components/grid-editor/grid-merge';
import { GridModel } from '@/components/grid-editor/grid-model';
import { compactValues } from '@/components/grid-editor/grid-values';

const base = (cols: Record<string, [string, unknown[]]>) =>
  new Map<string, BaseColumn>(Object.entries(cols).map(([uid, [name, v]]) => [uid, { name, values: v }]));
const plain = (values: ArrayLike<unknown>) => Array.from(values as unknown[], (v) => (typeof v === 'number' && Number.isNaN(v) ? '' : v));

describe('mergeEdits', () => {
  const was = base({ a: ['a', [1, 2, 3]], b: ['b', ['x', 'y', 'z']] });

  it('takes yours where only you changed a cell, theirs where only they did, and lists the cells you both changed (yours kept)', () => {
    const merged = mergeEdits(
      was,
      [
        { uid: 'a', name: 'a', values: [10, 2, 30], edited: true },
        { uid: 'b', name: 'b', values: ['x', 'y', 'z'], edited: false },
      ],
      [
        { uid: 'a', name: 'a', values: [1, 20, 31] },
        { uid: 'b', name: 'b', values: ['x', 'Y', 'z'] },
      ],
    );
    expect(merged.columns.map((c) => [c.uid, c.name, plain(c.values), c.changed])).toEqual([
      ['a', 'a', [10, 20, 30], true],
      ['b', 'b', ['x', 'Y', 'z'], false],
    ]);
    expect(merged.applied).toBe(1);
    expect(merged.conflicts).toEqual([{ column: 'a', row: 2, theirs: 31, yours: 30 }]);
    expect(merged.notes).toEqual([]);
  });

  it('the same change on both sides is no conflict; cells past either end are empty', () => {
    const merged = mergeEdits(was, [{ uid: 'a', name: 'a', values: [1, 5, 3, 4], edited: true }], [{ uid: 'a', name: 'a', values: [1, 5] }]);
    expect(plain(merged.columns[0].values)).toEqual([1, 5, '', 4]);
    // Row 3 (index 2): you kept 3, they emptied it: theirs. Row 4 is yours alone.
    expect(merged.conflicts).toEqual([]);
    const emptied = mergeEdits(was, [{ uid: 'a', name: 'a', values: [1, 2, 3], edited: false }], [{ uid: 'a', name: 'a', values: [1] }]);
    expect(plain(emptied.columns[0].values)).toEqual([1]);
  });

  it('columns: yours added, theirs added, deleted by you, deleted by them after your edits, and a name both gave', () => {
    const merged = mergeEdits(
      was,
      [
        { uid: 'a', name: 'a', values: [9, 2, 3], edited: true },
        { uid: null, name: 'total', values: [1, 1, 1], edited: true },
      ],
      [
        { uid: 'b', name: 'b', values: ['x', 'y', 'z'] },
        { uid: 'n', name: 'total', values: [2, 2, 2] },
      ],
    );
    expect(merged.columns.map((c) => [c.uid, c.name, plain(c.values)])).toEqual([
      [null, 'a', [9, 2, 3]],
      [null, 'total (2)', [1, 1, 1]],
      ['n', 'total', [2, 2, 2]],
    ]);
    expect(merged.notes).toEqual([
      '“a” was deleted by someone else; your edits to it are kept as a new column.',
      'Someone else named a column “total” too; yours is now “total (2)”.',
    ]);
  });

  it('your rename wins over an unchanged name; both renamed keeps yours, said', () => {
    const theirs = [{ uid: 'a', name: 'alpha', values: [1, 2, 3] }];
    expect(mergeEdits(was, [{ uid: 'a', name: 'a', values: [1, 2, 3], edited: false }], theirs).columns[0].name).toBe('alpha');
    const both = mergeEdits(was, [{ uid: 'a', name: 'first', values: [1, 2, 3], edited: false }], theirs);
    expect(both.columns[0].name).toBe('first');
    expect(both.notes).toEqual(['“a” was renamed “alpha” by someone else; your name “first” is kept.']);
  });

  it('lists at most MAX_CONFLICTS_LISTED conflicts and says how many more', () => {
    const n = MAX_CONFLICTS_LISTED + 5;
    const merged = mergeEdits(
      base({ a: ['a', Array(n).fill(0)] }),
      [{ uid: 'a', name: 'a', values: Array(n).fill(1), edited: true }],
      [{ uid: 'a', name: 'a', values: Array(n).fill(2) }],
    );
    expect(merged.conflicts).toHaveLength(MAX_CONFLICTS_LISTED);
    expect(merged.notes).toEqual(['5 more cells conflict than are listed; yours are kept in them.']);
  });
});

describe('GridModel.rebase', () => {
  it('makes their grid the saved one and the re-applied edits one unsaved, undoable step; row edits cannot be re-applied', () => {
    const model = new GridModel([{ uid: 'a', name: 'a', values: compactValues([1, 2]) }]);
    model.setBlock(0, 0, [[5]]);
    expect(model.rowsReshaped).toBe(false);
    const theirs = [{ uid: 'a', name: 'a', values: compactValues([1, 7]) }];
    const { base: was, mine } = model.sinceSave();
    model.rebase(mergeEdits(was, mine, theirs), theirs);
    expect([model.cell(0, 0), model.cell(1, 0)]).toEqual([5, 7]);
    expect(model.changed([{ uid: 'a', name: 'a' }])).toBe(true);
    expect(model.saveItems()).toMatchObject([{ uid: 'a', name: 'a' }]);
    expect(plain((model.saveItems()[0] as { values: ArrayLike<unknown> }).values)).toEqual([5, 7]);
    model.undo();
    expect([model.cell(0, 0), model.cell(1, 0)]).toEqual([1, 7]);
    expect(model.changed([{ uid: 'a', name: 'a' }])).toBe(false);
    model.insertRows(0, 1);
    expect(model.rowsReshaped).toBe(true);
    model.undo();
    expect(model.rowsReshaped).toBe(false);
  });
});
