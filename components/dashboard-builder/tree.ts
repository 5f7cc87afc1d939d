// The dashboard builder's edits, made on the client's own layout tree (Python's dashboard_objs): a
// binary tree of splits (`direction` "horizontal": first left, second right; "vertical": first above,
// second below; `size` of the first pane in `sizeUnit` "%" or "px") and boxes. Every edit copies only
// the nodes on its path, so whatever a node holds that the builder does not know about is kept as is.

import type { DashboardBox, DashboardNode, DashboardSplit } from '@/lib/core/documents/dashboard-content';

export type Side = 'left' | 'right' | 'above' | 'below';
export type Direction = 'left' | 'right' | 'up' | 'down';
export type Branch = 'first' | 'second';
export type Path = Branch[];

/** The builder's names for the one dashboard tree type, content's (lib/core/documents/dashboard-content.ts). */
export type TreeBox = DashboardBox;
export type TreeSplit = DashboardSplit;
export type TreeNode = DashboardNode;

/** The height the builder gives each box at least: a chart readable at a glance, two rows on a laptop's screen. */
export const BOX_HEIGHT = 450;
/** The tallest the builder makes the dashboard by itself (its "Sizes" may go further). */
export const MAX_AUTO_HEIGHT = 10_000;

/**
 * The height at which every box of `node` is at least BOX_HEIGHT tall (an empty box asks for nothing),
 * as the page lays the panes out (lib/core/documents/dashboard-layout.ts `naturalHeight`).
 */
function neededHeight(node: TreeNode): number {
  if (node.type === 'box') return node.boxType === 'empty' ? 0 : BOX_HEIGHT;
  const [first, second] = [neededHeight(node.first), neededHeight(node.second)];
  if (node.direction !== 'vertical') return Math.max(first, second);
  if (node.sizeUnit === 'px') return node.size + second;
  const share = Math.min(Math.max(node.size, 0), 100) / 100;
  return share <= 0 ? second : share >= 1 ? first : Math.max(first / share, second / (1 - share));
}

export const emptyBox = (): TreeBox => ({ type: 'box', boxType: 'empty' });

export function nodeAt(root: TreeNode, path: Path): TreeNode | undefined {
  let at: TreeNode | undefined = root;
  for (const b of path) at = at?.type === 'split' ? at[b] : undefined;
  return at;
}

/** `root` with the node at `path` replaced by `node` (the nodes above it copied, the rest shared). */
export function replaceAt(root: TreeNode, path: Path, node: TreeNode): TreeNode {
  if (!path.length) return node;
  if (root.type !== 'split') throw new Error('No node at that path.');
  const [head, ...rest] = path;
  return { ...root, [head]: replaceAt(root[head], rest, node) };
}

/**
 * The client's top level: a vertical split sized in pixels whose second pane is an empty box that only
 * holds the space below (the client never numbers it). The builder neither shows nor fills it.
 */
export function isClientTop(root: TreeNode | null): root is TreeSplit {
  return root?.type === 'split' && root.direction === 'vertical' && root.sizeUnit === 'px' && root.second.type === 'box' && root.second.boxType === 'empty';
}

const isFiller = (root: TreeNode, path: Path) => isClientTop(root) && path.length === 1 && path[0] === 'second';

/** The boxes of the layout in the client's order (depth first, first before second), without the top-level filler. */
export function boxPaths(root: TreeNode | null): Path[] {
  if (!root) return [];
  const out: Path[] = [];
  const walk = (node: TreeNode, path: Path) => {
    if (node.type === 'split') {
      walk(node.first, [...path, 'first']);
      walk(node.second, [...path, 'second']);
    } else if (!isFiller(root, path)) out.push(path);
  };
  walk(root, []);
  return out;
}

/** The splits of the layout (paths), outermost first. */
export function splitPaths(root: TreeNode | null): Path[] {
  if (!root) return [];
  const out: Path[] = [];
  const walk = (node: TreeNode, path: Path) => {
    if (node.type !== 'split') return;
    out.push(path);
    walk(node.first, [...path, 'first']);
    walk(node.second, [...path, 'second']);
  };
  walk(root, []);
  return out;
}

const samePath = (a: Path, b: Path) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * After a box is added or removed, the client's top level grows or shrinks with the boxes, as the
 * client's own edits do; to the height that gives each box BOX_HEIGHT (dashboard_objs' own heights
 * make two boxes side by side 1,500 pixels tall).
 */
function resized(root: TreeNode | null): TreeNode | null {
  if (!isClientTop(root)) return root;
  return { ...root, size: Math.min(MAX_AUTO_HEIGHT, Math.round(neededHeight(root.first) / 50) * 50) };
}

const SPLIT: Record<Side, { direction: TreeSplit['direction']; before: boolean }> = {
  left: { direction: 'horizontal', before: true },
  right: { direction: 'horizontal', before: false },
  above: { direction: 'vertical', before: true },
  below: { direction: 'vertical', before: false },
};

