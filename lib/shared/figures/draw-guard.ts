// plotly.js steps through every tick an axis asks for and measures every tick label, annotation,
// slider step and menu button it draws, so a few bytes of layout can freeze a browser tab or hold the
// renderer for minutes: a log axis ticked every "L1e-6", a date axis ticked every millisecond over
// decades, tens of thousands of `tickvals`, a `minor.dtick` plotly does not even cap, thousands of
// annotations. Before any drawing (pages, cards, thumbnails and exports), `tameFigure` holds a figure
// to a drawing budget, `DRAW_LIMITS`:
// - Ticks, counted the way plotly's axis code counts them (draw-axes.ts), on every object that has
//   ticks wherever it sits: cartesian, 3D, polar, ternary, smith, carpet and
//   gauge axes, colorbars, their `minor` ticks, in the layout, the traces, a template or frames. An
//   axis over its share of the budget gets plotly's own ticks (its dtick dropped, `nticks` clamped)
//   or every k-th of its `tickvals` (with their `ticktext`, so labels stay right). Where the count
//   depends on a range or categories the data decide, the figure is first drawn off-screen without
//   those tick settings (so cheaply) to learn them.
// - Repeated items (annotations, shapes, images, selections, slider steps, menu buttons, frames):
//   pages and thumbnails draw the first ones (`cut`); an export over a limit is refused (`refuse`)
//   at once rather than drawn for its whole time limit. A figure of more subplots than the budget is
//   refused everywhere (dropping any would change what it says).
//
// `drawGuard` runs in the browser (components/plotly-client.ts) and in the renderer's pages, where it
// is injected as text (`drawGuard.toString()`): it must refer to nothing outside itself but the axis
// rules it is handed (`drawAxes()`, injected the same way).

import { TRANSFORM_LIMITS } from '../limits';
import { applyTransforms, figureTransforms } from './apply-transforms';
import { type Axis, type AxisFacts, type DrawAxes, drawAxes } from './draw-axes';
import { figureTextRules, safeFigure } from './figure-text';

export type { AxisFacts };

