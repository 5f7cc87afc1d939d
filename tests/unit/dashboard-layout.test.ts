// The dashboard's wide-screen layout: each box gets at least its height, shares and pixel sizes are
// honoured, the Python client's layouts (a top split of pixels over a trailing empty box) come out as
// Chart Studio drew them, and nonsense sizes are bounded.
import { describe, expect, it } from 'vitest';
import { BOX_HEIGHTS, boxRects, boxesInOrder, type LayoutInput, layoutDashboard, MAX_HEIGHT, naturalHeight } from '@/lib/core/documents/dashboard-layout';

const plot = (fileId: string) => ({ type: 'box', boxType: 'plot', fileId }) as const;
const empty = { type: 'box', boxType: 'empty' } as const;
const split = (direction: string, size: number, sizeUnit: string, first: LayoutInput, second: LayoutInput): LayoutInput => ({
  type: 'split',
  direction,
  size,
  sizeUnit,
  first,
  second,
});

describe('layoutDashboard', () => {
  it("lays the Python client's two boxes side by side in its 1500 px top pane", () => {
    // Dashboard.insert(a); insert(b, 'right', 1): the top split's first pane holds both, the second the empty trailing box.
    const root = split('vertical', 1500, 'px', split('horizontal', 50, '%', plot('a:1'), plot('a:2')), empty);
    const laid = layoutDashboard(root);
    expect(laid).toMatchObject({ kind: 'split', direction: 'vertical', basis: '1500px', height: 1500 });
    if (laid.kind !== 'split' || laid.first.kind !== 'split') throw new Error('not a split');
    expect(laid.first).toMatchObject({ direction: 'horizontal', basis: '50%', height: 1500, path: 'f' });
    expect(laid.first.first).toMatchObject({ kind: 'box', height: 1500, path: 'ff' });
    expect(laid.second).toMatchObject({ kind: 'box', height: 0, path: 's' });
  });

  it('makes a split of shares tall enough for its fuller side', () => {
    const root = split('vertical', 25, '%', plot('a:1'), split('vertical', 50, '%', plot('a:2'), plot('a:3')));
    // The first box has a quarter: the whole is four boxes tall; the second side needs two, has three.
    expect(naturalHeight(root)).toBe(4 * BOX_HEIGHTS.plot);
    const laid = layoutDashboard(root);
    const boxes = boxesInOrder(laid);
    expect(boxes.map((b) => [b.path, b.height])).toEqual([
      ['f', 400],
      ['sf', 600],
      ['ss', 600],
    ]);
    for (const b of boxes) expect(b.height).toBeGreaterThanOrEqual(BOX_HEIGHTS.plot);
  });

  it('keeps reading order: first before second, depth first', () => {
    const root = split('horizontal', 30, '%', split('vertical', 50, '%', plot('a:1'), plot('a:2')), plot('a:3'));
    expect(boxesInOrder(layoutDashboard(root)).map((b) => (b.box as { fileId?: string }).fileId)).toEqual(['a:1', 'a:2', 'a:3']);
  });

  it('bounds nonsense sizes: shares to 0..100, pixels and the whole height to their limits', () => {
    expect(layoutDashboard(split('horizontal', 250, '%', plot('a:1'), plot('a:2')))).toMatchObject({ basis: '100%' });
    expect(layoutDashboard(split('horizontal', -5, '%', plot('a:1'), plot('a:2')))).toMatchObject({ basis: '0%' });
    expect(layoutDashboard(split('horizontal', Number.NaN, '%', plot('a:1'), plot('a:2')))).toMatchObject({ basis: '50%' });
    expect(layoutDashboard(split('vertical', 1e12, 'px', plot('a:1'), plot('a:2'))).height).toBeLessThanOrEqual(MAX_HEIGHT);
    // A deep nest of halves would ask for 2^depth boxes' height.
    let deep: LayoutInput = plot('a:0');
    for (let i = 1; i < 40; i++) deep = split('vertical', 50, '%', plot(`a:${i}`), deep);
    expect(naturalHeight(deep)).toBe(MAX_HEIGHT);
  });

  it('gives the heights of a vertical split to its panes exactly', () => {
    const laid = layoutDashboard(split('vertical', 33, '%', plot('a:1'), plot('a:2')));
    if (laid.kind !== 'split') throw new Error('not a split');
    expect(laid.first.height + laid.second.height).toBe(laid.height);
  });
});

describe('boxRects', () => {
  it('tiles the picture with the boxes', () => {
    const rects = boxRects(split('horizontal', 25, '%', plot('a:1'), split('vertical', 50, '%', plot('a:2'), { type: 'box', boxType: 'text' })), 400, 200);
    expect(rects).toEqual([
      { x: 0, y: 0, width: 100, height: 200, boxType: 'plot' },
      { x: 100, y: 0, width: 300, height: 100, boxType: 'plot' },
      { x: 100, y: 100, width: 300, height: 100, boxType: 'text' },
    ]);
    const area = rects.reduce((sum, r) => sum + r.width * r.height, 0);
    expect(area).toBe(400 * 200);
  });
});
