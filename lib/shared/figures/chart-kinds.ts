// The chart types the editor's picker offers, each as plotly trace settings and the data roles its
// panel maps columns to. The map of which roles a type takes and how a trace is recognised follows
// react-chart-editor (Chart Studio's editor: its GraphCreatePanel's DataSelectors, traceTypes and
// customTraceType's plotlyTraceToCustomTrace / traceTypeToPlotlyInitFigure), written over plotly.js's
// own attribute names. Each role says which columns fit it (column-facts.ts): a type change and the
// first chart (chart-choice.ts) never put a city where numbers go.
import type { ColumnFacts, ValueKind } from './column-facts';
import { convertSteps } from './trace-steps';

/** A role's label (what its control is called) and the trace attribute it maps a column to. */
export interface Role {
  label: 'X' | 'Y' | 'Labels' | 'Values' | 'Size' | 'Colour' | 'Text' | 'Latitude' | 'Longitude' | 'Locations' | 'Open' | 'High' | 'Low' | 'Close' | 'Z';
  /** The data attribute (dotted path, `marker.color`); its src is `{attr}src`. */
  attr: string;
  required?: boolean;
  /** Several columns of one grid (a 2D z: one row a column). */
  multiple?: boolean;
  /** Never carried over from another type (a heatmap's Y names its rows, one a Z column: another type's Y would not fit). */
  fresh?: boolean;
  /** The kinds of column it draws (any when unset); `place`: a column of countries. */
  takes?: ValueKind[] | 'place';
  /** A several-column role that also takes one column of long data, placed by the trace's X and Y (a heatmap's Z). */
  long?: boolean;
}

const NUMBERS: ValueKind[] = ['number'];

export interface ChartKind {
  id: string;
  /** The picker's text (kept exactly: checks from outside name them). */
  label: string;
  /** The trace settings that make this type (set when a trace becomes it). */
  trace: Record<string, unknown>;
  /** Layout settings the type needs (dotted paths). */
  layout?: Record<string, unknown>;
  roles: Role[];
  /** The roles a data step works by: what an aggregate groups by (the categories) and what it reduces (the values). */
  steps?: { group: string; value: string };
}

const XY_STEPS = { group: 'x', value: 'y' };

const X: Role = { label: 'X', attr: 'x', required: true };
const Y: Role = { label: 'Y', attr: 'y', required: true, takes: NUMBERS };
const TEXT: Role = { label: 'Text', attr: 'text' };
const COLOUR: Role = { label: 'Colour', attr: 'marker.color' };
const SIZE: Role = { label: 'Size', attr: 'marker.size', takes: NUMBERS };
const LABELS: Role = { label: 'Labels', attr: 'labels', required: true };
const VALUES: Role = { label: 'Values', attr: 'values', required: true, takes: NUMBERS };
const Z_COLUMNS: Role = { label: 'Z', attr: 'z', required: true, multiple: true, takes: NUMBERS };
const number = (label: Role['label'], attr: string): Role => ({ label, attr, required: true, takes: NUMBERS });
const optional = (r: Role): Role => ({ ...r, required: false });

