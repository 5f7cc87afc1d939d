'use client';
// The plot page's interactive chart and its downloads. PNG and SVG come from plotly.js itself
// (Plotly.downloadImage on the drawn chart), so they stay disabled until the chart is drawn.
import { useCallback, useState } from 'react';
import PlotFigure from './plot-figure';
import type { ChartMode } from '@/lib/core/images/images';
import type { PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import type { PlotlyApi } from './plotly-client';

export interface PlotViewProps {
  contentUrl: string;
  label: string;
  /** The id of the chart's text alternative on the page. */
  describedBy?: string;
  /** The figure's own height in pixels, else the chart takes a share of the viewport. */
  height: number | null;
  /** A static image shown while the chart loads (and if it cannot be drawn). */
  imageUrl: string;
  /** Base name of downloaded images. */
  downloadName: string;
  /** The chart's text alternative and data table link, server-rendered, shown under the chart. */
  about?: React.ReactNode;
  /** The server-rendered download links (JSON, CSV) that sit beside the image buttons. */
  children?: React.ReactNode;
  /** `live`: drawn at once; `reduced`: drawn at once by the view; `on-request`: many values, the
   * image until the visitor asks for the chart; `static`: a figure that could not be drawn, only its image. */
  mode?: ChartMode;
  /** The plotly.js bundle the figure needs. */
  bundle?: PlotlyBundle;
  /** Set when the chart is drawn by the view (`mode` reduced): see PlotFigure. */
  viewUrl?: string;
}

type Format = 'png' | 'svg';

export function PlotView({ contentUrl, label, describedBy, about, height, imageUrl, downloadName, children, mode = 'live', bundle, viewUrl }: PlotViewProps) {
  const [live, setLive] = useState(mode === 'live' || mode === 'reduced');
  const [chart, setChart] = useState<{ plotly: PlotlyApi; el: HTMLElement } | null>(null);
  const [error, setError] = useState('');
  const ready = useCallback((plotly: PlotlyApi, el: HTMLElement) => setChart({ plotly, el }), []);

  async function download(format: Format) {
    if (!chart) return;
    setError('');
    try {
      await chart.plotly.downloadImage(chart.el, { format, filename: downloadName });
    } catch (e) {
      console.error('Image download failed:', e);
      setError(`The ${format.toUpperCase()} image could not be made.`);
    }
  }

  return (
    <>
      <section className="plot-chart" aria-label="Chart" style={height ? { height } : undefined}>
        {live ? (
          <PlotFigure
            contentUrl={contentUrl}
            interactive
            bundle={bundle}
            viewUrl={viewUrl}
            label={label}
            describedBy={describedBy}
            fallback={<img src={imageUrl} alt="" />}
            onReady={ready}
          />
        ) : (
          <div className="plot-static-wrap">
            <img className="plot-static" src={imageUrl} alt={label} aria-describedby={describedBy} />
            {mode === 'on-request' && (
              <button type="button" className="draw-chart" onClick={() => setLive(true)}>
                Draw the interactive chart (many values: it may take a while)
              </button>
            )}
          </div>
        )}
      </section>
      {about}
      <section className="plot-downloads" aria-labelledby="downloads-heading">
        <h2 id="downloads-heading">Download</h2>
        <ul className="download-list">
          {children}
          {(['png', 'svg'] as const).map((format) => (
            <li key={format}>
              <button
                type="button"
                className="secondary"
                data-download={format}
                disabled={!chart}
                title={chart ? undefined : 'Available once the chart is drawn'}
                onClick={() => download(format)}
              >
                {format.toUpperCase()} image
              </button>
            </li>
          ))}
        </ul>
        <p className="download-error" role="status" aria-live="polite">
          {error}
        </p>
      </section>
    </>
  );
}
