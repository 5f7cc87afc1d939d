// Figure rules, pure (no database): a stored figure holds src references into grids, never raw data.
// Which attributes are data comes from plotly.js's own schema (lib/core/figures/plot-schema.ts).
import { decodeTypedArray } from '@/lib/shared/column-values';
import { invalid, invalidMany } from '../errors';
import { traceNode, type AttrNode } from './plot-schema';
import { transformProblems } from './transforms';

type Path = (string | number)[];
type Obj = Record<string, unknown>;

/** A src reference found in a figure; `path` locates the src key, e.g. ['data', 0, 'marker', 'colorsrc']. */
export interface SrcRef {
  path: Path;
  src: string;
  owner: string;
  n: number;
  uids: string[];
}

export const MAX_TRACES = 1000;
const MAX_PROBLEMS = 20;
const MAX_UIDS = 1000;
const MAX_N = 2 ** 31 - 1;
// Longest possible valid src: owner, n, and MAX_UIDS uids of 64 chars; anything longer is refused
// before splitting, so a 10 MiB string costs one length check.
const MAX_SRC_LENGTH = 50 + 1 + 10 + 1 + MAX_UIDS * 65;
const OWNER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$/;
const NUMBER = /^[1-9][0-9]{0,9}$/;
const UID = /^[A-Za-z0-9_-]{1,64}$/;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** plotly.js's typed array form `{dtype, bdata}` (what plotly.py 6 sends for numpy data). */
const isTypedArraySpec = (v: unknown): boolean => isObject(v) && typeof v.bdata === 'string' && typeof v.dtype === 'string';

/** `{owner}:{n}:{uid}[,{uid}...]`, else null. */
export function parseSrc(value: string): { owner: string; n: number; uids: string[] } | null {
  if (typeof value !== 'string' || value.length > MAX_SRC_LENGTH) return null;
  const a = value.indexOf(':');
  const b = a < 0 ? -1 : value.indexOf(':', a + 1);
  if (b < 0) return null;
  const owner = value.slice(0, a);
  const nText = value.slice(a + 1, b);
  if (!OWNER.test(owner) || !NUMBER.test(nText)) return null;
  const n = Number(nText);
  if (n > MAX_N) return null;
  const uids = value.slice(b + 1).split(',');
  if (uids.length > MAX_UIDS) return null;
  for (const uid of uids) if (!UID.test(uid)) return null;
  return { owner, n, uids };
}