export const CHART_KINDS: readonly ChartKind[] = [
  { id: 'line', label: 'Line', trace: { type: 'scatter', mode: 'lines' }, roles: [X, Y, TEXT], steps: XY_STEPS },
  {
    id: 'scatter',
    label: 'Scatter',
    trace: { type: 'scatter', mode: 'markers' },
    roles: [{ ...X, takes: ['number', 'date'] }, Y, TEXT, COLOUR, SIZE],
    steps: XY_STEPS,
  },
  { id: 'bar', label: 'Bar', trace: { type: 'bar' }, layout: { 'layout.barmode': 'group' }, roles: [X, Y, TEXT], steps: XY_STEPS },
  { id: 'stacked-bar', label: 'Stacked bar', trace: { type: 'bar' }, layout: { 'layout.barmode': 'stack' }, roles: [X, Y, TEXT], steps: XY_STEPS },
  { id: 'area', label: 'Area', trace: { type: 'scatter', mode: 'lines', fill: 'tozeroy' }, roles: [X, Y, TEXT], steps: XY_STEPS },
  {
    id: 'pie',
    label: 'Pie',
    trace: { type: 'pie' },
    roles: [LABELS, VALUES, TEXT],
    steps: { group: 'labels', value: 'values' },
  },
  {
    id: 'donut',
    label: 'Donut',
    trace: { type: 'pie', hole: 0.45 },
    roles: [LABELS, VALUES, TEXT],
    steps: { group: 'labels', value: 'values' },
  },
  { id: 'histogram', label: 'Histogram', trace: { type: 'histogram' }, roles: [X, optional(Y)] },
  { id: 'box', label: 'Box', trace: { type: 'box' }, roles: [Y, { ...optional(X), takes: ['category', 'date'] }] },
  {
    id: 'heatmap',
    label: 'Heatmap',
    trace: { type: 'heatmap' },
    roles: [{ ...Z_COLUMNS, long: true }, optional(X), { ...Y, required: false, fresh: true, takes: undefined }, TEXT],
  },
  {
    id: 'bubble',
    label: 'Bubble',
    trace: { type: 'scatter', mode: 'markers', marker: { sizemode: 'area' } },
    roles: [{ ...X, takes: ['number', 'date'] }, Y, { ...SIZE, required: true }, COLOUR, TEXT],
  },
  {
    id: 'map-points',
    label: 'Map (points)',
    trace: { type: 'scattergeo', mode: 'markers' },
    roles: [number('Latitude', 'lat'), number('Longitude', 'lon'), TEXT, COLOUR, SIZE],
  },
  {
    id: 'map-regions',
    label: 'Map (regions)',
    trace: { type: 'choropleth' },
    roles: [{ label: 'Locations', attr: 'locations', required: true, takes: 'place' }, { ...VALUES, attr: 'z' }, TEXT],
    steps: { group: 'locations', value: 'z' },
  },
  {
    id: 'scatter3d',
    label: '3D scatter',
    trace: { type: 'scatter3d', mode: 'markers' },
    roles: [{ ...X, takes: NUMBERS }, Y, number('Z', 'z'), TEXT, COLOUR],
  },
  {
    id: 'surface',
    label: 'Surface',
    trace: { type: 'surface' },
    roles: [Z_COLUMNS, optional(X), { ...Y, required: false, fresh: true, takes: undefined }],
  },
  {
    id: 'candlestick',
    label: 'Candlestick',
    trace: { type: 'candlestick' },
    roles: [{ ...X, takes: ['date', 'number'] }, number('Open', 'open'), number('High', 'high'), number('Low', 'low'), number('Close', 'close')],
  },
];

export const kindById = (id: string | null | undefined) => CHART_KINDS.find((k) => k.id === id);

/** Whether a column of these facts fits a role (a column whose facts are unknown fits any). */
export function fits(role: Role, facts: ColumnFacts | undefined): boolean {
  if (!facts || !role.takes) return true;
  return role.takes === 'place' ? facts.place !== undefined : role.takes.includes(facts.kind);
}

/** The columns a type change may draw on: each one's src and facts. */
export interface KnownColumns {
  facts(src: string): ColumnFacts | undefined;
  all: { src: string; facts: ColumnFacts }[];
}

