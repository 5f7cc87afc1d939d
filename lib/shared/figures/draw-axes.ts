// One axis, as the draw guard (draw-guard.ts) sees it: what is known of it (from the figure's text,
// or from plotly's drawing of it) and how many ticks it draws, counted the way plotly's axis code
// counts them (type linear, log, date, category or multicategory; tickmode auto, linear or array;
// dtick as a number, "L<f>", "D1"/"D2", "M<n>"), and a part of it held to a limit. Like the guard,
// `drawAxes` is injected into pages as text (`drawAxes.toString()`): it must refer to nothing outside
// itself (its types aside, which compile away).

type Node = Record<string, unknown>;
type Range = [number, number];

export interface AxisFacts {
  /** linear, log, date, category or multicategory; unknown until plotly has typed it from the data. */
  type?: string;
  /** The axis range in plotly's linear units: log10 on log axes, ms on date axes, index on category axes. */
  range?: Range;
  /** How many categories the axis has (plotly never ticks past the last). */
  categories?: number;
  /** A tick value in the range's units. */
  toLinear?: (value: unknown) => number | undefined;
}

/** An object with ticks, where it sits in a figure. */
export interface Axis {
  node: Node;
  path: (string | number)[];
  parent: Node | undefined;
  /** Counted in the figure's shares (frames replace the axes they name, so are not). */
  shared: boolean;
  /** The trace holding a carpet axis. */
  carpet?: Node;
}

/** The axis rules, self-contained (see above). */
export function drawAxes() {
  type Facts = AxisFacts;

  const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);
  const ONEDAY = 864e5;
  const ONEAVGMONTH = 2629743831.225;
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

  const AXIS_TYPES = ['linear', 'log', 'date', 'category', 'multicategory'];

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

  return { isNode, numeric, cleanDtick, linearCount, dateMs, values, tickmodeOf, settlePart, staticFacts, drawnFacts };
}

export type DrawAxes = ReturnType<typeof drawAxes>;