export interface PlotlyLike {
  newPlot(el: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
  purge(el: HTMLElement): void;
}

/** Over a limit, `cut` draws the first items (pages, thumbnails); `refuse` throws (exports). */
export type Overflow = 'cut' | 'refuse';

/** The draw guard: its budget, the axes and items held to it, and `tameFigure`, self-contained (see above). */
export function drawGuard(axes: DrawAxes) {
  const { isNode, numeric, linearCount, values, tickmodeOf, settlePart, staticFacts, drawnFacts } = axes;
  const LIMITS = {
    /** Labelled ticks on one axis, and on all the axes of a figure that set their own ticks. */
    axisTicks: 100,
    figureTicks: 300,
    /** Minor ticks (marks and grid lines, unlabelled and cheaper) on one axis, and on a figure. */
    axisMinorTicks: 1000,
    figureMinorTicks: 5000,
    /** Items of a figure, counted across its layout (scenes and template included) and in each frame's. */
    annotations: 500,
    shapes: 1000,
    images: 1000,
    selections: 1000,
    /** Slider steps and menu buttons (updatemenus and range selectors) across a figure. */
    steps: 300,
    buttons: 300,
    frames: 1000,
    /** Subplots (cartesian axis pairs, scenes, polar, ternary, geo, map and smith subplots). */
    subplots: 100,
  };
  const ITEMS = ['annotations', 'shapes', 'images', 'selections', 'steps', 'buttons'] as const;
  type Item = (typeof ITEMS)[number];
  type Node = Record<string, unknown>;
  type Facts = AxisFacts;

  /** Every object with ticks in a figure: the layout's, the traces', and each frame's. */
  function findAxes(figure: { data: unknown[]; layout?: unknown; frames?: unknown[] }): Axis[] {
    const found: Axis[] = [];
    const walk = (node: Node, path: (string | number)[], parent: Node | undefined, shared: boolean, trace: Node | undefined, depth: number): void => {
      if (depth > 12) return;
      const key = path[path.length - 1];
      const carpet = trace?.type === 'carpet' && (key === 'aaxis' || key === 'baxis') && path.length === 3 ? trace : undefined;
      if (carpet || 'dtick' in node || 'tickmode' in node || 'tickvals' in node || 'nticks' in node || isNode(node.minor)) {
        found.push({ node, path, parent, shared, carpet });
      }
      for (const k of Object.keys(node)) {
        const child = node[k];
        // `minor` is settled with its axis.
        if (k === 'minor') continue;
        if (isNode(child)) walk(child, [...path, k], node, shared, trace, depth + 1);
        else if (Array.isArray(child) && child.some(isNode))
          child.forEach((c, i) => {
            if (isNode(c)) walk(c, [...path, k, i], node, shared, trace, depth + 1);
          });
      }
    };
    if (isNode(figure.layout)) walk(figure.layout, ['layout'], undefined, true, undefined, 0);
    figure.data.forEach((t, i) => {
      if (isNode(t)) walk(t, ['data', i], undefined, true, t, 0);
    });
    (figure.frames ?? []).forEach((f, i) => {
      if (!isNode(f)) return;
      if (isNode(f.layout)) walk(f.layout, ['frames', i, 'layout'], undefined, false, undefined, 0);
      if (Array.isArray(f.data)) {
        f.data.forEach((t, j) => {
          if (isNode(t)) walk(t, ['frames', i, 'data', j], undefined, false, t, 0);
        });
      }
    });
    return found;
  }

  /** Sets an axis' major and minor ticks within their limits, or answers false if it needs drawn facts first. */
  function settleAxis(axis: Axis, facts: Facts, limits: { major: number; minor: number }, final: boolean): boolean {
    const { node, carpet } = axis;
    if (carpet) {
      // A carpet's axis draws a grid line every dtick of its a or b values ('linear'), else every
      // arraydtick-th value, and `minorgridcount` lines within each interval.
      const data = (values(carpet[String(axis.path[2]).charAt(0)]) ?? []).map(numeric).filter((v): v is number => v !== undefined);
      let majors: number | undefined;
      if (node.tickmode === 'linear') {
        majors = data.length ? linearCount(node.dtick, 'linear', [Math.min(...data), Math.max(...data)]) : undefined;
        if (majors === undefined || majors > limits.major) {
          delete node.tickmode;
          majors = undefined;
        }
      }
      majors ??= data.length ? Math.ceil(data.length / Math.max(1, numeric(node.arraydtick) ?? 1)) : limits.major;
      const minor = numeric(node.minorgridcount);
      if (minor !== undefined && minor * majors > limits.minor) node.minorgridcount = Math.floor(limits.minor / Math.max(majors, 1));
      return true;
    }
    const major = settlePart(node, facts, limits.major, final);
    if (major === undefined) return false;
    if (!isNode(node.minor)) return true;
    const minor = settlePart(node.minor, facts, limits.minor, final, major);
    if (minor !== undefined) return true;
    if (!final && tickmodeOf(node.minor) !== 'auto') return false;
    // Not even one minor tick per major interval fits: no minor ticks.
    delete node.minor;
    return true;
  }

  const TICK_KEYS = ['tickmode', 'dtick', 'tickvals', 'ticktext'];
  /** Takes an axis' tick settings out (for the measuring draw); answers them, to be put back. */
  function stash(axis: Axis): Node[] {
    return [axis.node, isNode(axis.node.minor) ? axis.node.minor : {}].map((part) => {
      const kept: Node = {};
      for (const k of TICK_KEYS) {
        if (k in part) {
          kept[k] = part[k];
          delete part[k];
        }
      }
      return kept;
    });
  }

  const plural = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}`;
  function overLimit(count: number, what: string, limit: number): Error {
    return new Error(`the figure has ${plural(count, what)}, more than the ${limit.toLocaleString('en-US')} a figure may draw`);
  }

  /**
   * Holds `layout`'s repeated items to their limits (a frame's layout to its own): `cut` keeps the
   * first ones, `refuse` throws (and changes nothing).
   */
  function limitItems(layout: Node, overflow: Overflow): void {
    const seen: Record<Item, number> = { annotations: 0, shapes: 0, images: 0, selections: 0, steps: 0, buttons: 0 };
    const walk = (node: Node, depth: number): void => {
      if (depth > 12) return;
      for (const key of Object.keys(node)) {
        let child = node[key];
        if (Array.isArray(child) && (ITEMS as readonly string[]).includes(key)) {
          const item = key as Item;
          const room = Math.max(0, LIMITS[item] - seen[item]);
          if (overflow === 'cut' && child.length > room) node[key] = child = child.slice(0, room);
          seen[item] += (child as unknown[]).length;
        }
        if (isNode(child)) walk(child, depth + 1);
        else if (Array.isArray(child)) for (const c of child) if (isNode(c)) walk(c, depth + 1);
      }
    };
    walk(layout, 0);
    for (const item of ITEMS)
      if (seen[item] > LIMITS[item]) throw overLimit(seen[item], item === 'steps' ? 'slider steps' : item === 'buttons' ? 'menu buttons' : item, LIMITS[item]);
  }

  /** Distinct subplots a figure's traces draw on. */
  function subplotCount(data: unknown[]): number {
    const seen = new Set<string>();
    for (const t of data) {
      if (isNode(t)) seen.add(String(t.subplot ?? t.scene ?? t.geo ?? `${String(t.xaxis ?? 'x')} ${String(t.yaxis ?? 'y')}`));
    }
    return seen.size;
  }

  // Objects are copied, lists of items no further than their limit; arrays of plain values (data
  // columns) are shared: nothing here writes to them.
  const LISTS: Record<string, number> = { ...LIMITS };
  const copyOf = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) {
      const list = key !== undefined && key in LISTS && (ITEMS as readonly string[]).concat('frames').includes(key) ? v.slice(0, LISTS[key]) : v;
      return list.some((x) => x !== null && typeof x === 'object') ? list.map((x) => copyOf(x)) : list;
    }
    return isNode(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copyOf(x, k)])) : v;
  };

  type Figure = { data: unknown[]; layout?: unknown; frames?: unknown[] };
  interface Budgeted<F> {
    copy: F;
    /** Axes whose ticks need drawn facts, their tick settings taken out of `copy` until then. */
    pending: { axis: Axis; kept: Node[] }[];
    limits: { major: number; minor: number };
  }

  /**
   * `figure` copied and held to the budget on what its own text says (see `tameFigure`), throwing
   * for a figure over a limit that cannot be cut.
   */
  function budgetFigure<F extends Figure>(figure: F, overflow: Overflow): Budgeted<F> {
    const subplots = subplotCount(figure.data);
    if (subplots > LIMITS.subplots) throw overLimit(subplots, 'subplots', LIMITS.subplots);
    const layoutsOf = (f: Figure) =>
      [f.layout, ...(Array.isArray(f.frames) ? f.frames : []).map((frame) => (isNode(frame) ? frame.layout : undefined))].filter(isNode);
    // Refused before anything is copied; else cut as it is copied, then across each layout.
    if (overflow === 'refuse') {
      const frames = Array.isArray(figure.frames) ? figure.frames.length : 0;
      if (frames > LIMITS.frames) throw overLimit(frames, 'frames', LIMITS.frames);
      for (const layout of layoutsOf(figure)) limitItems(layout, 'refuse');
    }
    const copy = copyOf(figure) as F;
    for (const layout of layoutsOf(copy)) limitItems(layout, 'cut');

    const axes = findAxes(copy);
    const shared = axes.filter((a) => a.shared && !a.carpet);
    const explicit = shared.filter((a) => tickmodeOf(a.node) !== 'auto' || (numeric(a.node.nticks) ?? 0) > 0).length;
    const withMinor = shared.filter((a) => isNode(a.node.minor)).length;
    const limits = {
      major: Math.min(LIMITS.axisTicks, Math.floor(LIMITS.figureTicks / Math.max(explicit, 1))),
      minor: Math.min(LIMITS.axisMinorTicks, Math.floor(LIMITS.figureMinorTicks / Math.max(withMinor, 1))),
    };
    const pending: Budgeted<F>['pending'] = [];
    for (const axis of axes) {
      if (!settleAxis(axis, staticFacts(axis), limits, false)) pending.push({ axis, kept: stash(axis) });
    }
    return { copy, pending, limits };
  }

  /**
   * `figure` held to the drawing budget (a copy; the figure is left as it was), drawing it
   * off-screen first if some axis' ticks depend on what its data make of the axes. Throws an Error
   * saying which limit a figure that cannot be drawn within it is over.
   */
  async function tameFigure<F extends Figure>(Plotly: PlotlyLike, figure: F, overflow: Overflow): Promise<F> {
    if (!Array.isArray(figure.data)) return figure;
    const { copy, pending, limits } = budgetFigure(figure, overflow);
    if (!pending.length) return copy;

    // Learn the types, ranges and categories plotly gives these axes (drawn without their tick
    // settings, so cheaply), then settle each with them. What changes no axis' type, range or
    // categories and only takes time is left out of this drawing.
    const layout = isNode(copy.layout) ? (copyOf(copy.layout) as Node) : {};
    for (const key of ['sliders', 'updatemenus', 'images', 'selections']) delete layout[key];
    layout.showlegend = false;
    if (Array.isArray(layout.shapes)) for (const shape of layout.shapes) if (isNode(shape)) delete shape.label;
    const el = document.createElement('div');
    el.style.cssText = 'position:fixed;left:-10000px;top:0;width:700px;height:500px;visibility:hidden';
    document.body.appendChild(el);
    try {
      let gd: { _fullLayout?: Node; _fullData?: unknown[] } = {};
      try {
        await Plotly.newPlot(el, copyOf(copy.data) as unknown[], layout, { staticPlot: true });
        gd = el as unknown as typeof gd;
      } catch {
        // Could not measure: each axis is judged on what the figure says (unknowns count as too many).
      }
      for (const { axis, kept } of pending) {
        [axis.node, isNode(axis.node.minor) ? axis.node.minor : {}].forEach((part, i) => {
          Object.assign(part, kept[i]);
        });
        settleAxis(axis, drawnFacts(axis, gd, copy) ?? staticFacts(axis), limits, true);
      }
    } finally {
      Plotly.purge(el);
      el.remove();
    }
    return copy;
  }

  return { LIMITS, tameFigure, budgetFigure };
}

const axes = drawAxes();
const guard = drawGuard(axes);
export const { LIMITS: DRAW_LIMITS, budgetFigure } = guard;
export const { linearCount, cleanDtick, dateMs, settlePart } = axes;

/**
 * Every drawing's way in: the figure's data steps applied (plotly 4 has no transforms:
 * lib/shared/figures/apply-transforms.ts), its text made safe (lib/shared/figures/figure-text.ts), then held to the budget.
 */
export const tameFigure: typeof guard.tameFigure = (Plotly, figure, overflow) => guard.tameFigure(Plotly, safeFigure(applyTransforms(figure)), overflow);

/**
 * The guard for a page of its own (the renderer's), as `window.__tameFigure`: the compiled source of
 * `figureTransforms`, `figureTextRules`, `drawAxes` and `drawGuard`, data steps applied and text made safe first. Under tsx (npm run worker) esbuild keeps function names with a __name(fn, name)
 * helper the page does not have: it is given one.
 */
export const drawGuardScript = () =>
  [
    'var __name = function (fn) { return fn; };',
    `window.__applyTransforms = (${figureTransforms.toString()})(${JSON.stringify(TRANSFORM_LIMITS)}).applyTransforms;`,
    `window.__safeFigure = (${figureTextRules.toString()})().safeFigure;`,
    `window.__tameFigure = (function (tame) { return function (P, f, o) { return tame(P, window.__safeFigure(window.__applyTransforms(f)), o); }; })((${drawGuard.toString()})((${drawAxes.toString()})()).tameFigure);`,
  ].join('\n');
