'use client';
// A card's chart: the rendered list thumbnail at once, replaced by the figure drawn live as a static
// preview once that is drawn. Only cards that are (nearly) seen fetch their figure, and plotly.js
// itself loads on the first of them, never with the page.
import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';

// While plotly.js loads, the thumbnail underneath stays in view.
const PlotFigure = dynamic(() => import('./plot-figure'), { ssr: false, loading: () => null });

// Start a little before the card scrolls in, so the chart is usually drawn by the time it is seen.
const ROOT_MARGIN = '300px 0px';

export default function PlotPreview({ contentUrl, thumbnail, title, live }: { contentUrl: string; thumbnail: string; title: string; live: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const el = ref.current;
    // A plot that could not be drawn keeps its image: drawing it live would freeze the tab.
    if (!el || near || !live) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: ROOT_MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, live]);

  const thumb = <img src={thumbnail} alt={`Thumbnail of the chart “${title}”`} width={200} height={150} loading="lazy" decoding="async" />;
  return (
    <div ref={ref} className="plot-card-preview">
      <div className="plot-figure-fallback plot-card-thumb">{thumb}</div>
      {near && <PlotFigure contentUrl={contentUrl} label={`Chart: ${title}`} />}
    </div>
  );
}
