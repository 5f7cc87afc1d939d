// Charts of any size (issue 39): a long line or scatter trace is drawn from a reduction of the rows in
// the current view, fetched again after each zoom or pan, until the view holds few enough rows to
// draw them all. The rules the page and the server share: which traces are drawn so, the view's
// bounds, its answer, and what the chart says about it. Pure (browser-safe).
import { dateMs } from './column-facts';
import { REDUCIBLE_TYPES } from './reduce-rows';
import { traceType } from './trace-types';

/** Most pixel columns one view is asked for: a reduced trace keeps at most two points per column. */
export const MAX_VIEW_PX = 4000;
/** Pixel columns when the page does not say (about a chart 1,000 px wide). */
export const DEFAULT_VIEW_PX = 1000;
/** Rows a view draws whole: as many points as its reduction would draw (two per pixel column). */
export const fullViewRows = (px: number): number => 2 * px;

/** The src attributes a trace drawn by the view may have: its x (optional: else the row number) and y. */
const VIEW_SRCS = new Set(['xsrc', 'ysrc']);

/**
 * Whether the trace at `index` of the figure's data is drawn by the view, from its type and the
 * paths of the figure's srcs: a scatter or scattergl (SVG or WebGL) with a y src, whose only srcs are
 * its x and y, without transforms (they would apply to the reduced rows). Whether its x is sorted
 * (else a range of x is no range of rows) is the server's to say, from the column.
 */
export function viewsTrace(trace: unknown, index: number, srcPaths: readonly (readonly (string | number)[])[]): boolean {
  if (!REDUCIBLE_TYPES.has(traceType(trace))) return false;
  const t = trace as Record<string, unknown>;
  if (Array.isArray(t.transforms) && t.transforms.length) return false;
  const own = srcPaths.filter((p) => p[0] === 'data' && p[1] === index);
  return own.some((p) => p.length === 3 && p[2] === 'ysrc') && own.every((p) => p.length === 3 && VIEW_SRCS.has(String(p[2])));
}

/** One trace's rows in a view, as the view route answers them. */
export interface TraceView {
  /** The trace's index in the figure's data. */
  index: number;
  /** x as numbers (epoch ms when `xDate`; the row number when the trace has no x src) and y (null for a blank). */
  x: number[];
  y: (number | null)[];
  xDate: boolean;
  /** Rows of the trace in the view (one either side included, so lines reach the edges), and of the whole trace. */
  rows: number;
  total: number;
  /** True when every row of the view is drawn (no reduction). */
  whole: boolean;
}

export interface ViewAnswer {
  traces: TraceView[];
}

/** The layout key of a trace's x axis (`xaxis`, `xaxis2`...). */
export const xAxisKey = (trace: Record<string, unknown>): string => `xaxis${typeof trace.xaxis === 'string' ? trace.xaxis.slice(1) : ''}`;

/**
 * The figure (as stored, without its data) with `views` drawn in place of their traces' data: x and
 * y the view's, and a date x axis said so (the view gives epoch ms). Pages and images draw this. A
 * WebGL trace is drawn as SVG: a view is at most a few thousand points, which SVG redraws in a frame,
 * while WebGL costs a second a redraw where it runs in software (the renderer, many browsers' fallbacks).
 */
export function figureWithViews<F extends { data: Record<string, unknown>[]; layout?: Record<string, unknown> }>(figure: F, views: readonly TraceView[]): F {
  const byIndex = new Map(views.map((v) => [v.index, v]));
  const data = figure.data.map((trace, i) => {
    const v = byIndex.get(i);
    return v ? { ...trace, ...(trace.type === 'scattergl' ? { type: drawnType('scattergl') } : {}), x: v.x, y: v.y } : trace;
  });
  const layout: Record<string, unknown> = { ...figure.layout };
  for (const v of views) {
    const key = xAxisKey(figure.data[v.index]);
    const axis = (layout[key] ?? {}) as Record<string, unknown>;
    if (v.xDate && axis.type !== 'date') layout[key] = { ...axis, type: 'date' };
  }
  return { ...figure, data, layout };
}

/** The type a trace drawn by the view is drawn as: WebGL's scatter as SVG's (see figureWithViews). */
export const drawnType = (type: string): string => (type === 'scattergl' ? 'scatter' : type);

/** The range an x axis's relayout event or layout gives, as view bounds (epoch ms on a date axis); null for autorange. */
export function axisRange(range: unknown, date: boolean): [number, number] | null {
  if (!Array.isArray(range) || range.length !== 2) return null;
  const [a, b] = range.map((v) => (typeof v === 'number' ? v : date && typeof v === 'string' ? dateMs(v) : Number(v)));
  return Number.isFinite(a) && Number.isFinite(b) ? [Math.min(a, b), Math.max(a, b)] : null;
}

/** "Showing 4,000 of 1,000,000 points; zoom for detail": what the chart says while any trace is reduced (null when none is). */
export function viewNote(views: readonly TraceView[]): string | null {
  if (views.every((v) => v.whole)) return null;
  const shown = views.reduce((sum, v) => sum + v.x.length, 0);
  const total = views.reduce((sum, v) => sum + v.total, 0);
  const n = (v: number) => v.toLocaleString('en');
  return `Showing ${n(shown)} of ${n(total)} points; zoom for detail.`;
}
