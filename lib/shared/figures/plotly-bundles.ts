// Which plotly.js bundle draws a figure in the browser. The full bundle is several times the size of
// plotly's own partial bundles (basic: scatter, bar, pie; cartesian), which have the same core and
// components, and takes several times as long to load and run before it draws anything. A chart
// loads the smallest bundle that has every trace type and subplot of its figure. Pure: the page's
// server side and the browser both use it (the page reads a figure's types and subplots in SQL).
import { BUNDLE_TRACE_TYPES, GEO_TRACE_TYPES } from './trace-facts.generated';
import { namedTraceType, traceType } from './trace-types';

export type PlotlyBundle = 'basic' | 'cartesian' | 'full';

/** Smallest first: a bundle covers every bundle before it. */
const ORDER: PlotlyBundle[] = ['basic', 'cartesian', 'full'];

/** The trace types of plotly's partial bundles, as their builds register them. */
const BASIC = new Set(BUNDLE_TRACE_TYPES.basic);
const CARTESIAN = new Set(BUNDLE_TRACE_TYPES.cartesian);
/** Layout subplots that draw even without traces on them: ternary is in the cartesian bundle, the rest only in the full one.
 * One pattern for JavaScript and PostgreSQL, which read it alike. */
export const SUBPLOT_PATTERN = '^(ternary|geo|mapbox|map|scene|polar|smith)[0-9]*$';
const SUBPLOT = new RegExp(SUBPLOT_PATTERN);

/** The kind of such a subplot a layout key names ('scene' for `scene2`), or null. */
export const subplotKind = (key: string): string | null => SUBPLOT.exec(key)?.[1] ?? null;

/** The smallest bundle for these trace types (lib/shared/figures/trace-types.ts) and layout keys. */
export function plotlyBundle(types: Iterable<string>, layoutKeys: Iterable<string>): PlotlyBundle {
  let need: PlotlyBundle = 'basic';
  const at = (bundle: PlotlyBundle) => {
    if (ORDER.indexOf(bundle) > ORDER.indexOf(need)) need = bundle;
  };
  for (const key of layoutKeys) {
    const subplot = subplotKind(key);
    if (subplot) at(subplot === 'ternary' ? 'cartesian' : 'full');
  }
  for (const type of types) at(BASIC.has(type) ? 'basic' : CARTESIAN.has(type) ? 'cartesian' : 'full');
  return need;
}

/**
 * Whether a figure with these trace types and layout keys draws a geo map: plotly reads its land and
 * coast outlines from window.PlotlyGeoAssets, a bundle as large as plotly.js itself, so it is loaded
 * only for a geo subplot's traces or a geo subplot.
 */
export function needsMapOutlines(types: Iterable<string>, layoutKeys: Iterable<string>): boolean {
  for (const type of types) if (GEO_TRACE_TYPES.includes(type)) return true;
  for (const key of layoutKeys) if (subplotKind(key) === 'geo') return true;
  return false;
}

/** Whether `have` draws what `need` does. */
export const bundleCovers = (have: PlotlyBundle, need: PlotlyBundle) => ORDER.indexOf(have) >= ORDER.indexOf(need);

/** The bundle a figure needs: its traces' types, its frames' typed traces (untyped ones restyle a trace of `data`), its layout's subplots. */
export function figureBundle(figure: { data?: unknown; layout?: unknown; frames?: unknown }): PlotlyBundle {
  const traces = Array.isArray(figure.data) ? figure.data : [];
  const frames = Array.isArray(figure.frames) ? figure.frames : [];
  const types = [
    ...traces.map(traceType),
    ...frames.flatMap((f) => {
      const data = (f as { data?: unknown } | null)?.data;
      return Array.isArray(data) ? data.map(namedTraceType).filter((t) => t !== null) : [];
    }),
  ];
  const layout = figure.layout && typeof figure.layout === 'object' ? Object.keys(figure.layout) : [];
  return plotlyBundle(types, layout);
}
