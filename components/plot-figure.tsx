'use client';
// Draws a plot's figure with plotly.js, loaded on first use (the bundle the figure needs) and shared
// by every chart on the page. `interactive` gives the full chart through react-plotly.js; otherwise
// a card's chart drawn straight with plotly in the card layout (lib/shared/figures/card-figure.ts), the same
// the card image shows, with values on hover (WebGL ones become an image so a long gallery never
// runs out of WebGL contexts, and static 3D scenes, which plotly draws off-screen, show). Until drawn, and if drawing
// fails, the fallback shows, with a clear message on failure.
import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import createPlotlyComponent from 'react-plotly.js/factory';
import type { PlotParams } from 'react-plotly.js/factory';
import type { PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { CARD_SIZE, cardFigure } from '@/lib/shared/figures/card-figure';
import { followStreams } from './live-streams';
import { viewNote, type TraceView } from '@/lib/shared/figures/trace-views';
import { changedViews, fetchViews, viewWidth, withViews } from './chart-views';
import { CHART_CONFIG, prepareChart, type Figure, type PlotlyApi } from './plotly-client';

/** The plot a current figure's content URL names (a version's content is not live): its streamed traces update live. */
const livePlot = (contentUrl: string) => /^\/v2\/plots\/([^/?]+)\/content(?:\?|$)/.exec(contentUrl)?.[1];

export interface PlotFigureProps {
  contentUrl: string;
  interactive?: boolean;
  /** Shown while loading and when drawing fails (e.g. the list-thumb image). */
  fallback?: React.ReactNode;
  label: string;
  /** The id of the chart's text alternative on the page (its description for screen readers). */
  describedBy?: string;
  className?: string;
  /** Called once drawn, with plotly and the chart's element (for downloads). */
  onReady?: (plotly: PlotlyApi, el: HTMLElement) => void;
  /** The plotly.js bundle the figure needs, when the page knows it (else the full one). */
  bundle?: PlotlyBundle;
  /** Set for a chart drawn by the view (its long traces reduced to the current view: chart-views.ts);
   * `contentUrl` is then the figure without its data. */
  viewUrl?: string;
}

type State = 'loading' | 'drawn' | 'failed';

let component: { Plotly: PlotlyApi; Plot: ComponentType<PlotParams> } | undefined;
function plotComponent(Plotly: PlotlyApi): ComponentType<PlotParams> {
  if (component?.Plotly !== Plotly) component = { Plotly, Plot: createPlotlyComponent(Plotly as never) };
  return component.Plot;
}

export default function PlotFigure(props: PlotFigureProps) {
  const { interactive = false, fallback, label, describedBy, className } = props;
  const [state, setState] = useState<State>('loading');
  return (
    // An interactive chart holds plotly's toolbar buttons, so it is a figure; a static preview is an image.
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: both roles (figure, img) take the label; the rule cannot read a role chosen at run time
    <div
      className={`plot-figure ${className ?? ''}`}
      data-chart-state={state}
      role={interactive ? 'figure' : 'img'}
      aria-label={label}
      aria-describedby={describedBy}
    >
      {interactive ? <InteractiveChart {...props} onState={setState} /> : <PreviewChart {...props} onState={setState} />}
      {state !== 'drawn' && (
        <div className="plot-figure-fallback">
          {fallback}
          {state === 'failed' && <p className="chart-failed">This chart could not be drawn.</p>}
        </div>
      )}
    </div>
  );
}

type ChartProps = PlotFigureProps & { onState: (s: State) => void };

type Chart = { Plotly: PlotlyApi; figure: Figure; views: TraceView[] };

function useFigure(contentUrl: string, onState: (s: State) => void, bundle?: PlotlyBundle, viewUrl?: string) {
  const [chart, setChart] = useState<Chart | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    onState('loading');
    prepareChart(contentUrl, controller.signal, bundle, viewUrl)
      .then((prepared) => !controller.signal.aborted && setChart(prepared))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Chart failed:', error);
        onState('failed');
      });
    return () => controller.abort();
  }, [contentUrl, onState, bundle, viewUrl]);
  return [chart, setChart] as const;
}

