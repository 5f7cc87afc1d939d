// Where a dashboard's boxes go on a wide screen: its split tree (the Python client's format) laid out as
// nested panes, each with a height in pixels and, for the first pane of a split, a flex basis (a share
// or a width in pixels). Heights are decided top-down from what each box needs, so a split of shares
// is as tall as its fuller side asks. Pure: the page, its card image and the tests share it.

/** The shapes this reads of a split tree (lib/core/documents/dashboard-content.ts holds the full format). */
export type LayoutInput =
  | { type: 'split'; direction: string; size: number; sizeUnit: string; first: LayoutInput; second: LayoutInput }
  | { type: 'box'; boxType: string };

export type LaidOut<B> =
  | { kind: 'split'; path: string; direction: 'horizontal' | 'vertical'; basis: string; height: number; first: LaidOut<B>; second: LaidOut<B> }
  | { kind: 'box'; path: string; box: B; height: number };

/** What a box needs on a wide screen: a chart a readable height; a text box less; an empty one nothing. */
export const BOX_HEIGHTS: Record<string, number> = { plot: 400, text: 200 };
/** The tallest a dashboard is laid out (a deep nest of shares would otherwise ask for more than any screen). */
export const MAX_HEIGHT = 20_000;
/** A size in pixels beyond this is taken as this (widths and heights alike). */
export const MAX_PANE_PX = 10_000;

const boxHeight = (box: { boxType: string }) => BOX_HEIGHTS[box.boxType] ?? 0;

/** A share (0..1) of a `%` size; null for a size in pixels. */
function shareOf(split: { size: number; sizeUnit: string }): number | null {
  if (split.sizeUnit === 'px') return null;
  const size = Number.isFinite(split.size) ? split.size : 50;
  return Math.min(Math.max(size, 0), 100) / 100;
}

const pixelsOf = (size: number) => (Number.isFinite(size) ? Math.min(Math.max(size, 0), MAX_PANE_PX) : 0);

/** The height a node asks for: its boxes each at least their height. */
export function naturalHeight(node: LayoutInput): number {
  if (node.type === 'box') return boxHeight(node);
  const first = naturalHeight(node.first);
  const second = naturalHeight(node.second);
  if (node.direction !== 'vertical') return Math.min(Math.max(first, second), MAX_HEIGHT);
  const share = shareOf(node);
  if (share === null) return Math.min(pixelsOf(node.size) + second, MAX_HEIGHT);
  const need = share <= 0 ? second : share >= 1 ? first : Math.max(first / share, second / (1 - share));
  return Math.min(Math.ceil(need), MAX_HEIGHT);
}

/**
 * The tree laid out at its natural height. Paths name nodes by the way down (`f` first, `s` second;
 * the root is ''), unique and stable for keys and test hooks.
 */
export function layoutDashboard<B extends LayoutInput & { type: 'box' }>(root: B | LayoutInput): LaidOut<B> {
  return place<B>(root, naturalHeight(root), '');
}

/** The same layout with each box replaced by what `f` makes of it. */
export function mapBoxes<A, B>(node: LaidOut<A>, f: (box: A, path: string) => B): LaidOut<B> {
  return node.kind === 'box' ? { ...node, box: f(node.box, node.path) } : { ...node, first: mapBoxes(node.first, f), second: mapBoxes(node.second, f) };
}

function place<B>(node: LayoutInput, height: number, path: string): LaidOut<B> {
  if (node.type === 'box') return { kind: 'box', path, box: node as B, height };
  const direction = node.direction === 'horizontal' ? 'horizontal' : 'vertical';
  const share = shareOf(node);
  const basis = share === null ? `${pixelsOf(node.size)}px` : `${round(share * 100)}%`;
  let first = height;
  let second = height;
  if (direction === 'vertical') {
    first = share === null ? Math.min(pixelsOf(node.size), height) : Math.round(height * share);
    second = height - first;
  }
  return { kind: 'split', path, direction, basis, height, first: place<B>(node.first, first, `${path}f`), second: place<B>(node.second, second, `${path}s`) };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The boxes in reading order (first before second, depth first): how a phone stacks them. */
export function boxesInOrder<B>(node: LaidOut<B>): Extract<LaidOut<B>, { kind: 'box' }>[] {
  return node.kind === 'box' ? [node] : [...boxesInOrder(node.first), ...boxesInOrder(node.second)];
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
  boxType: string;
}

/** Each box's rectangle when the tree fills `width` x `height` (the card image draws these). */
export function boxRects(node: LayoutInput, width: number, height: number, x = 0, y = 0): Rect[] {
  if (node.type === 'box') return [{ x, y, width, height, boxType: node.boxType }];
  const share = shareOf(node);
  const horizontal = node.direction === 'horizontal';
  const whole = horizontal ? width : height;
  // Pixels are of the page's layout, not of this drawing: scaled as the root's natural height is to `height`.
  const scale = horizontal ? 1 : height / Math.max(naturalHeight(node), 1);
  const firstSize = Math.min(whole, share === null ? pixelsOf(node.size) * (horizontal ? width / 1280 : scale) : whole * share);
  return horizontal
    ? [...boxRects(node.first, firstSize, height, x, y), ...boxRects(node.second, width - firstSize, height, x + firstSize, y)]
    : [...boxRects(node.first, width, firstSize, x, y), ...boxRects(node.second, width, height - firstSize, x, y + firstSize)];
}
