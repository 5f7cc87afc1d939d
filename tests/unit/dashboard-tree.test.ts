// The dashboard builder's tree edits: the same trees Python's dashboard_objs makes (insert, remove,
// swap), a top-level height that gives each box room, a grid of two a row, moves by direction and by
// drop, resizing, and nothing unknown lost.
import { describe, expect, it } from 'vitest';
import {
  boxPaths,
  appendToGrid,
  boxRects,
  insertBox,
  moveBox,
  moveInDirection,
  neighbour,
  nodeAt,
  parsePathKey,
  pathKey,
  removeBox,
  setSplitSize,
  splitPaths,
  swapBoxes,
  updateBox,
  type TreeBox,
  type TreeNode,
} from '@/components/dashboard-builder/tree';

const plot = (n: number, title = `p${n}`): TreeBox => ({ type: 'box', boxType: 'plot', fileId: `alice:${n}`, shareKey: null, title });
const empty = { type: 'box', boxType: 'empty' };
const titles = (root: TreeNode | null) => boxPaths(root).map((p) => (nodeAt(root!, p) as TreeBox).title);

// What dashboard_objs makes for: insert(a); insert(b, 'right', 1); insert(c, 'below', 2).
const clientMade = {
  type: 'split',
  direction: 'vertical',
  size: 1850,
  sizeUnit: 'px',
  first: {
    type: 'split',
    direction: 'horizontal',
    size: 50,
    sizeUnit: '%',
    first: plot(1),
    second: { type: 'split', direction: 'vertical', size: 50, sizeUnit: '%', first: plot(2), second: plot(3) },
  },
  second: empty,
};