function InteractiveChart({ contentUrl, onReady, onState, bundle, viewUrl }: ChartProps) {
  const [chart, setChart] = useFigure(contentUrl, onState, bundle, viewUrl);
  const unfollow = useRef<(() => void) | null>(null);
  useEffect(() => () => unfollow.current?.(), []);
  const drawn = useRef<HTMLElement | null>(null);
  const fetching = useRef<AbortController | null>(null);
  useEffect(() => () => fetching.current?.abort(), []);
  // A zoom or pan (or a double click back to all rows) asks for the new view of the traces it moved.
  const relayout = useCallback(
    (event: Readonly<Record<string, unknown>>) => {
      const el = drawn.current;
      if (!chart || !viewUrl || !el || !chart.views.length) return;
      const changed = changedViews(event, el, chart.figure, chart.views);
      if (!changed.length) return;
      fetching.current?.abort();
      const controller = new AbortController();
      fetching.current = controller;
      Promise.all(changed.map((c) => fetchViews(viewUrl, { ...c, px: viewWidth(el) }, controller.signal)))
        .then((answers) => {
          if (controller.signal.aborted) return;
          const fresh = new Map(answers.flat().map((v) => [v.index, v]));
          setChart((prev) => {
            if (!prev) return prev;
            const views = prev.views.map((v) => fresh.get(v.index) ?? v);
            return { ...prev, figure: withViews(prev.figure, views), views };
          });
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) console.error('Chart view failed:', error);
        });
    },
    [chart, viewUrl, setChart],
  );
  const initialized = useCallback(
    (_figure: unknown, el: HTMLElement) => {
      // The drawing's own text (tick labels, legend) read out of order says less than the page's
      // text alternative and data table: only the toolbar's buttons stay for screen readers.
      for (const svg of el.querySelectorAll('svg.main-svg')) svg.setAttribute('aria-hidden', 'true');
      drawn.current = el;
      onState('drawn');
      if (chart) onReady?.(chart.Plotly, el);
      const fid = livePlot(contentUrl);
      if (chart && fid && !unfollow.current && chart.figure.data.some((trace) => trace.stream))
        unfollow.current = followStreams(chart.Plotly, el, decodeURIComponent(fid));
    },
    [chart, onReady, onState, contentUrl],
  );
  const failed = useCallback(
    (error: Error) => {
      console.error('Chart failed:', error);
      onState('failed');
    },
    [onState],
  );
  if (!chart) return null;
  const Plot = plotComponent(chart.Plotly);
  const note = viewNote(chart.views);
  return (
    <>
      <Plot
        className="plot-figure-canvas"
        data={chart.figure.data}
        layout={{ ...chart.figure.layout, autosize: true, width: undefined }}
        frames={chart.figure.frames}
        config={{ ...CHART_CONFIG, responsive: true }}
        useResizeHandler
        style={{ width: '100%', height: '100%' }}
        onInitialized={initialized}
        onRelayout={relayout}
        onError={failed}
      />
      {note && (
        <p className="chart-view-note" aria-live="polite">
          {note}
        </p>
      )}
    </>
  );
}

function PreviewChart({ contentUrl, onState, bundle, viewUrl }: ChartProps) {
  const [chart] = useFigure(contentUrl, onState, bundle, viewUrl);
  const el = useRef<HTMLDivElement>(null);
  const [image, setImage] = useState<string | null>(null);

  useEffect(() => {
    const node = el.current;
    if (!chart || !node) return;
    let mounted = true;
    const { Plotly, figure } = chart;
    const { width, height } = node.getBoundingClientRect();
    const card = cardFigure(figure, Math.round(width) || CARD_SIZE[0], Math.round(height) || CARD_SIZE[1]);
    // WebGL previews become an image below (a page of them would run out of WebGL contexts), and
    // plotly draws a static 3D scene off-screen (for export), so those draw live and are snapshotted;
    // the rest stay live, their values shown on hover.
    Plotly.newPlot(node, card.data, card.layout, { ...CHART_CONFIG, displayModeBar: false, scrollZoom: false })
      .then(async () => {
        if (!mounted) return;
        if (node.querySelector('canvas')) {
          const url = await Plotly.toImage(node, {
            format: 'png',
            width: Math.round(width),
            height: Math.round(height),
            scale: Math.min(window.devicePixelRatio || 1, 2),
          });
          Plotly.purge(node);
          if (!mounted) return;
          setImage(url);
        }
        onState('drawn');
      })
      .catch((error: unknown) => {
        console.error('Chart failed:', error);
        if (mounted) onState('failed');
      });
    return () => {
      mounted = false;
      Plotly.purge(node);
    };
  }, [chart, onState]);

  return (
    <>
      <div ref={el} className="plot-figure-canvas" hidden={image !== null} />
      {image && <img className="plot-figure-canvas plot-figure-snapshot" src={image} alt="" />}
    </>
  );
}
