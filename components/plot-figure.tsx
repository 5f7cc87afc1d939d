'use client';
// Draws a plot's figure with react-plotly.js over plotly.js-dist-min, both loaded on first use and
// shared by every chart on the page. `interactive` gives the full chart, otherwise a static preview.
// Until drawn (and if drawing fails) the fallback shows, with a clear message on failure.
import { useCallback, useEffect, useState, type ComponentType } from 'react';
import createPlotlyComponent from 'react-plotly.js/factory';
import type { PlotParams } from 'react-plotly.js/factory';
import { prepareChart, type Figure, type PlotlyApi } from '@/lib/plotly-client';

export interface PlotFigureProps {
  contentUrl: string;
  interactive?: boolean;
  /** Shown while loading and when drawing fails (e.g. the list-thumb image). */
  fallback?: React.ReactNode;
  label: string;
  className?: string;
  /** Called once drawn, with plotly and the chart's element (for downloads). */
  onReady?: (plotly: PlotlyApi, el: HTMLElement) => void;
}

let component: { Plotly: PlotlyApi; Plot: ComponentType<PlotParams> } | undefined;
function plotComponent(Plotly: PlotlyApi): ComponentType<PlotParams> {
  if (component?.Plotly !== Plotly) component = { Plotly, Plot: createPlotlyComponent(Plotly as never) };
  return component.Plot;
}

export default function PlotFigure({ contentUrl, interactive = false, fallback, label, className, onReady }: PlotFigureProps) {
  const [chart, setChart] = useState<{ Plotly: PlotlyApi; figure: Figure } | null>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'failed'>('loading');

  useEffect(() => {
    const controller = new AbortController();
    setState('loading');
    prepareChart(contentUrl, controller.signal)
      .then((prepared) => !controller.signal.aborted && setChart(prepared))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Chart failed:', error);
        setState('failed');
      });
    return () => controller.abort();
  }, [contentUrl]);

  const initialized = useCallback(
    (_figure: unknown, el: HTMLElement) => {
      setState('drawn');
      if (chart) onReady?.(chart.Plotly, el);
    },
    [chart, onReady],
  );
  const failed = useCallback((error: Error) => {
    console.error('Chart failed:', error);
    setState('failed');
  }, []);

  const Plot = chart ? plotComponent(chart.Plotly) : null;
  const layout = chart
    ? interactive
      ? { ...chart.figure.layout, autosize: true, width: undefined }
      : { ...chart.figure.layout, autosize: true, width: undefined, height: undefined, margin: { l: 24, r: 12, t: 28, b: 24 }, showlegend: false }
    : undefined;
  const config = interactive ? { responsive: true, displaylogo: false } : { staticPlot: true, displayModeBar: false, responsive: true };

  return (
    <div className={`plot-figure ${className ?? ''}`} data-chart-state={state} role="img" aria-label={label}>
      {Plot && state !== 'failed' && (
        <Plot
          className="plot-figure-canvas"
          data={chart!.figure.data}
          layout={layout}
          frames={chart!.figure.frames}
          config={config}
          useResizeHandler
          style={{ width: '100%', height: '100%' }}
          onInitialized={initialized}
          onError={failed}
        />
      )}
      {state !== 'drawn' && (
        <div className="plot-figure-fallback">
          {fallback}
          {state === 'failed' && <p className="chart-failed">This chart could not be drawn.</p>}
        </div>
      )}
    </div>
  );
}
