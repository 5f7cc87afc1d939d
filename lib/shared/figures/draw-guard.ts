// plotly.js steps through every tick an axis asks for and measures every tick label, annotation,
// slider step and menu button it draws, so a few bytes of layout can freeze a browser tab or hold the
// renderer for minutes: a log axis ticked every "L1e-6", a date axis ticked every millisecond over
// decades, tens of thousands of `tickvals`, a `minor.dtick` plotly does not even cap, thousands of
// annotations. Before any drawing (pages, cards, thumbnails and exports), `tameFigure` holds a figure
// to a drawing budget, `DRAW_LIMITS`:
// - Ticks, counted the way plotly's axis code counts them (type linear, log, date, category or
//   multicategory; tickmode auto, linear or array; dtick as a number, "L<f>", "D1"/"D2", "M<n>"), on
//   every object that has ticks wherever it sits: cartesian, 3D, polar, ternary, smith, carpet and
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
// is injected as text (`drawGuard.toString()`): it must refer to nothing outside itself.

import { figureTextRules, safeFigure } from './figure-text';

export interface PlotlyLike {
  newPlot(el: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
  purge(el: HTMLElement): void;
}

/** Over a limit, `cut` draws the first items (pages, thumbnails); `refuse` throws (exports). */
export type Overflow = 'cut' | 'refuse';

export interface AxisFacts {
  /** linear, log, date, category or multicategory; unknown until plotly has typed it from the data. */
  type?: string;
  /** The axis range in plotly's linear units: log10 on log axes, ms on date axes, index on category axes. */
  range?: [number, number];
  /** How many categories the axis has (plotly never ticks past the last). */
  categories?: number;
  /** A tick value in the range's units. */
  toLinear?: (value: unknown) => number | undefined;
}

/** The draw guard: its budget, the tick counting and `tameFigure`, self-contained (see above). */
export function drawGuard() {
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
  type Range = [number, number];
  type Facts = AxisFacts;

  const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);
  const ONEDAY = 864e5;
  const ONEAVGMONTH = 2629743831.225;
  const AXIS_TYPES = ['linear', 'log', 'date', 'category', 'multicategory'];
  // What plotly's own choice (tickmode auto without nticks) comes to on an axis: minor ticks split it.
  const AUTO_TICKS = 10;
  const MINOR_PER_MAJOR = 5;

