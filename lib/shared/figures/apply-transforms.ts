// A chart's data steps (aggregate, filter, sort), stored in the figure as Chart Studio stored them:
// plotly.js 1.x/2.x `transforms` on a trace. plotly.js 4, which draws every chart here, ignores
// `transforms`, so `applyTransforms` does what plotly 2 did before any drawing: each trace's enabled
// transforms, in order, over its data arrays, and the figure without them. The grid's data is never
// touched; the Python and R clients' own plotly.js 2 applies the same stored steps.
// Semantics follow plotly.js 2's src/transforms (aggregate.js, filter.js, sort.js):
// - a `target` or `groups` is a trace attribute's name (`x`, `marker.color`; `x` when unset) or an
//   array of its own (from `targetsrc` / `groupssrc`); one that names no array disables the step;
// - values are read as plotly reads an axis' data: numbers (text like "1,200" or "$5" too), dates
//   (`yyyy-mm-dd hh:mm:ss`, compared and averaged in time) or categories (in order of appearance);
// - aggregate merges the points of one group into one: each `aggregations` target by its func, every
//   other data array by its first value; filter keeps the points its operation passes (`preservegaps`
//   leaves gaps instead); sort reorders every data array, values that are no number last.
// Bounded: linear in the trace's values (sort and median n log n), nothing for traces without
// transforms, at most TRANSFORM_LIMITS.transforms a trace; a broken step is skipped, never thrown.
//
// `figureTransforms` runs in the browser (through the draw guard, lib/shared/figures/draw-guard.ts), on
// the server (chart-values.ts) and in the renderer's pages, where it is injected as text: it must
// refer to nothing outside itself.

import { TRANSFORM_LIMITS } from '../limits';

