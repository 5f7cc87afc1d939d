'use client';
// A presentation's slides one at a time: buttons, the keyboard (arrows, Page Up/Down, Home/End),
// a swipe on touch screens; the slide's number in the address (`#k`) so a link or a reload keeps it.
// The slides come server-rendered; this only chooses which one shows (charts on hidden slides wait,
// see lazy-plot.tsx).
import { Children, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

/** A swipe: this far sideways, more sideways than up or down. */
const SWIPE_PX = 50;

const slideOfHash = (hash: string, count: number) => {
  const k = /^#(\d{1,6})$/.exec(hash)?.[1];
  return k ? Math.min(Math.max(Number(k), 1), count) : 1;
};

export function SlideDeck({ children, label }: { children: ReactNode; label: string }) {
  const slides = Children.toArray(children);
  const count = slides.length;
  const [current, setCurrent] = useState(1);
  const start = useRef<{ x: number; y: number } | null>(null);

  const go = useCallback(
    (k: number) => {
      const next = Math.min(Math.max(k, 1), count);
      setCurrent(next);
      history.replaceState(history.state, '', `#${next}`);
    },
    [count],
  );

  useEffect(() => {
    setCurrent(slideOfHash(location.hash, count));
    const onHash = () => setCurrent(slideOfHash(location.hash, count));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [count]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const to: Record<string, number> = { ArrowRight: current + 1, PageDown: current + 1, ArrowLeft: current - 1, PageUp: current - 1, Home: 1, End: count };
      if (!(e.key in to)) return;
      e.preventDefault();
      go(to[e.key]);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current, count, go]);

  return (
    <section className="deck" aria-roledescription="slide deck" aria-label={label}>
      <div
        className="deck-stage"
        onPointerDown={(e) => {
          start.current = { x: e.clientX, y: e.clientY };
        }}
        onPointerUp={(e) => {
          const from = start.current;
          start.current = null;
          if (!from) return;
          const dx = e.clientX - from.x;
          if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(e.clientY - from.y)) go(dx < 0 ? current + 1 : current - 1);
        }}
        onPointerCancel={() => {
          start.current = null;
        }}
      >
        {slides.map((slide, i) => (
          <section
            // biome-ignore lint/suspicious/noArrayIndexKey: a slide is its place in the deck, rendered once
            key={i}
            className="deck-slide"
            aria-roledescription="slide"
            aria-label={`Slide ${i + 1} of ${count}`}
            hidden={i + 1 !== current}
          >
            {slide}
          </section>
        ))}
      </div>
      <div className="deck-controls">
        <button type="button" className="secondary" onClick={() => go(current - 1)} disabled={current <= 1}>
          Previous slide
        </button>
        <p className="deck-status" role="status" aria-live="polite">
          Slide {current} of {count}
        </p>
        <button type="button" className="secondary" onClick={() => go(current + 1)} disabled={current >= count}>
          Next slide
        </button>
      </div>
    </section>
  );
}
