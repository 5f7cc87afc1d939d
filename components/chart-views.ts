// A chart drawn by the view (issue 39, lib/shared/figures/trace-views.ts): its long traces come
// reduced for the current x range from the view route, merged into the figure (which came without
// their data), and are fetched again for the new range after each zoom or pan.
import { callApi } from './api-client';
import { axisRange, figureWithViews, MAX_VIEW_PX, type TraceView, type ViewAnswer, xAxisKey } from '@/lib/shared/figures/trace-views';

/** A figure as the page draws it (plotly-client.ts's Figure). */
type Figure = { data: Record<string, unknown>[]; layout: Record<string, unknown> };

/** Pixel columns to ask for: the chart's width (the page's before it is drawn), within the route's bound. */
export const viewWidth = (el?: HTMLElement | null): number =>
  Math.min(MAX_VIEW_PX, Math.max(100, Math.round(el?.clientWidth || document.documentElement.clientWidth)));

export interface ViewRequest {
  traces?: number[];
  range?: [number, number] | null;
  px: number;
}

/** The view route's answer for `request`. */
export async function fetchViews(viewUrl: string, request: ViewRequest, signal?: AbortSignal): Promise<TraceView[]> {
  const url = new URL(viewUrl, window.location.href);
  if (request.traces) url.searchParams.set('traces', request.traces.join(','));
  if (request.range) {
    url.searchParams.set('x0', String(request.range[0]));
    url.searchParams.set('x1', String(request.range[1]));
  }
  url.searchParams.set('px', String(request.px));
  const answer = await callApi<ViewAnswer>(url.pathname + url.search, { signal });
  if (!answer.ok) throw new Error(`The chart's view could not be loaded (${answer.status}).`);
  return answer.body.traces;
}

/** The figure with `views` drawn in place of their traces' data, kept at the visitor's zoom when they change (plotly's uirevision). */
export const withViews = <F extends Figure>(figure: F, views: readonly TraceView[]): F => {
  const drawn = figureWithViews(figure, views);
  return { ...drawn, layout: { uirevision: 'view', ...drawn.layout } };
};

/** The traces drawn by the view whose x axis a relayout event changed, by axis, with the axis's new range (null: all rows). */
export function changedViews(
  event: Record<string, unknown>,
  el: HTMLElement,
  figure: Figure,
  views: readonly TraceView[],
): { traces: number[]; range: [number, number] | null }[] {
  const full = (el as unknown as { _fullLayout?: Record<string, { range?: unknown; type?: string; autorange?: unknown }> })._fullLayout ?? {};
  const byAxis = new Map<string, number[]>();
  for (const v of views) {
    const key = xAxisKey(figure.data[v.index]);
    if (!Object.keys(event).some((k) => k.startsWith(`${key}.`))) continue;
    byAxis.set(key, [...(byAxis.get(key) ?? []), v.index]);
  }
  return [...byAxis].map(([key, traces]) => {
    const axis = full[key];
    const auto = event[`${key}.autorange`] === true || axis?.autorange === true;
    return { traces, range: auto ? null : axisRange(axis?.range, axis?.type === 'date') };
  });
}