/**
 * `box` added on `side` of the node at `target` (their pane split in two, the new box taking `percent`
 * of it), as the client's `insert` does; the first box of an empty dashboard makes the client's top level.
 */
export function insertBox(root: TreeNode | null, box: TreeBox, target: Path | null, side: Side, percent = 50): TreeNode {
  if (!root) return resized({ type: 'split', direction: 'vertical', size: 500, sizeUnit: 'px', first: box, second: emptyBox() })!;
  const at = target ?? boxPaths(root).at(-1) ?? [];
  const old = nodeAt(root, at);
  if (!old || isFiller(root, at)) throw new Error('No box at that path.');
  const { direction, before } = SPLIT[side];
  const split: TreeSplit = before
    ? { type: 'split', direction, size: percent, sizeUnit: '%', first: box, second: old }
    : { type: 'split', direction, size: 100 - percent, sizeUnit: '%', first: old, second: box };
  return resized(replaceAt(root, at, split))!;
}

const isRowSplit = (node: TreeNode): node is TreeSplit => node.type === 'split' && node.direction === 'vertical' && node.sizeUnit === '%';
const roundShare = (n: number) => Math.round(n * 100) / 100;

/**
 * The grid's rows: the chain of vertical splits (in shares) down the second panes from the top, each
 * row's share of the height. Any layout has such a chain (maybe of no split), so dashboards made elsewhere have rows too.
 */
function gridRows(root: TreeNode): { top: Path; chain: TreeSplit[]; rows: TreeNode[]; shares: number[] } {
  const top: Path = isClientTop(root) ? ['first'] : [];
  const chain: TreeSplit[] = [];
  const shares: number[] = [];
  let node = nodeAt(root, top)!;
  let rest = 1;
  while (isRowSplit(node)) {
    chain.push(node);
    shares.push(rest * (Math.min(Math.max(node.size, 0), 100) / 100));
    rest -= shares.at(-1)!;
    node = node.second;
  }
  return { top, chain, rows: [...chain.map((s) => s.first), node], shares: [...shares, rest] };
}

/** `rows` with their `shares` of the height, as the chain rebuilt from the bottom (`chain`'s splits lend their other settings). */
function rowsChain(rows: TreeNode[], shares: number[], chain: TreeSplit[]): TreeNode {
  let grid = rows.at(-1)!;
  let below = shares.at(-1)!;
  for (let i = rows.length - 2; i >= 0; i--) {
    const whole = shares[i] + below;
    const base = chain[i] ?? { type: 'split', direction: 'vertical', sizeUnit: '%' };
    grid = { ...base, size: roundShare(whole > 0 ? (100 * shares[i]) / whole : 50), first: rows[i], second: grid } as TreeSplit;
    below = whole;
  }
  return grid;
}

/**
 * `box` added at the next place of a grid of two a row: beside the last row's box when it is alone,
 * else as a new row below, taking the last row's share of the height while the others keep theirs
 * among themselves, so a grid of equal rows stays one.
 */
export function appendToGrid(root: TreeNode | null, box: TreeBox): TreeNode {
  if (!root) return insertBox(null, box, null, 'right');
  const { top, chain, rows, shares } = gridRows(root);
  const last = rows.at(-1)!;
  if (last.type === 'box' && last.boxType !== 'empty') {
    const path: Path = [...top, ...chain.map((): Branch => 'second')];
    return resized(replaceAt(root, path, { type: 'split', direction: 'horizontal', size: 50, sizeUnit: '%', first: last, second: box }))!;
  }
  const rest = shares.at(-1)!;
  return resized(replaceAt(root, top, rowsChain([...rows, box], [...shares, rest > 0 ? rest : 1], chain)))!;
}

/** The box at `path` removed: the other pane of its split takes the split's place (the client's `remove`). */
export function removeBox(root: TreeNode, path: Path): TreeNode | null {
  if (!path.length) return null;
  // A whole row of the grid: the rows below move up and the others share its height as they shared theirs (no row grows into its place).
  const { top, chain, rows, shares } = gridRows(root);
  const row = chain.length
    ? rows.findIndex((_, i) => samePath(path, [...top, ...Array<Branch>(i).fill('second'), ...(i < chain.length ? ['first' as const] : [])]))
    : -1;
  if (row >= 0) {
    const keep = (_: unknown, i: number) => i !== row;
    const kept = rows.filter(keep);
    const left = shares.filter(keep);
    const sum = left.reduce((a, b) => a + b, 0);
    const grid = rowsChain(
      kept,
      left.map((x) => (sum > 0 ? x / sum : 1)),
      chain.filter((_, i) => i !== Math.min(row, chain.length - 1)),
    );
    return resized(replaceAt(root, top, grid));
  }
  const parent = path.slice(0, -1);
  const split = nodeAt(root, parent) as TreeSplit;
  const otherBranch: Branch = path.at(-1) === 'first' ? 'second' : 'first';
  const next = replaceAt(root, parent, split[otherBranch]);
  // Only the filler left: the dashboard is empty again, as the client leaves it.
  if (isFiller(root, [...parent, otherBranch])) return null;
  return resized(next);
}

