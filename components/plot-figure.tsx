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

function useFigure(contentUrl: string, onState: (s: State) => void, bundle?: PlotlyBundle) {
  const [chart, setChart] = useState<{ Plotly: PlotlyApi; figure: Figure } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    onState('loading');
    prepareChart(contentUrl, controller.signal, bundle)
      .then((prepared) => !controller.signal.aborted && setChart(prepared))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Chart failed:', error);
        onState('failed');
      });
    return () => controller.abort();
  }, [contentUrl, onState, bundle]);
  return chart;
}

function InteractiveChart({ contentUrl, onReady, onState, bundle }: ChartProps) {
  const chart = useFigure(contentUrl, onState, bundle);
  const unfollow = useRef<(() => void) | null>(null);
  useEffect(() => () => unfollow.current?.(), []);
  const initialized = useCallback(
    (_figure: unknown, el: HTMLElement) => {
      // The drawing's own text (tick labels, legend) read out of order says less than the page's
      // text alternative and data table: only the toolbar's buttons stay for screen readers.
      for (const svg of el.querySelectorAll('svg.main-svg')) svg.setAttribute('aria-hidden', 'true');
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
  return (
    <Plot
      className="plot-figure-canvas"
      data={chart.figure.data}
      layout={{ ...chart.figure.layout, autosize: true, width: undefined }}
      frames={chart.figure.frames}
      config={{ ...CHART_CONFIG, responsive: true }}
      useResizeHandler
      style={{ width: '100%', height: '100%' }}
      onInitialized={initialized}
      onError={failed}
    />
  );
}

function PreviewChart({ contentUrl, onState, bundle }: ChartProps) {
  const chart = useFigure(contentUrl, onState, bundle);
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
