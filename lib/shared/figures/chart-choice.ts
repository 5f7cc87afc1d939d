// The first chart of a grid, chosen from what its columns hold (as Datawrapper and Sheets do), and the
// next best ones the editor offers beside it: a date and numbers draw a line of each number over time
// (of each of a few categories, when rows repeat the dates);
// a category and a number, bars; two numbers, a scatter; countries and a number, a map of regions;
// latitudes and longitudes, a map of points. Pure: the server starts the editor with the first choice,
// the editor offers the rest.
import { CHART_KINDS, fits, kindById, withRoleSrc, type ChartKind } from './chart-kinds';
import { aggregateStep, filterStep } from './trace-steps';
import type { ColumnFacts } from './column-facts';

export interface ChoiceColumn {
  src: string;
  name: string;
  facts: ColumnFacts;
  /** Its values, when known: a large grid's scatter family is drawn with WebGL. */
  length?: number;
}

const XY_STEPS = { group: 'x', value: 'y' };

/** Rows from which a line or scatter is drawn with WebGL (scattergl): SVG markers and paths slow down past a few thousand. */
export const WEBGL_FROM_ROWS = 10_000;

export interface ChartChoice {
  kind: ChartKind['id'];
  /** Each trace's columns by role attribute (a 2D role's columns joined by commas, as its src is), and its data steps (`transforms`). */
  traces: { roles: Record<string, string>; name?: string; steps?: Record<string, unknown>[] }[];
  /** Why this chart, in a few words ("sales over day"). */
  why: string;
}

/** Traces of one figure at most, when each number column draws one. */
const MAX_SERIES = 8;
/** Categories a pie or donut shows legibly. */
const PIE_MAX = 12;

/** The charts that fit these columns, the best first; never empty (an empty line when nothing fits). */
export function chartChoices(columns: ChoiceColumn[]): ChartChoice[] {
  const of = (test: (f: ColumnFacts) => boolean) => columns.filter((c) => test(c.facts));
  const numbers = of((f) => f.kind === 'number' && !f.coordinate);
  const dates = of((f) => f.kind === 'date');
  const places = of((f) => f.place !== undefined);
  const categories = of((f) => f.kind === 'category' && f.place === undefined);
  const lat = of((f) => f.coordinate === 'lat')[0];
  const lon = of((f) => f.coordinate === 'lon')[0];
  const series = numbers.slice(0, MAX_SERIES);
  const named = (roles: Record<string, string>, c: ChoiceColumn) => (series.length > 1 ? { roles, name: c.name } : { roles });
  const out: ChartChoice[] = [];
  const add = (kind: string, traces: ChartChoice['traces'], why: string) => {
    if (traces.length && !out.some((c) => c.kind === kind)) out.push({ kind, traces, why });
  };

  // Time first: a grid with dates and numbers is a time series whatever else it holds. Rows that
  // repeat a date are long data: a line for each of a few categories (each trace keeping its rows),
  // else one point a date, their sum; never a line zigzagging back through time.
  if (dates.length && series.length) {
    const date = dates[0];
    const by = date.facts.repeats
      ? categories.find((c) => c.facts.repeats && c.facts.values && c.facts.values.length >= 2 && c.facts.values.length <= MAX_SERIES)
      : undefined;
    const sum = date.facts.repeats && !by ? [aggregateStep(XY_STEPS, 'sum')] : undefined;
    const over = (c: ChoiceColumn) => ({ ...named({ x: date.src, y: c.src }, c), ...(sum && { steps: sum }) });
    const traces = by
      ? (by.facts.values ?? []).map((value) => ({ roles: { x: date.src, y: series[0].src }, name: value, steps: [filterStep(by.src, value)] }))
      : series.map(over);
    const what = by ? `${series[0].name} over ${date.name}, a line for each ${by.name}` : `${list(series)} over ${date.name}${sum ? ', summed' : ''}`;
    add('line', traces, what);
    add('area', traces, what);
    add('bar', traces, what.replace(' over ', ' by '));
  }
  if (places.length && numbers.length)
    add('map-regions', [{ roles: { locations: places[0].src, z: numbers[0].src } }], `${numbers[0].name} by ${places[0].name}`);
  if (lat && lon) add('map-points', [{ roles: { lat: lat.src, lon: lon.src } }], `${lat.name} and ${lon.name} on a map`);
  const category = categories[0] ?? places[0];
  if (category && series.length) {
    // Rows of repeated categories (sales, one row a sale) draw one bar each category, their sum: not a sliver a row.
    const sum = category.facts.repeats ? [aggregateStep(XY_STEPS, 'sum')] : undefined;
    const bars = series.map((c) => ({ ...named({ x: category.src, y: c.src }, c), ...(sum && { steps: sum }) }));
    const summed = sum ? ', summed' : '';
    add('bar', bars, `${list(series)} by ${category.name}${summed}`);
    if (series.length > 1) add('stacked-bar', bars, `${list(series)} by ${category.name}${summed}, stacked`);
    if (category.facts.distinct <= PIE_MAX)
      add('pie', [{ roles: { labels: category.src, values: series[0].src } }], `${series[0].name} by ${category.name}, as shares`);
    add('box', [{ roles: { y: series[0].src, x: category.src } }], `the spread of ${series[0].name} by ${category.name}`);
  }
  if (numbers.length >= 2) {
    add('scatter', [{ roles: { x: numbers[0].src, y: numbers[1].src } }], `${numbers[1].name} against ${numbers[0].name}`);
    if (numbers.length >= 3)
      add(
        'bubble',
        [{ roles: { x: numbers[0].src, y: numbers[1].src, 'marker.size': numbers[2].src } }],
        `${numbers[1].name} against ${numbers[0].name}, sized by ${numbers[2].name}`,
      );
  }
  if (numbers.length) {
    add(
      'line',
      series.map((c) => named({ y: c.src }, c)),
      `${list(series)} row by row`,
    );
    add('histogram', [{ roles: { x: numbers[0].src } }], `how ${numbers[0].name} is spread`);
  }
  if (category) add('histogram', [{ roles: { x: category.src } }], `how many rows of each ${category.name}`);
  if (!out.length) out.push({ kind: 'line', traces: [{ roles: {} }], why: 'choose its columns' });
  // Every choice's columns fit their roles: the rules above and the roles' own rule agree.
  return out.filter((c) => c.traces.every((t) => Object.entries(t.roles).every(([attr, src]) => roleFits(c.kind, attr, src, columns))));
}

