// A chart's text alternative, pure: what it is (its chart types in words), its title and caption, its
// axes (titles, and the range or categories of the data on them) and a short summary of its first
// traces. Pages put it beside the chart (figcaption / aria-describedby), so screen readers get what
// the picture shows. Bounded whatever the figure: values read are counted, every name is cut short
// and so is the whole text.
import { cut, dataFields, plainText, stepsWords, storedTracesOf, titleText, traceName, tracesOf, type Trace } from './chart-values';
import { XY_TRACE_TYPES } from './trace-facts.generated';
import { traceType } from './trace-types';

/** The text alternative is at most this long. */
export const MAX_DESCRIPTION_CHARS = 1200;
/** Traces summarised one by one; the rest are counted. */
export const TRACES_DESCRIBED = 4;
/** Values read for ranges, over the whole figure: past it, ranges are of the values read. */
export const MAX_VALUES_READ = 200_000;
const NAME_CHARS = 60;
const CATEGORIES_NAMED = 3;

export interface ChartWords {
  title: string;
  caption: string;
  /** The figure's grid data was not read (too much to summarise on a page): say so rather than "no data". */
  dataOmitted?: boolean;
  /** Rows each trace draws in all, where its data given is a reduction of them (a chart drawn by the view: lib/core/plots/plot-views.ts). */
  counts?: (number | undefined)[];
}

/** What a trace type is called in words (singular, lower case); unknown types keep their own name. */
const KINDS: Record<string, string> = {
  bar: 'bar chart',
  barpolar: 'polar bar chart',
  box: 'box plot',
  candlestick: 'candlestick chart',
  carpet: 'carpet plot',
  choropleth: 'choropleth map',
  choroplethmap: 'choropleth map',
  choroplethmapbox: 'choropleth map',
  cone: '3D cone plot',
  contour: 'contour plot',
  contourcarpet: 'contour plot',
  densitymap: 'density map',
  densitymapbox: 'density map',
  funnel: 'funnel chart',
  funnelarea: 'funnel chart',
  heatmap: 'heatmap',
  heatmapgl: 'heatmap',
  histogram: 'histogram',
  histogram2d: '2D histogram',
  histogram2dcontour: '2D histogram contour plot',
  icicle: 'icicle chart',
  image: 'image',
  indicator: 'indicator',
  isosurface: '3D isosurface plot',
  mesh3d: '3D mesh plot',
  ohlc: 'OHLC chart',
  parcats: 'parallel categories diagram',
  parcoords: 'parallel coordinates plot',
  pie: 'pie chart',
  pointcloud: 'point cloud',
  quiver: 'quiver plot',
  sankey: 'Sankey diagram',
  scatter3d: '3D scatter plot',
  scattercarpet: 'scatter plot',
  scattergeo: 'map',
  scattermap: 'map',
  scattermapbox: 'map',
  scatterpolar: 'polar chart',
  scatterpolargl: 'polar chart',
  scattersmith: 'Smith chart',
  scatterternary: 'ternary plot',
  splom: 'scatter plot matrix',
  streamtube: '3D streamtube plot',
  sunburst: 'sunburst chart',
  surface: '3D surface plot',
  table: 'table',
  treemap: 'treemap',
  violin: 'violin plot',
  volume: '3D volume plot',
  waterfall: 'waterfall chart',
};

/** A trace's kind: scatter traces by their mode (lines, markers, filled area), bars by orientation. */
function kindOf(trace: Trace): string {
  const type = traceType(trace);
  if (type === 'scatter' || type === 'scattergl') {
    const mode = typeof trace.mode === 'string' ? trace.mode : '';
    if (typeof trace.fill === 'string' && trace.fill !== 'none') return 'area chart';
    if (mode.includes('lines') || mode === '') return 'line chart';
    if (mode.includes('markers')) return 'scatter plot';
    if (mode.includes('text')) return 'text chart';
    return 'scatter plot';
  }
  if (type === 'bar' && trace.orientation === 'h') return 'horizontal bar chart';
  if (Object.hasOwn(KINDS, type)) return KINDS[type];
  // An unknown type's own word, if it is one (else it could be anything a client sent).
  return /^[a-z0-9]{1,30}$/i.test(type) ? `${type} chart` : 'chart';
}