  /** A number or numeric string, as plotly reads one (fast-isnumeric); else undefined. */
  function numeric(v: unknown): number | undefined {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) ? n : undefined;
  }

  // plotly's date strings: years of four digits (negative too), then month, day, time, any zone ignored.
  const DATE = /^\s*(-?\d{4})(?:-(\d\d?)(?:-(\d\d?)(?:[ Tt](\d\d?)(?::(\d\d)(?::(\d\d(?:\.\d+)?))?)?)?)?)?\s*(?:[Zz]|[+-]\d\d(?::?\d\d)?)?\s*$/;
  /** A date (plotly's string form or ms) in ms since 1970; undefined if it is neither. */
  function dateMs(v: unknown): number | undefined {
    if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
    const m = typeof v === 'string' ? DATE.exec(v) : null;
    if (!m) return undefined;
    const d = new Date(0);
    d.setUTCFullYear(Number(m[1]), Number(m[2] ?? 1) - 1, Number(m[3] ?? 1));
    d.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0), 0, 0);
    return d.getTime() + Number(m[6] ?? 0) * 1000;
  }

  /** A value of an axis of `type` in the axis' linear units, where that needs no categories. */
  function converter(type: string | undefined): ((v: unknown) => number | undefined) | undefined {
    if (type === 'linear') return numeric;
    if (type === 'date') return dateMs;
    if (type === 'log') {
      return (v) => {
        const n = numeric(v);
        return n !== undefined && n > 0 ? Math.log10(n) : undefined;
      };
    }
    return undefined;
  }

  /** The dtick plotly really steps by on an axis of `type` (its cleanTicks.dtick): bad ones become its default. */
  function cleanDtick(dtick: unknown, type: string): number | string {
    const fallback = type === 'date' ? ONEDAY : 1;
    if (!dtick) return fallback;
    const n = numeric(dtick);
    if (n !== undefined) {
      if (n <= 0) return fallback;
      if (type === 'category') return Math.max(1, Math.round(n));
      return type === 'date' ? Math.max(0.1, n) : n;
    }
    if (typeof dtick !== 'string' || (type !== 'date' && type !== 'log')) return fallback;
    const kind = dtick.charAt(0);
    const step = numeric(dtick.slice(1)) ?? 0;
    const valid =
      step > 0 &&
      ((type === 'date' && kind === 'M' && step === Math.round(step)) ||
        (type === 'log' && kind === 'L') ||
        (type === 'log' && kind === 'D' && (step === 1 || step === 2)));
    return valid ? dtick : fallback;
  }

  /** Ticks a `tickmode: 'linear'` axis of `type` steps through over `range` (linear units). */
  function linearCount(dtick: unknown, type: string, range: Range, categories?: number): number {
    const d = cleanDtick(dtick, type);
    const lo = Math.min(range[0], range[1]);
    const hi = Math.max(range[0], range[1]);
    const span = categories === undefined ? hi - lo : Math.min(hi - lo, categories);
    if (typeof d === 'number') return Math.floor(span / d) + 1;
    const step = Number(d.slice(1));
    if (d.charAt(0) === 'M') return Math.floor(span / (step * ONEAVGMONTH)) + 1;
    // "L<f>": every f in data values; "D1": every digit of each decade, "D2": its 1, 2 and 5.
    if (d.charAt(0) === 'L') return Math.floor((10 ** hi - 10 ** lo) / step) + 1;
    return Math.floor(span * (d === 'D1' ? 9 : 3)) + 1;
  }

  const TYPED: Record<string, { new (buffer: ArrayBuffer): ArrayLike<number>; BYTES_PER_ELEMENT: number }> = {
    f8: Float64Array,
    f4: Float32Array,
    i4: Int32Array,
    u4: Uint32Array,
    i2: Int16Array,
    u2: Uint16Array,
    i1: Int8Array,
    u1: Uint8Array,
    u1c: Uint8ClampedArray,
  };
  /** An array attribute's values: a plain array, or plotly's typed form `{dtype, bdata}` decoded. */
  function values(v: unknown): unknown[] | undefined {
    if (Array.isArray(v)) return v;
    if (!isNode(v) || typeof v.bdata !== 'string' || typeof v.dtype !== 'string') return undefined;
    const Typed = TYPED[v.dtype];
    if (!Typed) return [];
    try {
      const text = atob(v.bdata);
      const bytes = new Uint8Array(text.length - (text.length % Typed.BYTES_PER_ELEMENT));
      for (let i = 0; i < bytes.length; i++) bytes[i] = text.charCodeAt(i);
      return Array.from(new Typed(bytes.buffer));
    } catch {
      return [];
    }
  }

  /** The tickmode plotly settles on for an axis or its `minor` (sync follows another axis: as auto). */
  function tickmodeOf(part: Node): 'auto' | 'linear' | 'array' {
    const v = part.tickvals;
    const hasValues = Array.isArray(v) || (isNode(v) && typeof v.bdata === 'string' && typeof v.dtype === 'string');
    const mode = part.tickmode;
    if (mode === 'linear' || mode === 'auto') return mode;
    if (mode === 'sync') return 'auto';
    if (mode === 'array') return hasValues ? 'array' : 'auto';
    return hasValues ? 'array' : part.dtick ? 'linear' : 'auto';
  }

  /** Lets plotly choose the ticks of an axis part (its tickvals, if any, then decide). */
  function dropLinear(part: Node): void {
    delete part.dtick;
    if (part.tickmode === 'linear') delete part.tickmode;
  }

  /**
   * Keeps every k-th tick value (and its text) of those in `range` (of all, if the range is unknown),
   * at most `limit` (at least one): answers how many are left.
   */
  function thin(part: Node, vals: unknown[], limit: number, facts: Facts): number {
    let at = vals.map((_, i) => i);
    const { range, toLinear } = facts;
    if (range && toLinear) {
      const lo = Math.min(range[0], range[1]);
      const hi = Math.max(range[0], range[1]);
      at = at.filter((i) => {
        const x = toLinear(vals[i]);
        return x !== undefined && x >= lo && x <= hi;
      });
    }
    const every = Math.max(1, Math.ceil(at.length / limit));
    const kept = at.filter((_, j) => j % every === 0);
    const text = Array.isArray(part.ticktext) ? part.ticktext : undefined;
    part.tickvals = kept.map((i) => vals[i]);
    if (text) part.ticktext = kept.filter((i) => i < text.length).map((i) => text[i]);
    return kept.length;
  }

  /**
   * Holds an axis (or its `minor`, given the major ticks it splits) to `limit` ticks, given what is
   * known of it; answers the ticks it will draw, or undefined when that takes facts not yet known
   * (unless `final`: then the unknown is treated as too many).
   */
  function settlePart(part: Node, facts: Facts, limit: number, final: boolean, major?: number): number | undefined {
    const nticks = numeric(part.nticks);
    if (major === undefined && nticks !== undefined && nticks > limit) {
      if (limit > 0) part.nticks = limit;
      else delete part.nticks;
    }
    const mode = tickmodeOf(part);
    if (mode === 'auto') {
      if (major === undefined) return numeric(part.nticks) || AUTO_TICKS;
      // Minor ticks split each major interval into `nticks`.
      const per = nticks && nticks > 0 ? nticks : MINOR_PER_MAJOR;
      if (major * per <= limit) return major * per;
      const fit = Math.floor(limit / Math.max(major, 1));
      if (fit < 1) return undefined;
      part.nticks = fit;
      return major * fit;
    }
    if (mode === 'linear') {
      const { type, range, categories } = facts;
      const count = type && range ? linearCount(part.dtick, type, range, categories) : undefined;
      if (count !== undefined && count <= limit) return count;
      // Categories the data bring may end the axis sooner: learn them before judging.
      const partial = count === undefined || ((type === 'category' || type === 'multicategory') && categories === undefined);
      if (partial && !final) return undefined;
      dropLinear(part);
      return settlePart(part, facts, limit, final, major);
    }
    const vals = values(part.tickvals) ?? [];
    // Texts past the values are never shown, but plotly reads them all for every tick.
    if (Array.isArray(part.ticktext) && part.ticktext.length > vals.length) part.ticktext = part.ticktext.slice(0, vals.length);
    if (vals.length <= limit) return vals.length;
    if (limit === 0) {
      delete part.tickvals;
      delete part.ticktext;
      if (part.tickmode === 'array') delete part.tickmode;
      return settlePart(part, facts, limit, final, major);
    }
    if (!(facts.range && facts.toLinear) && !final) return undefined;
    return thin(part, vals, limit, facts);
  }

  /** Reads a range of an axis of `type`: log ranges are already in decades, category ranges indices. */
  const rangeReader = (type: string | undefined) => (type === 'date' ? dateMs : type ? numeric : undefined);

  /** The facts of a range attribute, if the axis is not autoranged. */
  function rangeOf(node: Node, toLinear?: (v: unknown) => number | undefined): Range | undefined {
    const r = node.range;
    if (!Array.isArray(r) || r.length !== 2 || !toLinear) return undefined;
    if (node.autorange !== undefined && node.autorange !== false) return undefined;
    const a = toLinear(r[0]);
    const b = toLinear(r[1]);
    return a !== undefined && b !== undefined ? [a, b] : undefined;
  }
  const bounds = (n: unknown, a: string, b: string): Range | undefined => {
    if (!isNode(n)) return undefined;
    const lo = numeric(n[a]);
    const hi = numeric(n[b]);
    return lo !== undefined && hi !== undefined ? [lo, hi] : undefined;
  };

  interface Axis {
    node: Node;
    path: (string | number)[];
    parent: Node | undefined;
    /** Counted in the figure's shares (frames replace the axes they name, so are not). */
    shared: boolean;
    /** The trace holding a carpet axis. */
    carpet?: Node;
  }

  /** What the figure's own text says about an axis. */
  function staticFacts(axis: Axis): Facts {
    const { node, parent, path } = axis;
    const key = String(path[path.length - 1]);
    const parentKey = String(path[path.length - 2]);
    let type = typeof node.type === 'string' && AXIS_TYPES.includes(node.type) ? node.type : undefined;
    let range: Range | undefined;
    if (key === 'colorbar') {
      type = 'linear';
      range = bounds(parent, 'cmin', 'cmax') ?? bounds(parent, 'zmin', 'zmax');
    } else if (/^[abc]axis$/.test(key) && /^ternary\d*$/.test(parentKey)) {
      type = 'linear';
      range = [0, numeric(parent?.sum) ?? 1];
    } else if (key === 'axis' && parentKey === 'gauge') {
      type = 'linear';
    } else if (key === 'angularaxis' && type === 'linear') {
      range = [0, 360];
    }
    return { type, range: range ?? rangeOf(node, rangeReader(type)), toLinear: converter(type) };
  }

  interface FullAxis {
    type?: string;
    range?: unknown[];
    _categories?: unknown[];
    _zrange?: unknown[];
    r2l?: (v: unknown) => number;
    d2l?: (v: unknown) => number;
    d2l_noadd?: (v: unknown) => number;
  }
  /** What plotly made of an axis in a drawing (`gd`): its type, range and categories. */
  function drawnFacts(axis: Axis, gd: { _fullLayout?: Node; _fullData?: unknown[] }, figure: { frames?: unknown[] }): Facts | undefined {
    let path = axis.path;
    // A frame's axes are the figure's own, restyled: its traces are the figure's it names.
    if (path[0] === 'frames') {
      const frame = (figure.frames ?? [])[Number(path[1])];
      const traces = isNode(frame) && Array.isArray(frame.traces) ? frame.traces : [];
      path = path[2] === 'data' ? ['data', Number(traces[Number(path[3])] ?? path[3]), ...path.slice(4)] : path.slice(2);
    }
    const at = (p: (string | number)[]): unknown =>
      p
        .slice(1)
        .reduce<unknown>(
          (n, key) => (isNode(n) || Array.isArray(n) ? (n as Node)[key as string] : undefined),
          p[0] === 'layout' ? gd._fullLayout : gd._fullData,
        );
    const full = at(path);
    const fullParent = at(path.slice(0, -1));
    if (!isNode(full)) return undefined;
    // Polar and ternary subplots keep the axes they draw with (range and all) on their subplot.
    const key = String(path[path.length - 1]);
    const subplot = isNode(fullParent) && isNode(fullParent._subplot) ? fullParent._subplot : undefined;
    const drawn = (Array.isArray(full.range) ? full : (subplot?.[key.replace('axis', 'Axis')] ?? subplot?.[key] ?? full)) as FullAxis;
    const own = staticFacts(axis);
    const type = typeof drawn.type === 'string' && AXIS_TYPES.includes(drawn.type) ? drawn.type : own.type;
    const r2l = typeof drawn.r2l === 'function' ? (v: unknown) => numeric(drawn.r2l!(v)) : rangeReader(type);
    const d2l = drawn.d2l_noadd ?? drawn.d2l;
    const toLinear = typeof d2l === 'function' ? (v: unknown) => numeric(d2l(v)) : converter(type);
    const range =
      rangeOf(axis.node, r2l) ??
      (Array.isArray(drawn.range) ? rangeOf({ range: drawn.range }, r2l) : undefined) ??
      (Array.isArray(drawn._zrange) ? rangeOf({ range: drawn._zrange }, numeric) : undefined) ??
      bounds(fullParent, 'cmin', 'cmax') ??
      bounds(fullParent, 'zmin', 'zmax') ??
      own.range;
    const categorical = type === 'category' || type === 'multicategory';
    const categories = categorical && Array.isArray(drawn._categories) ? drawn._categories.length : undefined;
    return { type, range, categories, toLinear };
  }

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

  return { LIMITS, tameFigure, budgetFigure, linearCount, cleanDtick, dateMs, settlePart };
}

const guard = drawGuard();
export const { LIMITS: DRAW_LIMITS, budgetFigure, linearCount, cleanDtick, dateMs, settlePart } = guard;

/** Every drawing's way in: the figure's text made safe (lib/shared/figures/figure-text.ts), then held to the budget. */
export const tameFigure: typeof guard.tameFigure = (Plotly, figure, overflow) => guard.tameFigure(Plotly, safeFigure(figure), overflow);

/**
 * The guard for a page of its own (the renderer's), as `window.__tameFigure`: the compiled source of
 * `figureTextRules` and `drawGuard`, text made safe first. Under tsx (npm run worker) esbuild keeps function names with a __name(fn, name)
 * helper the page does not have: it is given one.
 */
export const drawGuardScript = () =>
  [
    'var __name = function (fn) { return fn; };',
    `window.__safeFigure = (${figureTextRules.toString()})().safeFigure;`,
    `window.__tameFigure = (function (tame) { return function (P, f, o) { return tame(P, window.__safeFigure(f), o); }; })((${drawGuard.toString()})().tameFigure);`,
  ].join('\n');