/** The nodes at `a` and `b` trade places (the client's `swap`). */
export function swapBoxes(root: TreeNode, a: Path, b: Path): TreeNode {
  const na = nodeAt(root, a);
  const nb = nodeAt(root, b);
  if (!na || !nb || samePath(a, b)) return root;
  return replaceAt(replaceAt(root, a, nb), b, na);
}

/** Where `node` is in `root` (by identity), or null. */
export function pathOf(root: TreeNode | null, node: TreeNode): Path | null {
  if (!root) return null;
  if (root === node) return [];
  if (root.type !== 'split') return null;
  for (const b of ['first', 'second'] as const) {
    const p = pathOf(root[b], node);
    if (p) return [b, ...p];
  }
  return null;
}

/** The box at `from` taken out and put on `side` of the box at `to`. */
export function moveBox(root: TreeNode, from: Path, to: Path, side: Side): TreeNode {
  const box = nodeAt(root, from) as TreeBox;
  const target = nodeAt(root, to);
  if (!box || !target || samePath(from, to)) return root;
  const without = removeBox(root, from);
  const at = pathOf(without, target);
  if (!without || !at) return root;
  return insertBox(without, box, at, side);
}

/** The split at `path` with its first pane `size` (in its own unit). */
export function setSplitSize(root: TreeNode, path: Path, size: number): TreeNode {
  const split = nodeAt(root, path);
  if (split?.type !== 'split') return root;
  return replaceAt(root, path, { ...split, size });
}

/** The box at `path` with `patch`'s fields. */
export function updateBox(root: TreeNode, path: Path, patch: Partial<TreeBox>): TreeNode {
  const box = nodeAt(root, path);
  if (box?.type !== 'box') return root;
  return replaceAt(root, path, { ...box, ...patch } as TreeBox);
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A pixel-sized pane's share of its split, on the nominal 1000×1000 canvas the rectangles use. */
const share = (split: TreeSplit) => Math.min(0.95, Math.max(0.05, split.sizeUnit === 'px' ? split.size / 1000 : split.size / 100));

/** Each box's rectangle on a nominal 1000×1000 canvas (the filler's space given to the top pane). */
export function boxRects(root: TreeNode | null): { path: Path; rect: Rect }[] {
  if (!root) return [];
  const out: { path: Path; rect: Rect }[] = [];
  const walk = (node: TreeNode, path: Path, r: Rect) => {
    if (node.type === 'box') {
      out.push({ path, rect: r });
      return;
    }
    if (!path.length && isClientTop(root)) return walk(node.first, ['first'], r);
    const f = share(node);
    const [a, b]: [Rect, Rect] =
      node.direction === 'horizontal'
        ? [
            { ...r, w: r.w * f },
            { ...r, x: r.x + r.w * f, w: r.w * (1 - f) },
          ]
        : [
            { ...r, h: r.h * f },
            { ...r, y: r.y + r.h * f, h: r.h * (1 - f) },
          ];
    walk(node.first, [...path, 'first'], a);
    walk(node.second, [...path, 'second'], b);
  };
  walk(root, [], { x: 0, y: 0, w: 1000, h: 1000 });
  return out;
}

const EPS = 1e-6;

/** The box next to the one at `path` in `dir` (touching it, overlapping it most), or null at the edge. */
export function neighbour(root: TreeNode | null, path: Path, dir: Direction): Path | null {
  const rects = boxRects(root);
  const me = rects.find((r) => samePath(r.path, path))?.rect;
  if (!me) return null;
  const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);
  let best: { path: Path; gap: number; overlap: number } | null = null;
  for (const { path: p, rect: r } of rects) {
    if (samePath(p, path)) continue;
    const horizontal = dir === 'left' || dir === 'right';
    const gap = dir === 'left' ? me.x - (r.x + r.w) : dir === 'right' ? r.x - (me.x + me.w) : dir === 'up' ? me.y - (r.y + r.h) : r.y - (me.y + me.h);
    const o = horizontal ? overlap(me.y, me.y + me.h, r.y, r.y + r.h) : overlap(me.x, me.x + me.w, r.x, r.x + r.w);
    if (gap < -EPS || o <= EPS) continue;
    if (!best || gap < best.gap - EPS || (Math.abs(gap - best.gap) <= EPS && o > best.overlap)) best = { path: p, gap, overlap: o };
  }
  return best?.path ?? null;
}

/** The box at `path` moved one place in `dir`: it trades places with its neighbour there. */
export function moveInDirection(root: TreeNode, path: Path, dir: Direction): { root: TreeNode; path: Path } | null {
  const other = neighbour(root, path, dir);
  return other ? { root: swapBoxes(root, path, other), path: other } : null;
}

/** A path as a string (React keys, form values) and back. */
export const pathKey = (path: Path) => (path.length ? path.join('.') : 'root');
export const parsePathKey = (key: string): Path => (key === 'root' ? [] : (key.split('.') as Path));
