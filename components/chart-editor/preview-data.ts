// The preview's data: the figure the editor keeps holds src references only, so the preview fetches
// the columns they name from the API (each once, cached, parsed off the main thread), and draws a copy
// with the values in place. A long line or scatter is drawn from a reduced copy (each stretch's lowest
// and highest values, lib/shared/figures/reduce-rows.ts), so a million rows draw as fast as a few
// thousand; other data within the live-drawing limits (lib/shared/figures/live-drawing.ts) is drawn
// whole, beyond them the first part of each column.
import { drawsLive, LIVE_MAX_BYTES, LIVE_MAX_VALUES } from '@/lib/shared/figures/live-drawing';
import { minMaxRows, pickRows, REDUCED_POINTS, REDUCIBLE_TYPES } from '@/lib/shared/figures/reduce-rows';
import { apiFilePath } from '@/lib/shared/urls';
import { callApi } from '../api-client';

/** A column's size, as the page knows it (no data). */
export interface ColumnSize {
  length: number;
  bytes: number;
}

export interface PreviewFigure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
  frames?: Record<string, unknown>[];
}

/** `owner:n:uid[,uid]` split, or null. */
export function splitSrc(src: string): { owner: string; n: number; uids: string[] } | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,49}):([1-9][0-9]{0,9}):([A-Za-z0-9_,-]+)$/.exec(src);
  return m ? { owner: m[1], n: Number(m[2]), uids: m[3].split(',') } : null;
}

/** A column's key: usernames are case-insensitive. */
export const columnKey = (owner: string, n: number, uid: string) => `${owner.toLowerCase()}:${n}:${uid}`;

/** A column's values: numbers come as a Float64Array (column-worker.ts). */
type Values = unknown[] | Float64Array;

interface Column {
  values: Values;
  total: number;
}

let worker: Worker | null | undefined;
let asked = 0;
const waiting = new Map<number, { resolve: (c: Column) => void; reject: (e: Error) => void }>();

function columnWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./column-worker.ts', import.meta.url));
    worker.onmessage = (e: MessageEvent<{ id: number; values?: Values; total?: number; error?: string }>) => {
      const wait = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (e.data.error !== undefined) wait?.reject(new Error(e.data.error));
      else wait?.resolve({ values: e.data.values ?? [], total: e.data.total ?? 0 });
    };
  } catch {
    worker = null;
  }
  return worker;
}

async function fetchColumn(url: string, max: number): Promise<Column> {
  const w = columnWorker();
  if (w) {
    const id = ++asked;
    return new Promise<Column>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      w.postMessage({ id, url, max });
    });
  }
  const answer = await callApi<{ cols: { data: unknown[] }[] }>(url);
  if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
  const data = answer.body.cols[0]?.data ?? [];
  return { values: data.slice(0, max), total: data.length };
}

/** Columns fetched so far, per column and the most values asked of it (a whole column serves any cut). */
const cache = new Map<string, { max: number; column: Promise<Column> }>();

function column(owner: string, n: number, uid: string, max: number): Promise<Column> {
  const key = columnKey(owner, n, uid);
  const have = cache.get(key);
  if (have && (have.max >= max || have.max === Number.POSITIVE_INFINITY)) {
    return have.column.then((c) => (c.values.length > max ? { values: c.values.slice(0, max), total: c.total } : c));
  }
  const url = `${apiFilePath('grids', owner, n)}/col?uid=${encodeURIComponent(uid)}`;
  const fetched = fetchColumn(url, max);
  cache.set(key, { max, column: fetched });
  fetched.catch(() => cache.delete(key));
  return fetched;
}

/** One column's values as the preview fetches them (the first LIVE_MAX_VALUES at most), or null when `sizes` does not know it. */
export function columnValues(src: string, sizes: Map<string, ColumnSize>): Promise<unknown[]> | null {
  const s = splitSrc(src);
  const size = s && s.uids.length === 1 ? sizes.get(columnKey(s.owner, s.n, s.uids[0])) : undefined;
  if (!s || !size) return null;
  return column(s.owner, s.n, s.uids[0], Math.min(size.length, LIVE_MAX_VALUES)).then((c) => plain(c.values));
}