/** `figure.data[0].marker.color` */
export function pathText(path: Path): string {
  let out = 'figure';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${p}`;
  return out;
}

interface Visitor {
  /** A data attribute holding an array or a typed array. */
  raw(obj: Obj, key: string, path: Path): void;
  /** `{a}src` for a data attribute `a`. */
  src(obj: Obj, key: string, path: Path): void;
  /** A structural problem (not an object, not an array). */
  problem(path: Path, message: string): void;
  done(): boolean;
}

/** Walks one trace (or an item of an object array) along its attribute tree. `path` is a stack, copied
 *  only when a visitor keeps it. */
function walkAttrs(obj: Obj, node: AttrNode, path: Path, v: Visitor): void {
  for (const key of Object.keys(obj)) {
    if (v.done()) return;
    const value = obj[key];
    if (node.data.has(key) && (Array.isArray(value) || isTypedArraySpec(value))) {
      v.raw(obj, key, path);
      continue;
    }
    if (key.length > 3 && key.endsWith('src') && node.data.has(key.slice(0, -3))) {
      v.src(obj, key, path);
      continue;
    }
    if (isObject(value)) {
      const child = node.objects.get(key);
      if (child) {
        path.push(key);
        walkAttrs(value, child, path, v);
        path.pop();
      }
    } else if (Array.isArray(value)) {
      const item = node.arrays.get(key);
      if (!item) continue; // a setting (colorscale, range, ...)
      path.push(key);
      for (let i = 0; i < value.length && !v.done(); i++) {
        const el = value[i];
        if (!isObject(el)) continue;
        path.push(i);
        walkAttrs(el, item, path, v);
        path.pop();
      }
      path.pop();
    }
  }
}

/** Every trace of a figure (data, then each frame's data) with its attribute tree. Structural problems
 *  of `data` itself are the caller's; those of layout, frames and their traces go to the visitor. */
function walkFigure(fig: Obj, data: unknown[], v: Visitor): void {
  const traces = (list: unknown[], path: Path, typeOf: (trace: Obj, j: number) => unknown) => {
    for (let j = 0; j < list.length && !v.done(); j++) {
      const trace = list[j];
      path.push(j);
      if (isObject(trace)) walkAttrs(trace, traceNode(typeOf(trace, j)), path, v);
      else v.problem(path, 'expected an object');
      path.pop();
    }
  };
  traces(data, ['data'], (t) => t.type);
  if (fig.layout !== undefined && !isObject(fig.layout)) v.problem(['layout'], 'expected an object');
  const frames = fig.frames;
  if (frames === undefined) return;
  if (!Array.isArray(frames)) {
    v.problem(['frames'], 'expected an array');
    return;
  }
  for (let i = 0; i < frames.length && !v.done(); i++) {
    const frame = frames[i];
    if (!isObject(frame)) {
      v.problem(['frames', i], 'expected an object');
      continue;
    }
    if (frame.data === undefined) continue;
    if (!Array.isArray(frame.data)) {
      v.problem(['frames', i, 'data'], 'expected an array');
      continue;
    }
    // A frame trace without a type animates figure.data[frame.traces[j]] (else [j]): it has that type.
    const targets = Array.isArray(frame.traces) ? frame.traces : null;
    traces(frame.data, ['frames', i, 'data'], (t, j) => {
      if (t.type !== undefined && t.type !== null) return t.type;
      const k = targets && Number.isInteger(targets[j]) ? (targets[j] as number) : j;
      const base = data[k];
      return isObject(base) ? base.type : undefined;
    });
  }
}

function checkedData(figure: unknown): { fig: Obj; data: unknown[] } {
  if (!isObject(figure)) throw invalid('figure', 'expected an object');
  const data = figure.data;
  if (data === undefined) throw invalid('figure.data', 'This field is required.');
  if (!Array.isArray(data)) throw invalid('figure.data', 'expected an array of trace objects');
  if (data.length > MAX_TRACES) throw invalid('figure.data', `at most ${MAX_TRACES} traces a figure`);
  return { fig: figure, data };
}

const preview = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** Validates a figure for create/update; returns its src references or throws a 400 naming every
 *  problem (up to 20): raw data arrays, bad src values, non-object traces. */
export function checkFigure(figure: unknown): SrcRef[] {
  const { fig, data } = checkedData(figure);
  const refs: SrcRef[] = [];
  const problems: { field: string; message: string }[] = [];
  const add = (path: Path, message: string) => problems.push({ field: pathText(path), message });
  walkFigure(fig, data, {
    raw(_obj, key, path) {
      add([...path, key], `raw data arrays are not allowed; upload the values to a grid and reference them with ${key}src`);
    },
    src(obj, key, path) {
      const value = obj[key];
      const parsed = typeof value === 'string' ? parseSrc(value) : null;
      // A uid named twice would serve one column's values twice over (an amplification): refused.
      const repeated = parsed?.uids.find((uid, i) => parsed.uids.indexOf(uid, i + 1) >= 0);
      if (repeated) add([...path, key], `names the column '${repeated}' more than once; each column at most once a src`);
      else if (parsed) refs.push({ path: [...path, key], src: value as string, ...parsed });
      else if (typeof value === 'string') add([...path, key], `invalid src reference "${preview(value)}"; expected "owner:grid_number:column_uid"`);
      else add([...path, key], 'expected a string of the form "owner:grid_number:column_uid"');
    },
    problem: add,
    done: () => problems.length >= MAX_PROBLEMS,
  });
  // Data steps (plotly 2's transforms) are applied before drawing: only those applied the same way, bounded.
  data.forEach((trace, j) => {
    if (isObject(trace) && trace.transforms !== undefined) for (const p of transformProblems(trace.transforms, ['data', j])) add(p.path, p.message);
  });
  const overflow = nonFinitePath(fig, []);
  if (overflow) add(overflow, 'a number too large for JSON (e.g. 1e400, read as Infinity, would be stored as null); send a finite number');
  if (problems.length) throw invalidMany(problems.slice(0, MAX_PROBLEMS));
  return refs;
}

/** The path of the first non-finite number in a parsed JSON value (JSON.parse reads 1e400 as Infinity);
 * `path` is a stack, copied only when one is found. */
function nonFinitePath(value: unknown, path: Path): Path | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : [...path];
  if (value === null || typeof value !== 'object') return null;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    path.push(key);
    const found = nonFinitePath((value as Record<string | number, unknown>)[key], path);
    path.pop();
    if (found) return found;
  }
  return null;
}

/** Title, size and autosize of a figure's layout, for the plot record. */
export function figureMeta(figure: Record<string, unknown>): { title: string; width: number | null; height: number | null; autosize: boolean } {
  const layout = isObject(figure.layout) ? figure.layout : {};
  const t = layout.title;
  const title = typeof t === 'string' ? t : isObject(t) && typeof t.text === 'string' ? t.text : '';
  // Stored in integer columns: only sizes that round into 1..2^31-1 count.
  const size = (v: unknown) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    const r = Math.round(v);
    return r >= 1 && r <= MAX_N ? r : null;
  };
  return {
    title,
    width: size(layout.width),
    height: size(layout.height),
    autosize: typeof layout.autosize === 'boolean' ? layout.autosize : true,
  };
}

/** Sets `value` at `path` inside `obj` (the containers along the path must exist). */
export function setAt(obj: unknown, path: Path, value: unknown): void {
  let cur = obj as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) cur = cur[path[i]] as Record<string | number, unknown>;
  cur[path[path.length - 1]] = value;
}

/**
 * The inverse of the raw-data rule, as the official chart_studio client does before upload: a deep
 * copy of the figure with every raw data array moved into a column named by its dotted path
 * (`data.0.marker.color`), its key deleted and `{key}src` set to "TBD". `path` is the src key's path,
 * for the caller to `setAt` the real src once the grid exists. Typed arrays are decoded.
 */
export function splitFigure(raw: unknown): { figure: Record<string, unknown>; columns: { name: string; data: unknown[]; path: Path }[] } {
  const { fig } = checkedData(raw);
  const figure = structuredClone(fig);
  const columns: { name: string; data: unknown[]; path: Path }[] = [];
  walkFigure(figure, figure.data as unknown[], {
    raw(obj, key, path) {
      const value = obj[key];
      const values = Array.isArray(value) ? value : decodeTypedArray(value);
      if (!values) return; // a malformed typed array stays, for checkFigure to refuse
      columns.push({ name: [...path, key].join('.'), data: values, path: [...path, `${key}src`] });
      delete obj[key];
      obj[`${key}src`] = 'TBD';
    },
    src() {},
    problem() {},
    done: () => false,
  });
  return { figure, columns };
}
