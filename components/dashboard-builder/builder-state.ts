// The dashboard builder's state in one reducer, without React: the dashboard (its layout tree and
// title) with its undo history (components/undo-history.ts), the file's name and sharing, and the
// builder's own (where new boxes go, the plot picker, a drag, what to announce and to focus, a save
// under way and its problems).
import type { Visibility } from '@/lib/shared/sharing';
import { type History, record, redo, startHistory, undo } from '../undo-history';
import {
  appendToGrid,
  boxPaths,
  type Direction,
  insertBox,
  moveBox,
  moveInDirection,
  nodeAt,
  type Path,
  parsePathKey,
  pathKey,
  removeBox,
  type Side,
  setSplitSize,
  swapBoxes,
  type TreeBox,
  type TreeNode,
  updateBox,
} from './tree';
import type { BuilderData, BuilderPlot, SaveProblem } from '@/lib/web/dashboard-builder';

/** Where new boxes go: the next place of a grid of two a row, or beside the target box. */
export type Placement = 'grid' | Side;

/** What undo and redo walk: the dashboard's content the builder edits. */
export interface Board {
  layout: TreeNode | null;
  title: string;
}

export interface BuilderState {
  board: History<Board>;
  filename: string;
  /** null for a write collaborator, who edits the boxes alone. */
  sharing: Visibility | null;
  plots: Record<string, BuilderPlot>;
  /** The box new boxes go beside (its path key), and on which side, unless they fill the grid. */
  target: string;
  side: Placement;
  /** Said to screen readers (a live region). */
  announce: string;
  /** The control to focus once drawn (a selector), new each time. */
  focus: { selector: string } | null;
  picker: boolean;
  /** The box being dragged (its path key). */
  dragging: string | null;
  saving: boolean;
  problems: SaveProblem[];
}

export type BuilderAction =
  | { type: 'add'; box: TreeBox; what: string; plot?: BuilderPlot }
  | { type: 'move'; path: Path; dir: Direction }
  | { type: 'remove'; path: Path }
  /** `from` dropped on `to`: on its edge (`side`) it goes there, on its middle (null) the two swap. */
  | { type: 'drop'; from: string; to: string; side: Side | null }
  | { type: 'edit'; path: Path; patch: Partial<TreeBox> }
  | { type: 'size'; path: Path; size: number }
  | { type: 'title'; title: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'filename'; filename: string }
  | { type: 'sharing'; sharing: Visibility }
  | { type: 'target'; key: string }
  | { type: 'side'; side: Placement }
  | { type: 'picker'; open: boolean }
  | { type: 'drag'; key: string | null }
  | { type: 'saving' }
  /** A save's end: its problems when it was refused (a save that succeeded goes on to the dashboard's page). */
  | { type: 'saved'; problems: SaveProblem[] };

export function startBuilder(data: BuilderData): BuilderState {
  const title = typeof data.content.settings.title === 'string' ? data.content.settings.title : '';
  return {
    board: startHistory({ layout: data.content.layout, title }),
    filename: data.filename,
    sharing: data.sharing,
    plots: data.plots,
    target: '',
    side: 'grid',
    announce: '',
    focus: null,
    picker: false,
    dragging: null,
    saving: false,
    problems: [],
  };
}

/** A box as a person names it: its number in reading order, and its title or what it shows. */
function boxLabel(box: TreeBox, index: number, plots: Record<string, BuilderPlot>): string {
  const plot = box.boxType === 'plot' && box.fileId ? plots[box.fileId] : undefined;
  const name = box.title || (plot?.readable && plot.title) || box.boxType;
  return `Box ${index + 1} (${name})`;
}

/** Every box's label by its path key. */
export function boxLabels(layout: TreeNode | null, plots: Record<string, BuilderPlot>): Map<string, string> {
  return new Map(boxPaths(layout).map((p, i) => [pathKey(p), boxLabel(nodeAt(layout!, p) as TreeBox, i, plots)]));
}

/** The box new boxes go beside: the one last worked on, else the last box. */
export function targetOf(s: BuilderState): string {
  const { layout } = s.board.present;
  return boxLabels(layout, s.plots).has(s.target) ? s.target : pathKey(boxPaths(layout).at(-1) ?? []);
}