/**
 * Columns seen through the plot alone (a collaborator's view of the owner's data): their values come
 * from the plot's content as its readers get it (`map_data=unreadable`, the one reader rule).
 */
export interface SeenData {
  /** The plot's API path. */
  plot: string;
  /** Each seen src's size. */
  sizes: Map<string, ColumnSize>;
}

/** The plot content's map of seen srcs to their values, fetched once per plot. */
const seenMaps = new Map<string, Promise<Record<string, unknown>>>();

function seenValues(plot: string, src: string): Promise<unknown> {
  let map = seenMaps.get(plot);
  if (!map) {
    map = callApi<{ map_data?: Record<string, unknown> }>(`${plot}/content?map_data=unreadable`).then((a) => (a.ok ? (a.body.map_data ?? {}) : {}));
    seenMaps.set(plot, map);
    map.catch(() => seenMaps.delete(plot));
  }
  return map.then((m) => m[src]);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Every `…src` string in these traces, walked in place with a setter. */
function eachSrc(node: unknown, visit: (obj: Record<string, unknown>, key: string, src: string) => void): void {
  if (Array.isArray(node)) for (const item of node) eachSrc(item, visit);
  else if (isRecord(node)) {
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (key.length > 3 && key.endsWith('src') && typeof value === 'string') visit(node, key, value);
      else if (typeof value === 'object') eachSrc(value, visit);
    }
  }
}

export interface Preview {
  figure: PreviewFigure;
  /** Set when the data was beyond the live-drawing limits: the values drawn and the values there are. */
  cut: { shown: number; total: number } | null;
  /** Set when a trace was drawn from a reduced copy: its rows, and the points drawn of them (the longest such trace). */
  reduced: { rows: number; points: number } | null;
}

const plain = (v: Values): unknown[] => (Array.isArray(v) ? v : Array.from(v));
const isArrayLike = (v: unknown): v is Values => Array.isArray(v) || v instanceof Float64Array;

/** Every array of `length` values in a trace (its data attributes, nested ones too) kept at `rows` only. */
function reduceTrace(node: Record<string, unknown>, length: number, rows: Uint32Array): void {
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (isArrayLike(value)) {
      if (value.length === length) node[key] = pickRows(value, rows);
    } else if (isRecord(value) && key !== 'transforms') reduceTrace(value, length, rows);
  }
}

/** A reducible trace's rows (its longest array), reduced when over REDUCED_POINTS; what was done. */
function reduceLong(trace: Record<string, unknown>): { rows: number; points: number } | null {
  let length = 0;
  const longest = (node: Record<string, unknown>) => {
    for (const value of Object.values(node)) {
      if (isArrayLike(value)) length = Math.max(length, value.length);
      else if (isRecord(value)) longest(value);
    }
  };
  longest(trace);
  if (length <= REDUCED_POINTS) return null;
  const y = isArrayLike(trace.y) && trace.y.length === length ? trace.y : null;
  const rows = minMaxRows(y, length);
  reduceTrace(trace, length, rows);
  return { rows: length, points: rows.length };
}

/** Typed arrays left whole (a short column) as plain arrays, as the rest of the page expects. */
function plainArrays(node: Record<string, unknown>): void {
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (value instanceof Float64Array) node[key] = Array.from(value);
    else if (isRecord(value) && !Array.isArray(value)) plainArrays(value);
  }
}

/** A trace the preview may draw from a reduced copy: a line or scatter without data steps (they make
 * what is drawn of every row). */
export const reducible = (trace: Record<string, unknown>) =>
  REDUCIBLE_TYPES.has(typeof trace.type === 'string' ? trace.type : 'scatter') && !(Array.isArray(trace.transforms) && trace.transforms.length > 0);

/**
 * The figure as the preview draws it, before its data: a reducible WebGL scatter (at most
 * REDUCED_POINTS points here) drawn as SVG, which looks the same and lets a line or scatter preview
 * load plotly's basic bundle (a quarter of the full one, the longest task of opening the editor).
 */
