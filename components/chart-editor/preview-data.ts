// The preview's data: the figure the editor keeps holds src references only, so the preview fetches
// the columns they name from the API (each once, cached, parsed off the main thread), and draws a copy
// with the values in place. Within the live-drawing limits (lib/shared/figures/live-drawing.ts) it draws all of
// it, beyond them the first part of each column.
import { drawsLive, LIVE_MAX_BYTES, LIVE_MAX_VALUES } from '@/lib/shared/figures/live-drawing';
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

interface Column {
  values: unknown[];
  total: number;
}

let worker: Worker | null | undefined;
let asked = 0;
const waiting = new Map<number, { resolve: (c: Column) => void; reject: (e: Error) => void }>();

function columnWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./column-worker.ts', import.meta.url));
    worker.onmessage = (e: MessageEvent<{ id: number; values?: unknown[]; total?: number; error?: string }>) => {
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
  return column(s.owner, s.n, s.uids[0], Math.min(size.length, LIVE_MAX_VALUES)).then((c) => c.values);
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
}

/**
 * The figure with the values its srcs name in place of the srcs (columns `sizes` does not know, of
 * grids the viewer cannot read, draw nothing). Beyond the limits, each column is cut to the same share.
 */
export async function previewFigure(figure: PreviewFigure, sizes: Map<string, ColumnSize>, seen?: SeenData): Promise<Preview> {
  const copy = structuredClone({ data: figure.data, layout: figure.layout, frames: figure.frames }) as PreviewFigure;
  const refs: { obj: Record<string, unknown>; key: string; parts: { owner: string; n: number; uid: string }[] }[] = [];
  const seenRefs: { obj: Record<string, unknown>; key: string; src: string; size: ColumnSize }[] = [];
  const visit = (obj: Record<string, unknown>, key: string, src: string) => {
    const s = splitSrc(src);
    const parts = s ? s.uids.map((uid) => ({ owner: s.owner, n: s.n, uid })).filter((p) => sizes.has(columnKey(p.owner, p.n, p.uid))) : [];
    const through = parts.length ? undefined : seen?.sizes.get(src);
    if (seen && through) seenRefs.push({ obj, key, src, size: through });
    else refs.push({ obj, key, parts });
  };
  eachSrc(copy.data, visit);
  if (copy.frames) eachSrc(copy.frames, visit);
  const total = { values: 0, bytes: 0 };
  for (const ref of refs) {
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
        ref.parts.map((p) => column(p.owner, p.n, p.uid, capOf(sizes.get(columnKey(p.owner, p.n, p.uid))!.length)).catch(() => null)),
      );
      const name = ref.key.slice(0, -3);
      delete ref.obj[ref.key];
      const got = cols.filter((c) => c !== null);
      if (!got.length) return;
      for (const c of got) shown += c.values.length;
      ref.obj[name] = got.length === 1 && ref.parts.length === 1 ? got[0].values : got.map((c) => c.values);
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
  return { figure: copy, cut: share >= 1 ? null : { shown, total: total.values } };
}
