'use client';
// A plot inside a dashboard box or a slide: its image until the box comes near the viewport (or its
// slide is shown), then its live chart, plotly.js loaded only then (the smallest bundle it needs). A
// plot of many values stays its image until asked for; one that could not be drawn stays its image.
import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';
import type { PlotView } from '@/lib/web/document-views';

const PlotFigure = dynamic(() => import('@/components/plot-figure'), { ssr: false, loading: () => null });

/** How far outside the viewport a chart starts drawing, so one scrolled to is already there. */
const AHEAD = '300px';
/** Narrower than this (a slide on a phone), a chart is drawn as its card is: tight margins, no legend, values on hover. */
const COMPACT_WIDTH = 480;

export function LazyPlot({ plot }: { plot: PlotView }) {
  const el = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [compact, setCompact] = useState(false);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    const node = el.current;
    if (!node || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const seen = entries.find((e) => e.isIntersecting);
        if (!seen) return;
        setCompact(seen.boundingClientRect.width < COMPACT_WIDTH);
        setNear(true);
      },
      { rootMargin: AHEAD },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [near]);
  const live = plot.mode === 'live' || plot.mode === 'reduced' || asked;
  const label = `Chart: ${plot.title}`;
  return (
    <div ref={el} className="doc-plot" data-drawn-when-near={near || undefined}>
      {near && live ? (
        <PlotFigure
          contentUrl={plot.contentUrl}
          viewUrl={plot.viewUrl}
          interactive={!compact}
          bundle={plot.bundle}
          label={label}
          fallback={<img src={plot.imageUrl} alt="" />}
        />
      ) : (
        <div className="doc-plot-static">
          <img src={plot.imageUrl} alt={label} loading="lazy" decoding="async" />
          {plot.mode === 'on-request' && (
            <button type="button" className="secondary" onClick={() => setAsked(true)}>
              Draw the interactive chart
            </button>
          )}
        </div>
      )}
    </div>
  );
}