export function previewTypes(figure: PreviewFigure): PreviewFigure {
  return { ...figure, data: figure.data.map((t) => (t.type === 'scattergl' && reducible(t) ? { ...t, type: 'scatter' } : t)) };
}

/**
 * The figure with the values its srcs name in place of the srcs (columns `sizes` does not know, of
 * grids the viewer cannot read, draw nothing). Beyond the limits, each column is cut to the same share.
 */
export async function previewFigure(figure: PreviewFigure, sizes: Map<string, ColumnSize>, seen?: SeenData): Promise<Preview> {
  const drawn = previewTypes(figure);
  const copy = structuredClone({ data: drawn.data, layout: drawn.layout, frames: drawn.frames }) as PreviewFigure;
  const refs: { obj: Record<string, unknown>; key: string; parts: { owner: string; n: number; uid: string }[]; whole: boolean }[] = [];
  const seenRefs: { obj: Record<string, unknown>; key: string; src: string; size: ColumnSize }[] = [];
  // A reducible trace's columns come whole (they are reduced once here), outside the limits' share.
  const visitIn = (whole: boolean) => (obj: Record<string, unknown>, key: string, src: string) => {
    const s = splitSrc(src);
    const parts = s ? s.uids.map((uid) => ({ owner: s.owner, n: s.n, uid })).filter((p) => sizes.has(columnKey(p.owner, p.n, p.uid))) : [];
    const through = parts.length ? undefined : seen?.sizes.get(src);
    if (seen && through) seenRefs.push({ obj, key, src, size: through });
    else refs.push({ obj, key, parts, whole: whole && parts.length === 1 });
  };
  for (const trace of copy.data) eachSrc(trace, visitIn(reducible(trace)));
  if (copy.frames) eachSrc(copy.frames, visitIn(false));
  const total = { values: 0, bytes: 0 };
  for (const ref of refs) {
    if (ref.whole) continue;
    for (const p of ref.parts) {
      const size = sizes.get(columnKey(p.owner, p.n, p.uid))!;
      total.values += size.length;
      total.bytes += size.bytes;
    }
  }
  for (const ref of seenRefs) {
    total.values += ref.size.length;
    total.bytes += ref.size.bytes;
  }
  const share = drawsLive(total) ? 1 : Math.min(LIVE_MAX_VALUES / Math.max(total.values, 1), LIVE_MAX_BYTES / Math.max(total.bytes, 1));
  const capOf = (length: number) => (share >= 1 ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(length * share)));
  let shown = 0;
  await Promise.all(
    refs.map(async (ref) => {
      const cols = await Promise.all(
        ref.parts.map((p) =>
          column(p.owner, p.n, p.uid, ref.whole ? Number.POSITIVE_INFINITY : capOf(sizes.get(columnKey(p.owner, p.n, p.uid))!.length)).catch(() => null),
        ),
      );
      const name = ref.key.slice(0, -3);
      delete ref.obj[ref.key];
      const got = cols.filter((c) => c !== null);
      if (!got.length) return;
      if (!ref.whole) for (const c of got) shown += c.values.length;
      // Kept as fetched where it will be reduced (a copy of a million values would be thrown away).
      ref.obj[name] = ref.whole ? got[0].values : got.length === 1 && ref.parts.length === 1 ? plain(got[0].values) : got.map((c) => plain(c.values));
    }),
  );
  await Promise.all(
    seenRefs.map(async (ref) => {
      const values = await seenValues(seen!.plot, ref.src).catch(() => undefined);
      delete ref.obj[ref.key];
      if (!Array.isArray(values)) return;
      const cap = capOf(ref.size.length);
      const kept = Number.isFinite(cap) ? values.slice(0, cap) : values;
      shown += kept.length;
      ref.obj[ref.key.slice(0, -3)] = kept;
    }),
  );
  let reduced: Preview['reduced'] = null;
  for (const trace of copy.data) {
    if (!reducible(trace)) continue;
    const done = reduceLong(trace);
    if (done && (!reduced || done.rows > reduced.rows)) reduced = done;
    plainArrays(trace);
  }
  return { figure: copy, cut: share >= 1 ? null : { shown, total: total.values }, reduced };
}