/** The trace settings some kind sets: cleared when a trace becomes a kind that does not set them. */
const KIND_KEYS = ['mode', 'fill', 'stackgroup', 'hole'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The picker's kind of a trace (plotlyTraceToCustomTrace's rules), or null for a type outside the picker. */
export function kindOf(trace: Record<string, unknown>, layout: Record<string, unknown>): ChartKind | null {
  const type = typeof trace.type === 'string' ? trace.type : 'scatter';
  const id = (() => {
    switch (type) {
      case 'scatter':
      case 'scattergl': {
        if ((trace.fill && trace.fill !== 'none') || (trace.stackgroup !== undefined && trace.stackgroup !== null && trace.stackgroup !== '')) return 'area';
        const mode = typeof trace.mode === 'string' ? trace.mode : 'lines+markers';
        if (mode.includes('lines')) return 'line';
        const marker = isRecord(trace.marker) ? trace.marker : {};
        return marker.sizemode === 'area' ? 'bubble' : 'scatter';
      }
      case 'bar':
        return layout.barmode === 'stack' ? 'stacked-bar' : 'bar';
      case 'pie':
        return typeof trace.hole === 'number' && trace.hole > 0 ? 'donut' : 'pie';
      case 'scattergeo':
        return 'map-points';
      case 'choropleth':
        return 'map-regions';
      default:
        return type;
    }
  })();
  return kindById(id) ?? null;
}

/** The common kind of a figure's traces: a kind, 'mixed', or null when there are none. */
export function figureKind(data: Record<string, unknown>[], layout: Record<string, unknown>): ChartKind | 'mixed' | null {
  const kinds = data.map((t) => kindOf(t, layout));
  if (!kinds.length) return null;
  return kinds.every((k) => k !== null && k === kinds[0]) ? kinds[0] : 'mixed';
}

/** `marker.color` -> ['marker', 'colorsrc']: where a data attribute's src lives. */
export const srcPath = (attr: string): string[] => {
  const parts = attr.split('.');
  parts[parts.length - 1] += 'src';
  return parts;
};

function getPath(obj: unknown, parts: string[]): unknown {
  let node = obj;
  for (const p of parts) node = isRecord(node) ? node[p] : undefined;
  return node;
}

function setPath(obj: Record<string, unknown>, parts: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = parts;
  const copy = { ...obj };
  if (!rest.length) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
  } else {
    const child = setPath(isRecord(copy[head]) ? (copy[head] as Record<string, unknown>) : {}, rest, value);
    if (Object.keys(child).length || value !== undefined) copy[head] = child;
    else delete copy[head];
  }
  return copy;
}

/** The src a trace maps a role's attribute to, if any. */
export const roleSrc = (trace: Record<string, unknown>, attr: string): string | undefined => {
  const v = getPath(trace, srcPath(attr));
  return typeof v === 'string' ? v : undefined;
};

/** The trace with a role's attribute mapped to `src` (undefined unmaps it). */
export const withRoleSrc = (trace: Record<string, unknown>, attr: string, src: string | undefined) => setPath(trace, srcPath(attr), src);

/**
 * A trace turned into `to`: its type settings replaced, and its columns carried over role by role
 * (the same attribute where both have it, else the first roles in order: a line's X and Y become a
 * pie's Labels and Values). Roles the new kind lacks are unmapped; every other attribute stays.
 */
