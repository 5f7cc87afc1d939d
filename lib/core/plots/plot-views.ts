// A plot's long traces drawn by the view (issue 39, lib/shared/figures/trace-views.ts): for one x
// range and a width in pixel columns, each such trace's rows in the range, whole when few enough,
// else per pixel column the rows of its lowest and highest y (min/max decimation, as plotly-resampler
// keeps them). Reads only the view's rows or their summary (series-of.ts), so a view of a
// 10,000,000-row column costs about what one of a small column does. What the reader sees of each
// src is the one reader rule's (plotSrcReader), as for content, pages, CSV and images.
import 'server-only';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import type { FileAccess, Readable } from '../permissions';
import { seriesOf } from '../grids/series-of';
import { chartView, figureKinds, figureKindsSql, type ChartMode } from '../images/images';
import { plotlyBundle, type PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { SERIES_ROW_READ, type SeriesSource } from '../grids/series-source';
import { drawnType, fullViewRows, viewsTrace, type TraceView } from '@/lib/shared/figures/trace-views';
import { plotSrcReader, resolveSrcs, storedRefs, type StoredRef } from './srcs';

export interface ViewQuery {
  /** Trace indices to answer (default: every trace drawn by the view). */
  traces?: number[];
  /** The x range (epoch ms on a date axis, the row number without an x src); default: all rows. */
  x0?: number;
  x1?: number;
  /** Pixel columns (MAX_VIEW_PX at most). */
  px: number;
}

/** A plot's traces drawn by the view, with the sources of their x (null: the row number) and y. */
interface ViewTrace {
  index: number;
  x: SeriesSource | null;
  y: SeriesSource;
  /** The column_values ids read (they name the values for good: the answer's ETag). */
  ids: number[];
}

interface Figure {
  data: unknown;
  refs: StoredRef[] | string;
  owner_id: number;
}

/**
 * The traces of the plot's current figure that its reader (`viewer`; null: any reader) sees drawn by
 * the view: each a scatter whose x and y srcs the reader sees, with a sorted x (or none).
 */
async function viewTraces(db: Db, plotId: number, viewer: Viewer | null, only?: number[]): Promise<{ traces: ViewTrace[]; every: boolean }> {
  const [row] = await queryRows<Figure>(
    db,
    sql`SELECT p.figure->'data' AS data, p.src_refs AS refs, f.owner_id FROM plots p JOIN files f ON f.id = p.file_id WHERE p.file_id = ${plotId}`,
  );
  if (!row || !Array.isArray(row.data)) return { traces: [], every: false };
  const data = row.data as Record<string, unknown>[];
  const refs = storedRefs(row.refs);
  const paths = refs.map((r) => r.p);
  const wanted = (only ?? data.map((_, i) => i)).filter((i) => i < data.length && viewsTrace(data[i], i, paths));
  if (!wanted.length) return { traces: [], every: false };
  const texts = wanted.flatMap((i) => [String(data[i].xsrc ?? ''), String(data[i].ysrc)]);
  const resolved = await resolveSrcs(db, texts, viewer, plotSrcReader({ ownerId: row.owner_id }, refs, viewer));
  const columnIds = resolved.flatMap((r) => (r.columns?.length === 1 ? r.columns : []));
  const valuesOf = new Map(
    columnIds.length
      ? (
          await queryRows<{ id: string | number; values_id: string | number }>(
            db,
            sql`SELECT id, values_id FROM grid_columns WHERE id = ANY(${`{${columnIds.join(',')}}`}::bigint[])`,
          )
        ).map((r) => [Number(r.id), Number(r.values_id)])
      : [],
  );
  const valuesId = (k: number) => {
    const columns = resolved[k].columns;
    return columns?.length === 1 ? valuesOf.get(columns[0]) : undefined;
  };
  const out: ViewTrace[] = [];
  for (const [j, index] of wanted.entries()) {
    const hasX = data[index].xsrc !== undefined;
    const xId = hasX ? valuesId(2 * j) : undefined;
    const yId = valuesId(2 * j + 1);
    if (yId === undefined || (hasX && xId === undefined)) continue;
    const [x, y] = await Promise.all([xId === undefined ? null : seriesOf(db, xId), seriesOf(db, yId)]);
    if (!y || (hasX && !x?.sorted)) continue;
    out.push({ index, x, y, ids: xId === undefined ? [yId] : [xId, yId] });
  }
  // Every src of the figure is one of these traces' (the rest of the figure needs no grid data).
  const drawn = new Set(out.map((t) => t.index));
  return { traces: out, every: out.length > 0 && paths.every((p) => p[0] === 'data' && drawn.has(Number(p[1]))) };
}

/**
 * Whether a page draws the plot's current figure by the view (for any reader): some trace is, and
 * every other trace needs no grid data. Else it keeps the live-drawing rule.
 */
export async function drawsByView(db: Db, plotId: number): Promise<boolean> {
  return (await viewTraces(db, plotId, null)).every;
}

/**
 * How a page draws the plot's chart (chartView), a chart of many values drawn by the view when it can
 * be: then with the bundle of its traces as drawn (WebGL ones as SVG: figureWithViews; the browser loads
a larger one when a trace of inline data needs it).
 */
export async function pageChart(db: Db, plotId: number): Promise<{ mode: ChartMode; bundle: PlotlyBundle }> {
  const view = await chartView(db, plotId);
  if (view.mode !== 'on-request' || !(await drawsByView(db, plotId))) return view;
  const [row] = await queryRows<{ types: string; subplots: string }>(db, sql`SELECT ${figureKindsSql} FROM plots p WHERE p.file_id = ${plotId}`);
  const { types, subplots } = figureKinds(row);
  return { mode: 'reduced', bundle: plotlyBundle(types.map(drawnType), subplots) };
}

/**
 * The values of the sorted `source` at the ascending `rows` of [from, to): exact when it reads single
 * rows cheaply (`at`: a column in memory); else placed by their rows between the extremes of the
 * stretch they fall in (the first and last values given, a sorted column's), so a long column's
 * blocks are never all read for a summary: off by at most a stretch, one pixel column of the view.
 */
async function sortedAt(source: SeriesSource, rows: number[], from: number, to: number, px: number): Promise<Float64Array> {
  if (source.at) return source.at(rows);
  const e = await source.extremes(from, to, px);
  const out = new Float64Array(rows.length);
  let s = 0;
  rows.forEach((r, i) => {
    while (s < e.minRow.length - 1 && r >= e.bounds[s + 1]) s++;
    const [r0, r1, v0, v1] = [e.minRow[s], e.maxRow[s], e.min[s], e.max[s]];
    out[i] = Number.isNaN(r0) ? Number.NaN : r1 === r0 ? v0 : v0 + ((Math.min(Math.max(r, r0), r1) - r0) / (r1 - r0)) * (v1 - v0);
  });
  return out;
}

const finite = (v: number) => (Number.isNaN(v) ? null : v);

/** One trace's rows in the view: [r0, r1) widened by a row either side, whole when few enough, else its extremes per pixel column. */
async function traceView(t: ViewTrace, q: ViewQuery): Promise<TraceView> {
  const total = t.x ? Math.min(t.x.length, t.y.length) : t.y.length;
  const rowOf = async (value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!t.x) return Math.min(total, Math.max(0, Math.ceil(value)));
    return Math.min(total, await t.x.rowAtOrAfter(value));
  };
  const from = Math.max(0, (await rowOf(q.x0, 0)) - 1);
  // One past the last row at or before x1 (the first row after it), and one row more.
  const after =
    q.x1 === undefined ? total : t.x ? await rowOf(q.x1 + Math.max(Math.abs(q.x1) * Number.EPSILON, Number.MIN_VALUE), total) : Math.floor(q.x1) + 1;
  const to = Math.min(total, Math.max(from, after + 1));
  const whole = to - from <= Math.min(fullViewRows(q.px), SERIES_ROW_READ);
  let rows: number[];
  let ys: Float64Array;
  if (whole) {
    rows = Array.from({ length: to - from }, (_, i) => from + i);
    ys = await t.y.rows(from, to);
  } else {
    // Each stretch's lowest and highest rows, with their values as the extremes give them; the ends read.
    const ext = await t.y.extremes(from, to, q.px);
    const yAt = new Map<number, number>();
    for (let s = 0; s < ext.minRow.length; s++) {
      // A stretch all blank keeps its first row (drawn as a gap).
      if (Number.isNaN(ext.minRow[s])) yAt.set(ext.bounds[s], Number.NaN);
      else yAt.set(ext.minRow[s], ext.min[s]).set(ext.maxRow[s], ext.max[s]);
    }
    for (const r of [from, to - 1]) if (!yAt.has(r)) yAt.set(r, (await t.y.rows(r, r + 1))[0]);
    rows = [...yAt.keys()].sort((a, b) => a - b);
    ys = Float64Array.from(rows, (r) => yAt.get(r) ?? Number.NaN);
  }
  const xs = t.x ? await (whole ? t.x.rows(from, to) : sortedAt(t.x, rows, from, to, q.px)) : null;
  return {
    index: t.index,
    // A blank x (NaN) is answered as null, as JSON has it.
    x: xs ? Array.from(xs) : rows,
    y: Array.from(ys, finite),
    xDate: t.x?.kind === 'date',
    rows: to - from,
    total,
    whole,
  };
}

/**
 * The view of a plot the caller checked readable, for `viewer`: its traces drawn by the view, each
 * reduced to the query's range and width; with a strong ETag (the values read never change, so the
 * same ids and query name the same answer).
 */
export function readPlotView(
  db: Db,
  plot: Readable<FileAccess & { id: number }>,
  viewer: Viewer | null,
  q: ViewQuery,
): Promise<{ traces: TraceView[]; etag: string }> {
  return plotView(db, plot.id, viewer, q);
}

/** A plot's view as every reader of it sees it (the renderer's: images are the same for all). */
export const anyReadersView = (db: Db, plotId: number, q: ViewQuery) => plotView(db, plotId, null, q);

async function plotView(db: Db, plotId: number, viewer: Viewer | null, q: ViewQuery): Promise<{ traces: TraceView[]; etag: string }> {
  const { traces } = await viewTraces(db, plotId, viewer, q.traces);
  const key = JSON.stringify([traces.map((t) => [t.index, t.ids]), q.x0, q.x1, q.px]);
  const etag = `"view-${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
  return { traces: await Promise.all(traces.map((t) => traceView(t, q))), etag };
}