const series = (n: number) => `${n.toLocaleString('en')} series`;
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Line chart", "Bar chart with 3 series", "Chart combining a line chart (2 series) and a bar chart". */
function kindsPhrase(traces: Trace[]): string {
  if (!traces.length) return 'Empty chart';
  const counts = new Map<string, number>();
  for (const t of traces) {
    const k = kindOf(t);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  if (counts.size === 1) {
    const [[kind, n]] = [...counts];
    return n > 1 ? `${capitalise(kind)} with ${series(n)}` : capitalise(kind);
  }
  const parts = [...counts].slice(0, 4).map(([kind, n]) => (n > 1 ? `${kind} (${series(n)})` : kind));
  const rest = counts.size - parts.length;
  return `Chart combining ${list(parts)}${rest > 0 ? ` and ${rest} more kinds` : ''}`;
}

/** "a", "a and b", "a, b and c". */
function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const numberFormat = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/** The values' extent, read within a budget: numbers (min to max), dates (first to last) or categories (distinct, first few). */
interface Extent {
  numbers: { min: number; max: number } | null;
  dates: { min: string; max: string } | null;
  categories: string[];
  distinct: number;
}

/** ISO dates compare as text: the span widened to hold min..max. */
function widen(span: { min: string; max: string } | null, min: string, max: string): { min: string; max: string } {
  if (!span) return { min, max };
  if (min < span.min) span.min = min;
  if (max > span.max) span.max = max;
  return span;
}

class Reader {
  left = MAX_VALUES_READ;
  /** Whether some values were left unread for want of budget. */
  partial = false;

  extent(values: unknown[]): Extent {
    const ext: Extent = { numbers: null, dates: null, categories: [], distinct: 0 };
    const seen = new Set<string>();
    const visit = (v: unknown) => {
      if (this.left <= 0) {
        this.partial = true;
        return;
      }
      this.left--;
      if (typeof v === 'number' && Number.isFinite(v)) {
        ext.numbers = ext.numbers ? { min: Math.min(ext.numbers.min, v), max: Math.max(ext.numbers.max, v) } : { min: v, max: v };
      } else if (typeof v === 'string' && v.trim()) {
        const s = v.trim();
        const n = Number(s);
        if (Number.isFinite(n)) visit(n);
        else if (ISO_DATE.test(s)) ext.dates = widen(ext.dates, s, s);
        else if (!seen.has(s) && seen.size < 10_000) {
          seen.add(s);
          if (ext.categories.length < CATEGORIES_NAMED) ext.categories.push(cut(plainText(s), NAME_CHARS));
        }
      } else if (Array.isArray(v)) for (const item of v) visit(item);
    };
    for (const v of values) {
      if (this.left <= 0) {
        this.partial = true;
        break;
      }
      visit(v);
    }
    ext.distinct = seen.size;
    return ext;
  }
}

/** "from 3 to 120", "from 2020-01-01 to 2020-12-31", "3 categories: a, b and c", or null when nothing was read. */
function extentWords(ext: Extent): string | null {
  if (ext.categories.length && !ext.numbers) {
    const more = ext.distinct - ext.categories.length;
    const named = more > 0 ? `${ext.categories.join(', ')} and ${more.toLocaleString('en')} more` : list(ext.categories);
    return `${ext.distinct.toLocaleString('en')} ${ext.distinct === 1 ? 'category' : 'categories'}: ${named}`;
  }
  if (ext.numbers) {
    const { min, max } = ext.numbers;
    return min === max ? `all ${numberFormat.format(min)}` : `from ${numberFormat.format(min)} to ${numberFormat.format(max)}`;
  }
  if (ext.dates) return ext.dates.min === ext.dates.max ? `on ${ext.dates.min}` : `from ${ext.dates.min} to ${ext.dates.max}`;
  return null;
}

/** The field a trace's values are told by: what its size or height is. */
const VALUE_FIELDS = ['y', 'values', 'z', 'r', 'close', 'x', 'lat'];
/** Traces whose values are z: 3D heights, and the colours of a heatmap or contour drawn over x and y. */
const VALUE_IS_Z = new Set(['scatter3d', 'surface', 'mesh3d', 'heatmap', 'heatmapgl', 'contour', 'histogram2d', 'histogram2dcontour']);

function traceSummary(trace: Trace, index: number, reader: Reader, dataOmitted: boolean, steps: string[], rows?: number): string {
  const name = `"${traceName(trace, index, NAME_CHARS)}"`;
  const fields = dataFields(trace).filter((f) => f.field !== 'text');
  if (!fields.length) {
    // Parallel coordinates and scatter plot matrices hold their data in dimensions.
    const dimensions = Array.isArray(trace.dimensions) ? trace.dimensions.length : 0;
    if (dimensions) return `${name}: ${dimensions.toLocaleString('en')} ${dimensions === 1 ? 'dimension' : 'dimensions'}`;
    return `${name}: ${dataOmitted ? 'data not summarised' : 'no data'}`;
  }
  const type = traceType(trace);
  const count = rows ?? Math.max(...fields.map((f) => f.values.length));
  const unit = type === 'pie' || type === 'funnelarea' ? 'slices' : Array.isArray(fields[0].values[0]) ? 'rows' : 'points';
  const parts = [`${count.toLocaleString('en')} ${count === 1 ? unit.replace(/s$/, '') : unit}`];
  const order = VALUE_IS_Z.has(type) ? ['z', ...VALUE_FIELDS] : VALUE_FIELDS;
  const valueField = order.map((f) => fields.find((d) => d.field === f)).find((f) => f !== undefined);
  if (valueField) {
    const words = extentWords(reader.extent(valueField.values));
    if (words) parts.push(`${valueField.field} ${words}`);
  }
  // What the chart's data steps made of the rows, so the counts and ranges read right.
  return `${name}: ${parts.join(', ')}${steps.length ? ` (${steps.join(', ')})` : ''}`;
}

/** "X axis "Month": 12 categories: …", from the titles in the layout and the data of the traces drawn on it. */
function axesSentences(figure: unknown, traces: Trace[], reader: Reader): string[] {
  const cartesian = traces.filter((t) => XY_TRACE_TYPES.includes(traceType(t)));
  if (!cartesian.length) return [];
  const layout = figure !== null && typeof figure === 'object' ? ((figure as { layout?: unknown }).layout as Record<string, unknown> | undefined) : undefined;
  const out: string[] = [];
  for (const axis of ['x', 'y'] as const) {
    const spec = layout && typeof layout === 'object' ? layout[`${axis}axis`] : undefined;
    const title = cut(titleText(spec && typeof spec === 'object' ? (spec as { title?: unknown }).title : undefined), NAME_CHARS);
    // The primary axis only: traces on other axes (xaxis: 'x2') have their own.
    const onAxis = cartesian.filter((t) => {
      const ref = t[`${axis}axis`];
      return ref === undefined || ref === axis;
    });
    const values = onAxis.flatMap((t) => (Array.isArray(t[axis]) ? [t[axis] as unknown[]] : []));
    const words = values.length ? extentWords(mergeExtents(values.map((v) => reader.extent(v)))) : null;
    if (!title && !words) continue;
    out.push(`${axis.toUpperCase()} axis${title ? ` "${title}"` : ''}${words ? `: ${words}` : ''}.`);
  }
  return out;
}

function mergeExtents(extents: Extent[]): Extent {
  const merged: Extent = { numbers: null, dates: null, categories: [], distinct: 0 };
  for (const e of extents) {
    if (e.numbers) {
      merged.numbers = merged.numbers
        ? { min: Math.min(merged.numbers.min, e.numbers.min), max: Math.max(merged.numbers.max, e.numbers.max) }
        : { ...e.numbers };
    }
    if (e.dates) {
      merged.dates = widen(merged.dates, e.dates.min, e.dates.max);
    }
    for (const c of e.categories) if (merged.categories.length < CATEGORIES_NAMED && !merged.categories.includes(c)) merged.categories.push(c);
    // Categories shared by traces are counted once per trace: at least the largest count is right.
    merged.distinct = Math.max(merged.distinct, e.distinct);
  }
  return merged;
}

/** The chart's text alternative: one paragraph of sentences, at most MAX_DESCRIPTION_CHARS long. */
export function describeChart(figure: unknown, words: ChartWords): string {
  const traces = tracesOf(figure);
  const reader = new Reader();
  const title = cut(plainText(words.title), 200);
  const caption = cut(plainText(words.caption), 300);
  const sentences = [`${kindsPhrase(traces)}${title ? `: ${title}` : ''}.`];
  if (caption) sentences.push(/[.!?]$/.test(caption) ? caption : `${caption}.`);
  sentences.push(...axesSentences(figure, traces, reader));
  if (traces.length) {
    const stored = storedTracesOf(figure);
    const described = traces
      .slice(0, TRACES_DESCRIBED)
      .map((t, i) => traceSummary(t, i, reader, words.dataOmitted ?? false, stepsWords(stored[i]), words.counts?.[i]));
    const more = traces.length - described.length;
    sentences.push(`Series ${described.join('; ')}${more > 0 ? `; and ${more.toLocaleString('en')} more` : ''}.`);
  }
  if (words.dataOmitted) sentences.push('Its data is too large to summarise here.');
  else if (reader.partial) sentences.push(`Ranges are of its first ${MAX_VALUES_READ.toLocaleString('en')} values.`);
  return cut(sentences.join(' '), MAX_DESCRIPTION_CHARS);
}