describe('dashboard tree', () => {
  it("builds the client's own trees, its top-level height giving each box 450 px", () => {
    let root: TreeNode | null = insertBox(null, plot(1), null, 'right');
    expect(root).toEqual({ type: 'split', direction: 'vertical', size: 450, sizeUnit: 'px', first: plot(1), second: empty });
    root = insertBox(root, plot(2), ['first'], 'right');
    root = insertBox(root, plot(3), ['first', 'second'], 'below');
    expect(root).toEqual({ ...clientMade, size: 900 });
    // The filler below is the client's, never a box of the builder's.
    expect(boxPaths(root)).toEqual([
      ['first', 'first'],
      ['first', 'second', 'first'],
      ['first', 'second', 'second'],
    ]);
    expect(splitPaths(root)).toEqual([[], ['first'], ['first', 'second']]);
  });

  it('inserts above and on the left with the new box first, taking its share', () => {
    const root = insertBox(insertBox(null, plot(1), null, 'right'), plot(2), ['first'], 'left', 30) as TreeNode & { first: TreeNode };
    expect(root.first).toEqual({ type: 'split', direction: 'horizontal', size: 30, sizeUnit: '%', first: plot(2), second: plot(1) });
    const above = insertBox(root, plot(3), ['first', 'second'], 'above');
    expect(nodeAt(above, ['first', 'second'])).toMatchObject({ direction: 'vertical', first: plot(3), second: plot(1) });
    expect(() => insertBox(root, plot(4), ['second'], 'right')).toThrow();
  });

  it('removing a box gives its pane to its neighbour; the last one leaves the dashboard empty', () => {
    let root: TreeNode | null = removeBox(clientMade as TreeNode, ['first', 'second', 'first']);
    expect(root).toEqual({ ...clientMade, size: 450, first: { ...clientMade.first, second: plot(3) } });
    root = removeBox(root!, ['first', 'first']);
    expect(root).toEqual({ ...clientMade, size: 450, first: plot(3) });
    expect(removeBox(root!, ['first'])).toBeNull();
    // A lone box, or a tree not of the client's shape, keeps its shape.
    expect(removeBox(plot(1), [])).toBeNull();
    const plain: TreeNode = { type: 'split', direction: 'horizontal', size: 40, sizeUnit: '%', first: plot(1), second: empty as TreeBox };
    expect(removeBox(plain, ['first'])).toEqual(empty);
  });

  it('swaps, and moves a box beside another', () => {
    const swapped = swapBoxes(clientMade as TreeNode, ['first', 'first'], ['first', 'second', 'second']);
    expect(titles(swapped)).toEqual(['p3', 'p2', 'p1']);
    expect(swapBoxes(swapped, ['first', 'first'], ['first', 'first'])).toBe(swapped);
    const moved = moveBox(clientMade as TreeNode, ['first', 'second', 'second'], ['first', 'first'], 'below');
    expect(nodeAt(moved, ['first'])).toMatchObject({
      direction: 'horizontal',
      first: { direction: 'vertical', first: plot(1), second: plot(3) },
      second: plot(2),
    });
    expect((moved as { size: number }).size).toBe(900);
  });

  it('fills a grid of two a row, each row a share of the height, the dashboard 450 px a row', () => {
    const pair = (a: TreeNode, b: TreeNode): TreeNode => ({ type: 'split', direction: 'horizontal', size: 50, sizeUnit: '%', first: a, second: b });
    const rows = (size: number, a: TreeNode, b: TreeNode): TreeNode => ({ type: 'split', direction: 'vertical', size, sizeUnit: '%', first: a, second: b });
    let root: TreeNode | null = null;
    const heights: number[] = [];
    for (let i = 1; i <= 5; i++) {
      root = appendToGrid(root, plot(i));
      heights.push((root as { size: number }).size);
    }
    expect(heights).toEqual([450, 450, 900, 900, 1350]);
    expect(nodeAt(root!, ['first'])).toEqual(rows(33.33, pair(plot(1), plot(2)), rows(50, pair(plot(3), plot(4)), plot(5))));
    expect(boxRects(root).map((r) => [r.rect.x, r.rect.w])).toEqual([
      [0, 500],
      [500, 500],
      [0, 500],
      [500, 500],
      [0, 1000],
    ]);
    // Rows resized keep their shares among themselves; a new row takes the last row's.
    const four = [1, 2, 3, 4].reduce<TreeNode | null>((r, n) => appendToGrid(r, plot(n)), null)!;
    const tall = setSplitSize(four, ['first'], 70);
    expect(nodeAt(appendToGrid(tall, plot(5)), ['first'])).toMatchObject({ size: 53.85, second: { size: 50, first: pair(plot(3), plot(4)), second: plot(5) } });
    // A dashboard made elsewhere: its last row full, a new row below it, what it holds kept.
    const added = appendToGrid(clientMade as TreeNode, plot(4));
    expect(nodeAt(added, ['first'])).toEqual(rows(50, clientMade.first as TreeNode, plot(4)));
    expect(added).toMatchObject({ size: 1800, second: empty });
  });

  it('removing a whole row of the grid: the others share its height as they shared theirs, no row stretched into its place', () => {
    const pair = (a: TreeNode, b: TreeNode): TreeNode => ({ type: 'split', direction: 'horizontal', size: 50, sizeUnit: '%', first: a, second: b });
    const rows = (size: number, a: TreeNode, b: TreeNode): TreeNode => ({ type: 'split', direction: 'vertical', size, sizeUnit: '%', first: a, second: b });
    const five = [1, 2, 3, 4, 5].reduce<TreeNode | null>((r, n) => appendToGrid(r, plot(n)), null)!;
    // The last row.
    const lastGone = removeBox(five, ['first', 'second', 'second'])!;
    expect(nodeAt(lastGone, ['first'])).toEqual(rows(50, pair(plot(1), plot(2)), pair(plot(3), plot(4))));
    expect((lastGone as { size: number }).size).toBe(900);
    // A middle row, once it is one box (its pair's other box removed first, which gives it the row).
    const alone = removeBox(five, ['first', 'second', 'first', 'second'])!;
    expect(nodeAt(alone, ['first', 'second', 'first'])).toEqual(plot(3));
    const middleGone = removeBox(alone, ['first', 'second', 'first'])!;
    expect(nodeAt(middleGone, ['first'])).toEqual(rows(50, pair(plot(1), plot(2)), plot(5)));
    // The first row.
    expect(nodeAt(removeBox(lastGone, ['first', 'first'])!, ['first'])).toEqual(pair(plot(3), plot(4)));
  });

  it('finds neighbours by where boxes are drawn, and moves a box by direction', () => {
    const root = clientMade as TreeNode;
    const a: ['first', 'first'] = ['first', 'first'];
    const b = ['first', 'second', 'first'] as const;
    const c = ['first', 'second', 'second'] as const;
    expect(boxRects(root).map((r) => r.rect)).toEqual([
      { x: 0, y: 0, w: 500, h: 1000 },
      { x: 500, y: 0, w: 500, h: 500 },
      { x: 500, y: 500, w: 500, h: 500 },
    ]);
    expect(neighbour(root, a, 'right')).toEqual(b);
    expect(neighbour(root, [...c], 'left')).toEqual(a);
    expect(neighbour(root, [...b], 'down')).toEqual(c);
    expect(neighbour(root, [...b], 'up')).toBeNull();
    expect(neighbour(root, a, 'left')).toBeNull();
    const step = moveInDirection(root, [...c], 'up')!;
    expect(step.path).toEqual(b);
    expect(titles(step.root)).toEqual(['p1', 'p3', 'p2']);
    expect(moveInDirection(root, a, 'down')).toBeNull();
  });

  it('resizes splits and edits boxes, keeping what it does not know about', () => {
    const odd = { ...clientMade, custom: { kept: true }, first: { ...clientMade.first, extra: 1, first: { ...plot(1), note: 'x' } } } as TreeNode;
    const sized = setSplitSize(odd, ['first'], 70);
    expect(nodeAt(sized, ['first'])).toMatchObject({ size: 70, extra: 1 });
    const titled = updateBox(sized, ['first', 'first'], { title: 'New' });
    expect(nodeAt(titled, ['first', 'first'])).toEqual({ ...plot(1), note: 'x', title: 'New' });
    expect((titled as unknown as { custom: unknown }).custom).toEqual({ kept: true });
    // Untouched branches are the same objects.
    expect(nodeAt(titled, ['first', 'second'])).toBe(nodeAt(odd, ['first', 'second']));
    expect(setSplitSize(odd, ['first', 'first'], 10)).toBe(odd);
    expect(parsePathKey(pathKey(['first', 'second']))).toEqual(['first', 'second']);
    expect(parsePathKey(pathKey([]))).toEqual([]);
  });
});