/** The state with a new layout as an undo step (`key`: what changed, to fold a run of the same change into one step). */
const withLayout = (s: BuilderState, layout: TreeNode | null, key: string | null = null): BuilderState => ({
  ...s,
  board: record(s.board, { ...s.board.present, layout }, key),
});

const focusOn = (selector: string) => ({ selector });

export function builderReducer(s: BuilderState, action: BuilderAction): BuilderState {
  const { layout } = s.board.present;
  const label = (key: string) => boxLabels(layout, s.plots).get(key);
  switch (action.type) {
    case 'add': {
      const plots = action.plot ? { ...s.plots, [action.plot.fileId]: action.plot } : s.plots;
      const target = targetOf(s);
      const next =
        s.side === 'grid' ? appendToGrid(layout, action.box) : insertBox(layout, action.box, layout && label(target) ? parsePathKey(target) : null, s.side);
      // The new box: the one not among the old boxes' places, found by identity.
      const at = boxPaths(next).find((p) => nodeAt(next, p) === action.box);
      const key = at ? pathKey(at) : null;
      return {
        ...withLayout({ ...s, plots }, next),
        target: key ?? s.target,
        focus: key ? focusOn(`[data-path="${key}"] .dashboard-box-title input, [data-path="${key}"] textarea`) : s.focus,
        announce: `${action.what} added.`,
      };
    }
    case 'move': {
      const step = layout && moveInDirection(layout, action.path, action.dir);
      if (!step) return s;
      const key = pathKey(step.path);
      return {
        ...withLayout(s, step.root),
        target: key,
        focus: focusOn(`[data-path="${key}"] [data-move="${action.dir}"]`),
        announce: `${label(pathKey(action.path))} moved ${action.dir}.`,
      };
    }
    case 'remove':
      if (!layout) return s;
      return {
        ...withLayout(s, removeBox(layout, action.path)),
        target: '',
        focus: focusOn('.dashboard-add button'),
        announce: `${label(pathKey(action.path))} removed.`,
      };
    case 'drop': {
      const { from, to, side } = action;
      if (!layout || from === to) return s;
      const [a, b] = [label(from), label(to)];
      if (!side) return { ...withLayout(s, swapBoxes(layout, parsePathKey(from), parsePathKey(to))), target: to, announce: `${a} and ${b} swapped.` };
      const box = nodeAt(layout, parsePathKey(from));
      const next = moveBox(layout, parsePathKey(from), parsePathKey(to), side);
      const at = boxPaths(next).find((p) => nodeAt(next, p) === box);
      const where = side === 'left' ? 'left of' : side === 'right' ? 'right of' : side;
      return { ...withLayout(s, next), target: at ? pathKey(at) : s.target, announce: `${a} placed ${where} ${b}.` };
    }
    case 'edit':
      if (!layout) return s;
      return withLayout(s, updateBox(layout, action.path, action.patch), `${pathKey(action.path)}:${Object.keys(action.patch).join()}`);
    case 'size':
      if (!layout) return s;
      return withLayout(s, setSplitSize(layout, action.path, action.size), `size:${pathKey(action.path)}`);
    case 'title':
      return { ...s, board: record(s.board, { ...s.board.present, title: action.title }, 'title') };
    case 'undo':
    case 'redo': {
      const board = action.type === 'undo' ? undo(s.board) : redo(s.board);
      return board === s.board ? s : { ...s, board };
    }
    case 'filename':
      return { ...s, filename: action.filename };
    case 'sharing':
      return { ...s, sharing: action.sharing };
    case 'target':
      return { ...s, target: action.key };
    case 'side':
      return { ...s, side: action.side };
    case 'picker':
      return { ...s, picker: action.open, focus: action.open ? s.focus : focusOn('.dashboard-add button') };
    case 'drag':
      return { ...s, dragging: action.key };
    case 'saving':
      return { ...s, saving: true, problems: [] };
    case 'saved':
      return { ...s, saving: false, problems: action.problems };
  }
}