/** The steps above, self-contained (see above); `limits.transforms` steps a trace at most (the API refuses more). */
export function figureTransforms(limits: { transforms: number }) {
  type Node = Record<string, unknown>;
  type Kind = 'number' | 'date' | 'category';
  // Arrays that are settings, not one value a point (and `meta`, which templates index as a whole).
  const SETTINGS = ['transforms', 'colorscale', 'domain', 'range', 'tickvals', 'ticktext', 'categoryarray', 'selectedpoints', 'dimensions', 'colorbar', 'meta'];
  const JUNK = /^['"%,$#\s']+|[, ]|['"%,$#\s']+$/g;
  const DATE = /^\s*(-?\d{4})-(\d{1,2})(?:-(\d{1,2})(?:[ T](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(\.\d+)?)?)?)?)?\s*$/;

  const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

  /** plotly's cleanNumber: a finite number, or undefined (BADNUM). */
  function numberOf(v: unknown): number | undefined {
    if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
    if (typeof v !== 'string') return undefined;
    const s = v.replace(JUNK, '');
    if (s === '') return undefined;
    const n = Number(s);
    return Number.isFinite(n) ? n : undefined;
  }

  function dateOf(v: unknown): number | undefined {
    if (typeof v !== 'string') return undefined;
    const m = DATE.exec(v);
    if (!m) return undefined;
    const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? (i === 3 ? 1 : 0)));
    const ms = Math.round(Number(m[7] ?? 0) * 1000);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
    const t = new Date(0);
    t.setUTCFullYear(y, mo - 1, d);
    t.setUTCHours(h, mi, s, ms);
    return t.getTime();
  }

  /** A time as plotly writes it: the date, then only as much of the time as is not zero. */
  function dateText(ms: number): string {
    const t = new Date(ms);
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    let out = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
    const [h, mi, s, f] = [t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds(), t.getUTCMilliseconds()];
    if (h || mi || s || f) out += ` ${pad(h)}:${pad(mi)}`;
    if (s || f) out += `:${pad(s)}`;
    if (f) out += `.${pad(f, 3)}`.replace(/0+$/, '');
    return out;
  }

  /** plotly's autotype of an array: dates when they outnumber numbers twice, categories likewise, else numbers. */
  function kindOf(values: unknown[]): Kind {
    let numbers = 0;
    let dates = 0;
    const texts = new Set<string>();
    for (const v of values) {
      if (v === null || v === undefined || v === '') continue;
      if (numberOf(v) !== undefined) numbers++;
      else if (dateOf(v) !== undefined) dates++;
      else texts.add(String(v));
    }
    if (dates > 2 * numbers) return 'date';
    if (texts.size > 2 * numbers) return 'category';
    return 'number';
  }

  /** Data to calculation and back, for one kind of values (a category by its place among those seen). */
  function conversions(kind: Kind) {
    if (kind === 'number') return { d2c: numberOf, c2d: (c: number) => c };
    if (kind === 'date') return { d2c: dateOf, c2d: dateText };
    const index = new Map<string, number>();
    const names: unknown[] = [];
    return {
      d2c: (v: unknown) => {
        if (v === null || v === undefined || v === '') return undefined;
        const key = String(v);
        let i = index.get(key);
        if (i === undefined) {
          i = names.length;
          index.set(key, i);
          names.push(v);
        }
        return i;
      },
      c2d: (c: number) => names[Math.round(c)],
    };
  }

  const getPath = (node: unknown, path: string): unknown => path.split('.').reduce<unknown>((n, k) => (isNode(n) ? n[k] : undefined), node);
  function setPath(node: Node, path: string, value: unknown): void {
    const parts = path.split('.');
    let at = node;
    for (const k of parts.slice(0, -1)) {
      if (!isNode(at[k])) at[k] = {};
      at = at[k] as Node;
    }
    at[parts[parts.length - 1]] = value;
  }

  /** A copy of the trace's objects (its arrays shared: each step replaces the arrays it changes). */
  const copyObjects = (node: Node): Node => Object.fromEntries(Object.entries(node).map(([k, v]) => [k, isNode(v) ? copyObjects(v) : v]));

  /** The trace's data arrays (one value a point) as dotted paths, settings left out. */
  function arrayPaths(node: Node, prefix = '', depth = 0, out: string[] = []): string[] {
    if (depth > 4) return out;
    for (const [key, value] of Object.entries(node)) {
      if (SETTINGS.includes(key)) continue;
      if (Array.isArray(value)) {
        if (!value.some(isNode)) out.push(prefix + key);
      } else if (isNode(value)) arrayPaths(value, `${prefix}${key}.`, depth + 1, out);
    }
    return out;
  }

  /** The array a step works by: the attribute it names (`x` when unset), or its own array. */
  function targetArray(trace: Node, target: unknown): unknown[] | undefined {
    if (Array.isArray(target)) return target.length ? target : undefined;
    const value = getPath(trace, typeof target === 'string' && target ? target : 'x');
    return Array.isArray(value) ? value : undefined;
  }

  /** Every data array of `trace` remade point by point: `pick(i)` is the old point at new place `i`. */
  function remap(trace: Node, length: number, pick: (i: number) => number | undefined): void {
    for (const path of arrayPaths(trace)) {
      const old = getPath(trace, path) as unknown[];
      const next = new Array(length);
      for (let i = 0; i < length; i++) {
        const j = pick(i);
        next[i] = j === undefined ? null : (old[j] ?? null);
      }
      setPath(trace, path, next);
    }
  }

  const OPS: Record<string, (c: number, v: number[]) => boolean> = {
    '=': (c, v) => c === v[0],
    '!=': (c, v) => c !== v[0],
    '<': (c, v) => c < v[0],
    '<=': (c, v) => c <= v[0],
    '>': (c, v) => c > v[0],
    '>=': (c, v) => c >= v[0],
    '[]': (c, v) => c >= v[0] && c <= v[1],
    '()': (c, v) => c > v[0] && c < v[1],
    '[)': (c, v) => c >= v[0] && c < v[1],
    '(]': (c, v) => c > v[0] && c <= v[1],
    '][': (c, v) => c <= v[0] || c >= v[1],
    ')(': (c, v) => c < v[0] || c > v[1],
    '](': (c, v) => c <= v[0] || c > v[1],
    ')[': (c, v) => c < v[0] || c >= v[1],
  };

  function filter(trace: Node, t: Node): void {
    const target = targetArray(trace, t.target);
    if (!target) return;
    const { d2c } = conversions(kindOf(target));
    // Categories are placed in their order in the data before the values asked for.
    for (const v of target) d2c(v);
    const operation = typeof t.operation === 'string' ? t.operation : '=';
    const raw = t.value === undefined ? 0 : t.value;
    const values = Array.isArray(raw) ? raw : [raw];
    let keep: (v: unknown) => boolean;
    if (operation === '{}' || operation === '}{') {
      const set = new Set(values.map(d2c));
      keep = operation === '{}' ? (v) => set.has(d2c(v)) : (v) => !set.has(d2c(v));
    } else {
      const test = OPS[operation];
      if (!test) return;
      // An interval of one value is that value at both ends (plotly's rule).
      const bounds = [d2c(values[0]), d2c(values.length > 1 ? values[1] : values[0])] as number[];
      keep = (v) => test(d2c(v) as number, bounds);
    }
    const passes = target.map((v) => keep(v));
    if (t.preservegaps === true) remap(trace, target.length, (i) => (passes[i] ? i : undefined));
    else {
      const kept: number[] = [];
      for (let i = 0; i < passes.length; i++) if (passes[i]) kept.push(i);
      remap(trace, kept.length, (i) => kept[i]);
    }
  }

  function sort(trace: Node, t: Node): void {
    const target = targetArray(trace, t.target);
    if (!target) return;
    const { d2c } = conversions(kindOf(target));
    const sign = t.order === 'descending' ? -1 : 1;
    const keys = target.map((v) => d2c(v));
    // Values that are no number go last either way; the sort is stable, as plotly's.
    const order = keys
      .map((_, i) => i)
      .sort((a, b) => {
        const [ka, kb] = [keys[a], keys[b]];
        if (ka === undefined || kb === undefined) return ka === kb ? 0 : ka === undefined ? 1 : -1;
        return sign * (ka - kb);
      });
    remap(trace, order.length, (i) => order[i]);
  }

  type Reduce = (values: (number | undefined)[]) => number | undefined;
  const numbers = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined);
  // A loop, not Math.max(...values): a group may hold more values than a call takes arguments.
  const extreme = (ns: number[], sign: 1 | -1) => (ns.length ? ns.reduce((a, b) => (sign * (b - a) > 0 ? b : a)) : undefined);
  const REDUCERS: Record<string, Reduce> = {
    sum: (vs) => numbers(vs).reduce((a, b) => a + b, 0),
    avg: (vs) => {
      const ns = numbers(vs);
      return ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : undefined;
    },
    min: (vs) => extreme(numbers(vs), -1),
    max: (vs) => extreme(numbers(vs), 1),
    range: (vs) => {
      const ns = numbers(vs);
      return ns.length ? extreme(ns, 1)! - extreme(ns, -1)! : undefined;
    },
    change: (vs) => (vs[0] === undefined || vs[vs.length - 1] === undefined ? undefined : (vs[vs.length - 1] as number) - vs[0]),
    median: (vs) => {
      const ns = numbers(vs).sort((a, b) => a - b);
      if (!ns.length) return undefined;
      const mid = (ns.length - 1) / 2;
      return (ns[Math.floor(mid)] + ns[Math.ceil(mid)]) / 2;
    },
    mode: (vs) => {
      const counts = new Map<number, number>();
      let best: number | undefined;
      let most = 0;
      for (const v of numbers(vs)) {
        const n = (counts.get(v) ?? 0) + 1;
        counts.set(v, n);
        if (n > most) [most, best] = [n, v];
      }
      return best;
    },
    rms: (vs) => {
      const ns = numbers(vs);
      return ns.length ? Math.sqrt(ns.reduce((a, b) => a + b * b, 0) / ns.length) : undefined;
    },
  };

  function stddev(vs: (number | undefined)[], sample: boolean): number | undefined {
    const ns = numbers(vs);
    if (!ns.length) return undefined;
    const mean = ns.reduce((a, b) => a + b, 0) / ns.length;
    const norm = sample ? ns.length - 1 : ns.length;
    return norm ? Math.sqrt(ns.reduce((a, b) => a + (b - mean) ** 2, 0) / norm) : 0;
  }

  function aggregate(trace: Node, t: Node): void {
    const groupsAttr = typeof t.groups === 'string' ? t.groups : Array.isArray(t.groups) ? null : 'x';
    const groupArray = targetArray(trace, groupsAttr ?? t.groups);
    if (!groupArray) return;
    const seen = new Map<string, number>();
    const groups: number[][] = [];
    groupArray.forEach((v, i) => {
      const key = String(v);
      const g = seen.get(key);
      if (g === undefined) {
        seen.set(key, groups.length);
        groups.push([i]);
      } else groups[g].push(i);
    });
    const arrays = arrayPaths(trace);
    // Each array once: the first enabled aggregation of it (count may make a new one), the rest by their first value.
    const funcs = new Map<string, Node>();
    if (groupsAttr) funcs.set(groupsAttr, { func: 'first' });
    for (const a of Array.isArray(t.aggregations) ? t.aggregations : []) {
      if (!isNode(a) || a.enabled === false || typeof a.target !== 'string' || funcs.has(a.target)) continue;
      const func = typeof a.func === 'string' ? a.func : 'first';
      if (arrays.includes(a.target) || (func === 'count' && getPath(trace, a.target) === undefined)) funcs.set(a.target, { ...a, func });
    }
    for (const path of arrays) if (!funcs.has(path)) funcs.set(path, { func: 'first' });
    for (const [path, a] of funcs) {
      const old = getPath(trace, path);
      const values = Array.isArray(old) ? old : [];
      const func = a.func as string;
      let one: (indices: number[]) => unknown;
      if (func === 'count') one = (ix) => ix.length;
      else if (func === 'first') one = (ix) => values[ix[0]] ?? null;
      else if (func === 'last') one = (ix) => values[ix[ix.length - 1]] ?? null;
      else {
        const { d2c, c2d } = conversions(kindOf(values));
        const reduce: Reduce | undefined = func === 'stddev' ? (vs) => stddev(vs, a.funcmode !== 'population') : REDUCERS[func];
        if (!reduce) continue;
        // A standard deviation is a length, never a date or a category.
        one = (ix) => {
          const c = reduce(ix.map((i) => d2c(values[i])));
          return c === undefined ? null : func === 'stddev' ? c : c2d(c);
        };
      }
      setPath(
        trace,
        path,
        groups.map((ix) => one(ix)),
      );
    }
  }

  const STEPS: Record<string, (trace: Node, t: Node) => void> = { aggregate, filter, sort };

  /** One trace with its enabled transforms applied, without them; the trace itself when it has none. */
  function applyTraceTransforms<T>(trace: T): T {
    if (!isNode(trace) || !Array.isArray(trace.transforms) || !trace.transforms.length) return trace;
    const out = copyObjects(trace);
    delete out.transforms;
    for (const t of trace.transforms.slice(0, limits.transforms)) {
      if (!isNode(t) || t.enabled === false || typeof t.type !== 'string' || !Object.hasOwn(STEPS, t.type)) continue;
      STEPS[t.type](out, t);
    }
    return out as T;
  }

  /** The figure plotly 4 should draw: each trace's transforms applied (see above); the figure itself when none has any. */
  function applyTransforms<F>(figure: F): F {
    const data = isNode(figure) ? figure.data : undefined;
    if (!Array.isArray(data) || !data.some((t) => isNode(t) && Array.isArray(t.transforms) && t.transforms.length)) return figure;
    return { ...figure, data: data.map(applyTraceTransforms) };
  }

  return { applyTransforms, applyTraceTransforms };
}

export const { applyTransforms, applyTraceTransforms } = figureTransforms(TRANSFORM_LIMITS);
