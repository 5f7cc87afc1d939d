// The dashboard builder's reducer (components/dashboard-builder/builder-state.ts): boxes added at the
// grid's next place or beside the box last worked on, moved, dropped and edited, each an undoable step (typing a title one step);
// the file's name and sharing kept out of undo; a save's problems.
import { describe, expect, it } from 'vitest';
import { type BuilderAction, type BuilderState, boxLabels, builderReducer, startBuilder, targetOf } from '@/components/dashboard-builder/builder-state';
import { boxPaths, nodeAt, type TreeBox, type TreeNode } from '@/components/dashboard-builder/tree';
import type { BuilderData } from '@/lib/web/dashboard-builder';

const plot = (n: number): TreeBox => ({ type: 'box', boxType: 'plot', fileId: `alice:${n}`, shareKey: null, title: `p${n}` });
const data: BuilderData = {
  dashboard: { owner: 'alice', n: 9 },
  filename: 'Board',
  content: {
    layout: { type: 'split', direction: 'horizontal', size: 50, sizeUnit: '%', first: plot(1), second: plot(2) },
    settings: { title: 'T' },
    version: 2,
  },
  sharing: 'private',
  plots: {},
  csrf: 'c',
};
const titles = (s: BuilderState) => {
  const { layout } = s.board.present;
  return boxPaths(layout).map((p) => (nodeAt(layout as TreeNode, p) as TreeBox).title);
};
const run = (s: BuilderState, ...actions: BuilderAction[]) => actions.reduce(builderReducer, s);

describe('the dashboard builder state', () => {
  it("adds a box at the grid's next place (or beside the one last worked on), names and focuses it, and undoes and redoes the add", () => {
    const start = startBuilder(data);
    expect(start.board.present.title).toBe('T');
    expect(targetOf(start)).toBe('second');
    const added = run(start, { type: 'add', box: { type: 'box', boxType: 'text', title: 'n', text: '' }, what: 'Text box' });
    expect(titles(added)).toEqual(['p1', 'p2', 'n']);
    // The row of two full: a new row below it.
    expect(added.board.present.layout).toMatchObject({ direction: 'vertical', size: 50, first: data.content.layout, second: { title: 'n' } });
    expect(added.announce).toBe('Text box added.');
    expect(added.target).toBe('second');
    expect(added.focus?.selector).toContain('[data-path="second"]');
    const beside = run(
      start,
      { type: 'target', key: 'first' },
      { type: 'side', side: 'left' },
      { type: 'add', box: plot(3), what: 'Plot', plot: { fileId: 'alice:3', readable: true, title: 'Three', href: null, thumbnail: null } },
    );
    expect(titles(beside)).toEqual(['p3', 'p1', 'p2']);
    expect(boxLabels(beside.board.present.layout, beside.plots).get('first.first')).toBe('Box 1 (p3)');
    const undone = run(added, { type: 'undo' });
    expect(undone.board.present).toBe(start.board.present);
    expect(titles(run(undone, { type: 'redo' }))).toEqual(['p1', 'p2', 'n']);
  });

  it('typing in one field is one step; another field, a move or a resize is another', () => {
    let s = startBuilder(data);
    for (const title of ['O', 'On', 'One']) s = run(s, { type: 'edit', path: ['first'], patch: { title } });
    for (const title of ['B', 'Bo']) s = run(s, { type: 'title', title });
    s = run(s, { type: 'size', path: [], size: 60 }, { type: 'size', path: [], size: 70 });
    s = run(s, { type: 'move', path: ['first'], dir: 'right' });
    expect(titles(s)).toEqual(['p2', 'One']);
    expect(s.announce).toBe('Box 1 (One) moved right.');
    expect(s.focus?.selector).toBe('[data-path="second"] [data-move="right"]');
    expect(s.board.past).toHaveLength(4);
    s = run(s, { type: 'undo' });
    expect(titles(s)).toEqual(['One', 'p2']);
    expect(s.board.present.layout).toMatchObject({ size: 70 });
    s = run(s, { type: 'undo' }, { type: 'undo' });
    expect(s.board.present.title).toBe('T');
    expect(titles(s)).toEqual(['One', 'p2']);
    s = run(s, { type: 'undo' });
    expect(titles(s)).toEqual(['p1', 'p2']);
    expect(run(s, { type: 'undo' })).toBe(s);
  });

  it('a drop on the middle of a box swaps the two, on its edge places the box there; a move that cannot be made changes nothing', () => {
    const start = startBuilder(data);
    const swapped = run(start, { type: 'drop', from: 'first', to: 'second', side: null });
    expect(titles(swapped)).toEqual(['p2', 'p1']);
    expect(swapped.announce).toBe('Box 1 (p1) and Box 2 (p2) swapped.');
    const placed = run(start, { type: 'drop', from: 'first', to: 'second', side: 'below' });
    expect(titles(placed)).toEqual(['p2', 'p1']);
    expect(placed.announce).toBe('Box 1 (p1) placed below Box 2 (p2).');
    expect(run(start, { type: 'move', path: ['first'], dir: 'left' })).toBe(start);
    expect(run(start, { type: 'drop', from: 'first', to: 'first', side: null })).toBe(start);
  });

  it('the name and sharing are not undone; a removed box is; a save clears the problems and sets those of a refusal', () => {
    let s = run(startBuilder(data), { type: 'filename', filename: 'New name' }, { type: 'sharing', sharing: 'public' }, { type: 'remove', path: ['first'] });
    expect(titles(s)).toEqual(['p2']);
    expect(s.announce).toBe('Box 1 (p1) removed.');
    s = run(s, { type: 'undo' });
    expect(titles(s)).toEqual(['p1', 'p2']);
    expect([s.filename, s.sharing]).toEqual(['New name', 'public']);
    s = run(s, { type: 'saved', problems: [{ field: 'title', message: 'Too long' }] }, { type: 'saving' });
    expect([s.saving, s.problems]).toEqual([true, []]);
    s = run(s, { type: 'saved', problems: [{ field: 'box:first', message: 'Gone' }] });
    expect([s.saving, s.problems]).toEqual([false, [{ field: 'box:first', message: 'Gone' }]]);
  });
});
