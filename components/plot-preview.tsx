'use client';
// A card's chart: its card image (drawn by the renderer in the card layout), and the live chart in
// its place only when the visitor asks for it: pointing at the image, focusing its button or tapping
// it. plotly.js (only the bundle the figure needs) loads then, never with the page; without
// JavaScript the card is its image and its links.
import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';
import { CARD_SIZE } from '@/lib/shared/figures/card-figure';
import type { PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';

// While plotly.js loads, the image underneath stays in view.
const PlotFigure = dynamic(() => import('./plot-figure'), { ssr: false, loading: () => null });

// A pointer passing over a card on its way elsewhere does not load plotly; one resting on it does.
const HOVER_MS = 150;

interface PlotPreviewProps {
  contentUrl: string;
  image: string;
  title: string;
  /** False for a plot that could not be drawn or holds many values: its card keeps its image. */
  live: boolean;
  /** The plotly.js bundle the figure's trace types need (a figure needing more gets it when fetched). */
  bundle: PlotlyBundle;
  /** On the first row: the image loads at once and first; the rest load as they near the viewport. */
  priority: boolean;
}

export default function PlotPreview({ contentUrl, image, title, live, bundle, priority }: PlotPreviewProps) {
  const [asked, setAsked] = useState(false);
  // The button that draws the chart exists only once this script runs (it would do nothing before).
  const [ready, setReady] = useState(false);
  const hover = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    setReady(true);
    return () => clearTimeout(hover.current);
  }, []);
  const ask = () => setAsked(true);

  return (
    <div className="plot-card-preview" data-live-chart={asked ? 'asked' : undefined}>
      <img
        className="plot-card-image"
        src={image}
        alt={`Chart: ${title}`}
        width={CARD_SIZE[0]}
        height={CARD_SIZE[1]}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding="async"
      />
      {asked && <PlotFigure contentUrl={contentUrl} label={`Live chart: ${title}`} bundle={bundle} />}
      {live && ready && (
        <button
          type="button"
          className="plot-card-live"
          aria-label={`Show live chart of “${title}”`}
          aria-disabled={asked || undefined}
          onPointerEnter={() => {
            clearTimeout(hover.current);
            hover.current = setTimeout(ask, HOVER_MS);
          }}
          onPointerLeave={() => clearTimeout(hover.current)}
          onFocus={ask}
          onClick={ask}
        />
      )}
    </div>
  );
}
