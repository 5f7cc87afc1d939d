// The live streams of every chart on the page over one connection (GET /v2/streams/events): charts
// register as they are drawn, and the page's one EventSource follows all of their plots. Writes are
// applied to the drawn chart with the stream's own rules (lib/shared/streams.ts): appended points
// with Plotly.extendTraces (keeping maxpoints), replaced arrays and nested keys with restyle, layout
// updates with relayout.
import { applyStreamWrite, type StreamEvent, type StreamObject, type StreamWrite } from '@/lib/shared/streams';
import type { PlotlyApi } from './plotly-client';

interface LivePlotly extends PlotlyApi {
  extendTraces(el: HTMLElement, update: Record<string, unknown[][]>, indices: number[], maxPoints: number): Promise<unknown>;
  restyle(el: HTMLElement, update: Record<string, unknown[]>, indices: number[]): Promise<unknown>;
  relayout(el: HTMLElement, update: StreamObject): Promise<unknown>;
}

interface Chart {
  Plotly: LivePlotly;
  el: HTMLElement & { data?: StreamObject[] };
  fid: string;
}

const charts = new Set<Chart>();
let source: { url: string; events: EventSource } | null = null;
let queue: Promise<unknown> = Promise.resolve();
/** Events heard for a chart while it was still drawing earlier ones: drawn together, in one pass. */
const waiting = new Map<Chart, StreamEvent[]>();

const isScalar = (v: unknown) => v === null || (typeof v !== 'object' && !Array.isArray(v));

/** Restyles the written keys to what the rule makes of the drawn values. */
function restyle(chart: Chart, index: number, trace: StreamObject, maxpoints: number) {
  const drawn = chart.el.data?.[index] ?? {};
  const current = Object.fromEntries(Object.keys(trace).map((k) => [k, drawn[k]]));
  const next = applyStreamWrite({ trace: current, layout: {} }, { trace }, maxpoints).trace;
  return chart.Plotly.restyle(chart.el, Object.fromEntries(Object.entries(next).map(([k, v]) => [k, [v]])), [index]);
}

async function applyWrites(chart: Chart, index: number, maxpoints: number, writes: StreamWrite[]) {
  let appended: Record<string, unknown[]> = {};
  const extend = async () => {
    const keys = Object.keys(appended);
    if (keys.length === 0) return;
    const drawn = chart.el.data?.[index] ?? {};
    const missing = keys.filter((k) => !Array.isArray(drawn[k]));
    if (missing.length) await chart.Plotly.restyle(chart.el, Object.fromEntries(missing.map((k) => [k, [[]]])), [index]);
    await chart.Plotly.extendTraces(chart.el, Object.fromEntries(keys.map((k) => [k, [appended[k]]])), [index], maxpoints);
    appended = {};
  };
  for (const write of writes) {
    const entries = Object.entries(write.trace);
    if (!write.layout && entries.every(([, v]) => isScalar(v))) {
      for (const [k, v] of entries) appended[k] = [...(appended[k] ?? []), v];
      continue;
    }
    await extend();
    await restyle(chart, index, write.trace, maxpoints);
    if (write.layout) await chart.Plotly.relayout(chart.el, write.layout);
  }
  await extend();
}

async function apply(chart: Chart, event: StreamEvent) {
  for (const { index, maxpoints } of event.traces) {
    if (event.writes) await applyWrites(chart, index, maxpoints, event.writes);
    else if (event.state) {
      const values = Object.entries(event.state.trace).map(([k, v]) => [k, [Array.isArray(v) ? v.slice(-maxpoints) : v]]);
      if (values.length) await chart.Plotly.restyle(chart.el, Object.fromEntries(values), [index]);
      if (Object.keys(event.state.layout).length) await chart.Plotly.relayout(chart.el, event.state.layout);
    }
  }
}

/** Consecutive events of writes to the same traces as one: one redraw for all, not one each. */
function joined(events: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (last?.writes && event.writes && JSON.stringify(last.traces) === JSON.stringify(event.traces))
      out[out.length - 1] = { ...last, writes: [...last.writes, ...event.writes] };
    else out.push(event);
  }
  return out;
}

/** Draws `event` after what the chart has yet to draw (plotly's calls on one chart must not interleave); a busy chart's events wait and are drawn together. */
function draw(chart: Chart, event: StreamEvent) {
  const held = waiting.get(chart);
  if (held) return void held.push(event);
  waiting.set(chart, [event]);
  queue = queue
    .then(async () => {
      const events = joined(waiting.get(chart) ?? []);
      waiting.delete(chart);
      for (const e of events) await apply(chart, e);
    })
    .catch((error: unknown) => console.error('Stream update failed:', error));
}

function connect(shareKey: string | null) {
  const fids = [...new Set([...charts].map((c) => c.fid))].sort();
  const url = fids.length
    ? `/v2/streams/events?plots=${encodeURIComponent(fids.join(','))}${shareKey ? `&share_key=${encodeURIComponent(shareKey)}` : ''}`
    : '';
  if (source?.url === url) return;
  source?.events.close();
  source = null;
  if (!url) return;
  const events = new EventSource(url);
  events.onmessage = (message) => {
    const event = JSON.parse(message.data) as StreamEvent;
    for (const chart of charts) if (chart.fid === event.fid) draw(chart, event);
  };
  source = { url, events };
}

/** Follows the live streams of the plot `fid` drawn in `el`; returns what stops following. */
export function followStreams(Plotly: PlotlyApi, el: HTMLElement, fid: string): () => void {
  const shareKey = new URLSearchParams(window.location.search).get('share_key');
  const chart: Chart = { Plotly: Plotly as LivePlotly, el, fid };
  charts.add(chart);
  connect(shareKey);
  return () => {
    charts.delete(chart);
    connect(shareKey);
  };
}
