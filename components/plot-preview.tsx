'use client';
// A card's chart: the list thumbnail until the card comes near the viewport, then the figure drawn
// as a static preview. Only cards that are (nearly) seen fetch their figure, and plotly.js itself
// loads on the first of them, never with the page.
import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';

const PlotFigure = dynamic(() => import('./plot-figure'), {
  ssr: false,
  loading: () => <div className="plot-preview-pending" />,
});

// Start a little before the card scrolls in, so the chart is usually drawn by the time it is seen.
const ROOT_MARGIN = '300px 0px';

export default function PlotPreview({ contentUrl, thumbnail, title }: { contentUrl: string; thumbnail: string; title: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
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
  }, [near]);

  // eslint-disable-next-line @next/next/no-img-element
  const thumb = <img src={thumbnail} alt={`Thumbnail of the chart “${title}”`} width={200} height={150} loading="lazy" decoding="async" />;
  return (
    <div ref={ref} className="plot-card-preview">
      {near ? <PlotFigure contentUrl={contentUrl} label={`Chart: ${title}`} fallback={thumb} /> : <div className="plot-figure-fallback">{thumb}</div>}
    </div>
  );
}