function roleFits(kindId: string, attr: string, src: string, columns: ChoiceColumn[]): boolean {
  const role = kindById(kindId)?.roles.find((r) => r.attr === attr);
  return role !== undefined && fits(role, columns.find((c) => c.src === src)?.facts);
}

const list = (cols: ChoiceColumn[]) => (cols.length <= 2 ? cols.map((c) => c.name).join(' and ') : `${cols[0].name} and ${cols.length - 1} more`);

/** A choice as a figure: its type's trace settings and layout, each trace's columns as srcs. */
export function choiceFigure(choice: ChartChoice, columns: ChoiceColumn[]): { data: Record<string, unknown>[]; layout: Record<string, unknown> } {
  const kind = kindById(choice.kind) ?? CHART_KINDS[0];
  const data = choice.traces.map(({ roles, name, steps }) => {
    let trace: Record<string, unknown> = structuredClone(kind.trace);
    for (const [attr, src] of Object.entries(roles)) trace = withRoleSrc(trace, attr, src);
    if (name !== undefined) trace.name = name;
    if (steps) trace.transforms = structuredClone(steps);
    if (trace.type === 'scatter' && Object.values(roles).some((src) => (columns.find((c) => c.src === src)?.length ?? 0) >= WEBGL_FROM_ROWS))
      trace.type = 'scattergl';
    const place = kind.id === 'map-regions' ? columns.find((c) => c.src === roles.locations)?.facts.place : undefined;
    if (place === 'country names') trace.locationmode = place;
    return trace;
  });
  const layout: Record<string, unknown> = { title: { text: '' } };
  for (const [path, value] of Object.entries(kind.layout ?? {})) layout[path.replace(/^layout\./, '')] = value;
  return { data, layout };
}
