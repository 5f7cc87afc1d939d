// One slide of a presentation, drawn as the Python client lays it out (children placed on a 1000 x 700
// slide that scales to the width it is given). Styles are only what lib/core/documents/slide-style.ts let
// through; images and charts only from this site. Rendered on the server for the first slides and in
// the browser for the ones the deck asks for later (slide-deck.tsx).
import type { CSSProperties } from 'react';
import type { SlideItem, SlideView } from '@/lib/web/document-views';
import { NotShared } from './dashboard-view';
import { LazyPlot } from './lazy-plot';

export function Slide({ slide }: { slide: SlideView }) {
  return (
    <div className="slide" style={slide.style as CSSProperties}>
      {slide.items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a child is its place on the slide, rendered once
        <Item key={i} item={item} />
      ))}
      {slide.foreignBackground && <p className="slide-foreign-background">Background image not loaded (another site): {slide.foreignBackground}</p>}
    </div>
  );
}

function Item({ item }: { item: SlideItem }) {
  const style = item.style as CSSProperties;
  switch (item.kind) {
    case 'text': {
      const Tag = item.heading ? 'h2' : 'div';
      return (
        <Tag className="slide-text" style={style}>
          {item.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a line is its place in the text
            <span key={i} className="slide-line">
              {line}
            </span>
          ))}
        </Tag>
      );
    }
    case 'plot':
      return (
        <div className="slide-plot" style={style}>
          <LazyPlot plot={item.plot} />
        </div>
      );
    case 'hidden':
      return (
        <div className="slide-plot slide-hidden" style={style}>
          <NotShared />
        </div>
      );
    case 'image':
      return <img className="slide-image" style={style} src={item.src} alt={item.alt} loading="lazy" />;
    case 'foreign-image':
      return (
        <p className="slide-foreign-image" style={style}>
          Image not loaded (another site): <span className="slide-address">{item.address}</span>
        </p>
      );
    case 'code':
      return (
        <pre className="slide-code" style={style}>
          <code>{item.source}</code>
        </pre>
      );
  }
}
