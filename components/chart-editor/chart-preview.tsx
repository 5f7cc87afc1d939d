'use client';
// The editor's live preview: the figure drawn with its columns' values (preview-data.ts), redrawn
// with Plotly.react a moment after the last change, through the draw guard like every chart here.
import { useEffect, useRef, useState } from 'react';
import { tameFigure } from '@/lib/shared/figures/draw-guard';
import { figureBundle } from '@/lib/shared/figures/plotly-bundles';
import { CHART_CONFIG, loadGeoAssets, loadPlotly, needsGeo, type PlotlyApi } from '../plotly-client';
import { previewFigure, previewTypes, type ColumnSize, type Preview, type PreviewFigure, type SeenData } from './preview-data';

/** How long the preview waits after a change before drawing (a burst of typing draws once). */
const REDRAW_DELAY_MS = 200;

type State = 'loading' | 'drawn' | 'failed';

let revision = 0;

export function ChartPreview({ figure, sizes, seen }: { figure: PreviewFigure; sizes: Map<string, ColumnSize>; seen?: SeenData }) {
  const el = useRef<HTMLDivElement>(null);
  /** The plotly that drew the chart (the page may hold two bundles). */
  const drawnBy = useRef<PlotlyApi | null>(null);
  const [state, setState] = useState<State>('loading');
  const [cut, setCut] = useState<Preview['cut']>(null);
  const [reduced, setReduced] = useState<Preview['reduced']>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let live = true;
    const timer = setTimeout(async () => {
      try {
        // The smallest bundle that draws it (a larger one once a type needs it; loadPlotly serves the
        // largest loaded), fetched while the columns come, so that its start-up and the first
        // drawing are two tasks of the page, not one.
        const [preview, Plotly] = await Promise.all([previewFigure(figure, sizes, seen), loadPlotly(figureBundle(previewTypes(figure)))]);
        if (needsGeo(preview.figure)) await loadGeoAssets();
        const tamed = await tameFigure(Plotly, preview.figure, 'cut');
        if (!live) return;
        // A chart drawn by another plotly (a smaller bundle) is let go by it first: not drawn until the new one is.
        if (drawnBy.current && drawnBy.current !== Plotly) {
          setState('loading');
          drawnBy.current.purge(node);
        }
        drawnBy.current = Plotly;
        // A new datarevision every draw: with the same column arrays and a changed layout (a title, an
        // axis), Plotly.react skips the data's recalculation and leaves autoranged axes at their empty
        // defaults (-1 to 6). Recalculating each debounced draw keeps the preview what Save stores.
        const layout = { ...tamed.layout, autosize: true, width: undefined, datarevision: ++revision };
        await (Plotly.react as unknown as (el: HTMLElement, fig: unknown) => Promise<unknown>)(node, {
          data: tamed.data,
          layout,
          frames: tamed.frames,
          config: { ...CHART_CONFIG, responsive: true },
        });
        if (!live) return;
        setCut(preview.cut);
        setReduced(preview.reduced);
        setError('');
        setState('drawn');
      } catch (e) {
        console.error('Preview failed:', e);
        // A failed draw can leave plotly's state half made: the next one starts afresh.
        drawnBy.current?.purge(node);
        drawnBy.current = null;
        if (!live) return;
        setError(e instanceof Error ? e.message : String(e));
        setState('failed');
      }
    }, REDRAW_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [figure, sizes, seen]);

  useEffect(() => {
    const node = el.current;
    return () => {
      if (node) drawnBy.current?.purge(node);
    };
  }, []);

  return (
    <div className="editor-preview">
      <figure className="plot-figure editor-preview-chart" aria-label="Chart preview" data-chart-state={state}>
        <div ref={el} className="plot-figure-canvas" />
      </figure>
      {cut && (
        <p className="notice editor-preview-note" role="status">
          The preview draws the first part of the data ({cut.shown.toLocaleString('en')} of {cut.total.toLocaleString('en')} values): drawing all of it here
          would be slow. The saved chart has all of it.
        </p>
      )}
      {reduced && (
        <p className="notice editor-preview-note" role="status">
          The preview draws a reduced copy: {reduced.points.toLocaleString('en')} points of {reduced.rows.toLocaleString('en')} rows, the lowest and highest
          value of each stretch of rows, so it stays quick. The saved chart has every row.
        </p>
      )}
      {state === 'failed' && (
        <p className="form-error" role="status">
          The preview could not be drawn{error ? `: ${error}` : ''}.
        </p>
      )}
    </div>
  );
}
