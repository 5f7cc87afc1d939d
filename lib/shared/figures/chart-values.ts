// What the text alternative and the data table read of a figure, pure (no database, no browser
// objects): its traces, a trace's name, the data fields a reader is told about, and a value as text.
// Bounded: a value's text stops at a length whatever it holds (a heatmap's row, a long string).
import { applyTraceTransforms } from './apply-transforms';

export type Trace = Record<string, unknown>;

/** The figure's traces as stored: objects only (anything else in `data` draws nothing). */
export function storedTracesOf(figure: unknown): Trace[] {
  const data = figure !== null && typeof figure === 'object' ? (figure as { data?: unknown }).data : undefined;
  return Array.isArray(data) ? data.filter((t): t is Trace => t !== null && typeof t === 'object' && !Array.isArray(t)) : [];
}

/** The figure's traces as they are drawn: storedTracesOf with their data steps applied (apply-transforms.ts). */
export const tracesOf = (figure: unknown): Trace[] => storedTracesOf(figure).map(applyTraceTransforms);

const AGGREGATED: Record<string, string> = {
  count: 'counted',
  sum: 'summed',
  avg: 'averaged',
  median: 'the median',
  min: 'the lowest',
  max: 'the highest',
  first: 'the first',
  last: 'the last',
};

/** A stored trace's data steps in words ("y summed for each x", "filtered", "sorted"), for a reader told what is drawn. */
export function stepsWords(trace: Trace): string[] {
  const steps = Array.isArray(trace.transforms) ? trace.transforms : [];
  const out: string[] = [];
  for (const step of steps.slice(0, 10)) {
    if (step === null || typeof step !== 'object' || (step as { enabled?: unknown }).enabled === false) continue;
    const { type, groups, aggregations } = step as { type?: unknown; groups?: unknown; aggregations?: unknown };
    if (type === 'filter') out.push('filtered');
    else if (type === 'sort') out.push('sorted');
    else if (type === 'aggregate') {
      const by = typeof groups === 'string' ? groups : 'x';
      for (const a of (Array.isArray(aggregations) ? aggregations : []).slice(0, 3)) {
        const { target, func, enabled } = (a ?? {}) as { target?: unknown; func?: unknown; enabled?: unknown };
        const word = typeof func === 'string' ? AGGREGATED[func] : undefined;
        if (enabled !== false && typeof target === 'string' && word) out.push(`${target} ${word} for each ${by}`);
      }
    }
  }
  return out;
}

/** Where a figure's title or an axis title is: a string, or `{text}`. */
export function titleText(title: unknown): string {
  const text = title !== null && typeof title === 'object' ? (title as { text?: unknown }).text : title;
  return typeof text === 'string' ? plainText(text) : '';
}

/** plotly's titles and names may hold its HTML subset (`<b>`, `<br>`): the words alone. */
export function plainText(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A trace's name as readers see it in the legend: its own, else plotly's for an unnamed one ("trace 1" is the second). */
export function traceName(trace: Trace, index: number, max = 60): string {
  const name = typeof trace.name === 'string' || typeof trace.name === 'number' ? plainText(String(trace.name)) : '';
  return name ? cut(name, max) : `trace ${index}`;
}

/**
 * The data fields a trace is read by, in the order a table shows them: coordinates first, then the
 * values, labels and text plotly draws. A field counts when it holds an array of values.
 */
export const DATA_FIELDS = [
  'x',
  'y',
  'z',
  'labels',
  'parents',
  'values',
  'lat',
  'lon',
  'locations',
  'r',
  'theta',
  'a',
  'b',
  'c',
  'open',
  'high',
  'low',
  'close',
  'u',
  'v',
  'w',
  'measure',
  'text',
] as const;
export type DataField = (typeof DATA_FIELDS)[number];

/** The trace's fields that hold values, with them. */
export function dataFields(trace: Trace): { field: DataField; values: unknown[] }[] {
  const out: { field: DataField; values: unknown[] }[] = [];
  for (const field of DATA_FIELDS) {
    const values = trace[field];
    if (Array.isArray(values) && values.length) out.push({ field, values });
  }
  return out;
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** A value as a cell shows it: nested arrays (a heatmap's row) joined, objects as JSON; never more than `max` characters. */
export function valueText(value: unknown, max: number): string {
  let out = '';
  const add = (v: unknown): boolean => {
    if (out.length > max) return false;
    if (v === null || v === undefined) return true;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) {
        if (i) out += ', ';
        if (!add(item)) return false;
      }
      return true;
    }
    out += typeof v === 'object' ? cut(safeJson(v), max + 1) : String(v);
    return out.length <= max;
  };
  add(value);
  return cut(out, max);
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
