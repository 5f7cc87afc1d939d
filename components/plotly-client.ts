// Browser-side plotly.js: one shared load per page and bundle (never in a page's first-load JavaScript;
// the smallest bundle a figure needs, lib/shared/figures/plotly-bundles.ts), geo
// assets only when a figure draws maps, and figures fetched with their data.
import { tameFigure } from '@/lib/shared/figures/draw-guard';
import { bundleCovers, figureBundle, needsMapOutlines, type PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { traceType } from '@/lib/shared/figures/trace-types';
import { mergeMapData } from '@/lib/shared/figures/map-data';
import type { TraceView } from '@/lib/shared/figures/trace-views';
import { callApi } from './api-client';
import { fetchViews, viewWidth, withViews } from './chart-views';

export interface PlotlyApi {
  newPlot(el: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
  react(el: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
  purge(el: HTMLElement): void;
  toImage(el: HTMLElement, opts: { format: 'png'; width: number; height: number; scale?: number }): Promise<string>;
  downloadImage(el: HTMLElement, opts: { format: 'png' | 'svg'; filename: string; width?: number; height?: number }): Promise<string>;
  Plots: { resize(el: HTMLElement): void };
}

export interface Figure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
  frames?: Record<string, unknown>[];
}

/**
 * What every chart the app draws is configured with: no modebar button or link that leaves this site
 * (plotly.js's "Share chart..." uploads the figure with its data to Plotly's cloud; its logo, "Edit in
 * Chart Studio" and the plot link go there too). Figures cannot set config, only layout.
 */
export const CHART_CONFIG = {
  showSendToCloud: false,
  plotlyServerURL: '',
  showEditInChartStudio: false,
  showLink: false,
  showSources: false,
  displaylogo: false,
  modeBarButtonsToRemove: ['sendChartToCloud'],
} as const;

const IMPORTS: Record<PlotlyBundle, () => Promise<unknown>> = {
  basic: () => import('plotly.js/dist/plotly-basic.min.js'),
  cartesian: () => import('plotly.js/dist/plotly-cartesian.min.js'),
  full: () => import('plotly.js-dist-min'),
};
const loaded: Partial<Record<PlotlyBundle, Promise<PlotlyApi>>> = {};

/**
 * plotly.js, loaded once per page and bundle: a bundle already loading that covers `bundle` serves
 * it (so a page of charts of any kinds, whose cards ask for the full one, fetches plotly once).
 */
export function loadPlotly(bundle: PlotlyBundle = 'full'): Promise<PlotlyApi> {
  const have = (Object.keys(loaded) as PlotlyBundle[]).find((b) => bundleCovers(b, bundle));
  if (have) return loaded[have]!;
  const load = IMPORTS[bundle]().then((m) => ((m as { default?: unknown }).default ?? m) as PlotlyApi);
  // A failed load (the network) may be tried again.
  load.catch(() => delete loaded[bundle]);
  loaded[bundle] = load;
  return load;
}

let geo: Promise<void> | undefined;
/** plotly.js reads map outlines from window.PlotlyGeoAssets instead of a CDN; we serve them. */
export function loadGeoAssets(): Promise<void> {
  geo ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/assets/plotly-geo-assets.js';
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      geo = undefined;
      reject(new Error('Could not load the map outlines.'));
    };
    document.head.appendChild(script);
  });
  return geo;
}

export const needsGeo = (figure: Figure): boolean => needsMapOutlines(figure.data.map(traceType), Object.keys(figure.layout ?? {}));

/**
 * The figure with its data: `inline_data` for grids the visitor can read, `map_data` for the rest
 * (a public plot on its owner's private grid), merged back into the traces here.
 */
export async function fetchFigure(contentUrl: string, signal?: AbortSignal): Promise<Figure> {
  const answer = await callApi<Figure & { map_data?: Record<string, unknown> }>(contentUrl, { signal });
  if (!answer.ok) throw new Error(`The figure could not be loaded (${answer.status}).`);
  return mergeMapData(answer.body);
}

/**
 * Figure + geo assets + plotly.js, all that drawing a chart waits for (and, for a chart drawn by the
 * view, its first view: `views`). `bundle` (the server's choice
 * for the figure) loads while the figure is fetched; a figure that turns out to need more (changed
 * since the page was made) gets the bundle it needs.
 */
export async function prepareChart(
  contentUrl: string,
  signal?: AbortSignal,
  bundle: PlotlyBundle = 'full',
  viewUrl?: string,
): Promise<{ Plotly: PlotlyApi; figure: Figure; views: TraceView[] }> {
  const [first, given, views] = await Promise.all([
    loadPlotly(bundle),
    fetchFigure(contentUrl, signal),
    viewUrl ? fetchViews(viewUrl, { px: viewWidth() }, signal) : [],
  ]);
  const figure = views.length ? withViews(given, views) : given;
  const need = figureBundle(figure);
  const Plotly = bundleCovers(bundle, need) ? first : await loadPlotly(need);
  if (needsGeo(figure)) await loadGeoAssets();
  return { Plotly, figure: await tameFigure(Plotly, figure, 'cut'), views };
}