export function convertTrace(trace: Record<string, unknown>, layout: Record<string, unknown>, to: ChartKind, columns?: KnownColumns): Record<string, unknown> {
  const from = kindOf(trace, layout);
  if (from === to) return trace;
  let out: Record<string, unknown> = { ...trace };
  for (const key of KIND_KEYS) if (!(key in to.trace)) delete out[key];
  // Nested settings of the old kind (a bubble's marker.sizemode) go with it.
  for (const [key, value] of Object.entries(from?.trace ?? {})) {
    if (!isRecord(value) || !isRecord(out[key])) continue;
    const rest = { ...(out[key] as Record<string, unknown>) };
    for (const sub of Object.keys(value)) if (!isRecord(to.trace[key]) || !(sub in (to.trace[key] as Record<string, unknown>))) delete rest[sub];
    if (Object.keys(rest).length) out[key] = rest;
    else delete out[key];
  }
  for (const [key, value] of Object.entries(to.trace)) {
    out[key] = isRecord(value) ? { ...(isRecord(out[key]) ? (out[key] as Record<string, unknown>) : {}), ...value } : value;
  }
  // Drawn with WebGL (a large grid's scatter), it stays so within the scatter family.
  if (trace.type === 'scattergl' && out.type === 'scatter') out.type = 'scattergl';
  out = convertSteps(out, from?.steps, to.steps);
  if (!from) return out;
  const factsOf = (src: string) => columns?.facts(src.split(',')[0]);
  const srcs = from.roles.map((r) => ({ role: r, src: roleSrc(trace, r.attr) }));
  const kept = new Set(to.roles.filter((r) => !r.fresh).map((r) => r.attr));
  // A column stays in a role of the same attribute only where it fits the new type's role.
  const stays = (attr: string, src: string | undefined) => {
    const role = to.roles.find((r) => r.attr === attr);
    return role !== undefined && kept.has(attr) && (src === undefined || fits(role, factsOf(src)));
  };
  for (const { role, src } of srcs) if (!stays(role.attr, src)) out = withRoleSrc(out, role.attr, undefined);
  const leftovers = srcs.filter((s) => s.src !== undefined && !stays(s.role.attr, s.src)).map((s) => s.src!);
  const used = new Set(srcs.flatMap((s) => (s.src !== undefined && stays(s.role.attr, s.src) ? [s.src] : [])));
  for (const role of to.roles) {
    // A column left over (else, when the grid's columns are known, an unused one) fills a required
    // one-column role it fits; a 2D role takes columns chosen for it.
    if (roleSrc(out, role.attr) !== undefined || !role.required || role.multiple) continue;
    const i = leftovers.findIndex((src) => fits(role, factsOf(src)));
    const src = i >= 0 ? leftovers.splice(i, 1)[0] : columns?.all.find((c) => !used.has(c.src) && fits(role, c.facts))?.src;
    if (src === undefined) continue;
    used.add(src);
    out = withRoleSrc(out, role.attr, src);
  }
  return out;
}

const KIND_WORDS: Record<ValueKind, string> = { number: 'numbers', date: 'dates', category: 'categories' };

/**
 * What a required role lacks to be drawn, as a sentence for its control; null when it has a column (one
 * chosen by hand that a type change would not choose is still drawn: a category Y makes a category axis).
 */
export function roleProblem(kind: ChartKind, role: Role, trace: Record<string, unknown>, columns?: KnownColumns): string | null {
  const src = roleSrc(trace, role.attr);
  // One column of long data is drawn cell by cell at its rows' X and Y: without both, nothing is.
  const missing = ['x', 'y'].filter((a) => roleSrc(trace, a) === undefined).map((a) => a.toUpperCase());
  if (role.long && src !== undefined && !src.includes(',') && missing.length)
    return `One ${role.label} column is long data, each row a cell at its X and Y: choose a column for ${missing.join(' and ')} too, or several ${role.label} columns (one row of cells each).`;
  if (src !== undefined || !role.required) return null;
  const what =
    role.takes === 'place'
      ? 'a column of countries (names or ISO-3 codes)'
      : role.takes
        ? `a column of ${role.takes.map((k) => KIND_WORDS[k]).join(' or ')}`
        : 'a column';
  if (columns && !columns.all.some((c) => fits(role, c.facts)))
    return `${kind.label} needs ${what} for ${role.label}, and this data has none: choose another chart type.`;
  return `Choose ${what} for ${role.label}: ${kind.label} draws nothing without it.`;
}

/** Every src of a trace (nested ones, object arrays too) with its dotted path (`marker.colorsrc`, `transforms.0.targetsrc`). */
export function tracesSrcs(trace: Record<string, unknown>): { path: string; src: string }[] {
  const out: { path: string; src: string }[] = [];
  const walk = (node: unknown, prefix: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${prefix}${i}.`);
    } else if (isRecord(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key.length > 3 && key.endsWith('src') && typeof value === 'string') out.push({ path: prefix + key, src: value });
        else if (typeof value === 'object') walk(value, `${prefix}${key}.`);
      }
    }
  };
  walk(trace, '');
  return out;
}
