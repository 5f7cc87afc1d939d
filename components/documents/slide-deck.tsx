'use client';
// A presentation's slides one at a time: buttons, the keyboard (arrows, Page Up/Down, Home/End),
// a swipe on touch screens; the slide's number in the address (`#k`) so a link or a reload keeps it.
// The first slides come server-rendered; the others are asked for (`slidesUrl?from=k`, a few at a
// time) when they or the one before them are shown, so a large deck costs a view only what is seen.
// Charts on hidden slides wait (see lazy-plot.tsx).
// "Present" shows the deck alone, filling the screen (the Fullscreen API where the browser allows it,
// a layout filling the window anyway), `?present` in the address so a reload or a link presents too;
// Space and a clicker's Page Up/Down move, Escape (or leaving full screen) ends it.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SlideView } from '@/lib/web/document-views';
import { Slide } from './slide';

/** A swipe: this far sideways, more sideways than up or down. */
const SWIPE_PX = 50;

const slideOfHash = (hash: string, count: number) => {
  const k = /^#(\d{1,6})$/.exec(hash)?.[1];
  return k ? Math.min(Math.max(Number(k), 1), count) : 1;
};

/** The address with `?present` on or off at slide `k`, its share key kept. */
function presentAddress(on: boolean, k: number): string {
  const url = new URL(location.href);
  if (on) url.searchParams.set('present', '');
  else url.searchParams.delete('present');
  return `${url.pathname}${url.search.replace(/present=(&|$)/, 'present$1')}#${k}`;
}

export function SlideDeck({
  label,
  count,
  initial,
  slidesUrl,
  presentable = false,
}: {
  label: string;
  count: number;
  initial: SlideView[];
  slidesUrl: string;
  presentable?: boolean;
}) {
  const [current, setCurrent] = useState(1);
  const [presenting, setPresenting] = useState(false);
  const deck = useRef<HTMLElement>(null);
  const presentButton = useRef<HTMLButtonElement>(null);
  const [slides, setSlides] = useState<(SlideView | undefined)[]>(() => Array.from({ length: count }, (_, i) => initial[i]));
  const [failed, setFailed] = useState<number | null>(null);
  const asked = useRef(new Set<number>());
  const start = useRef<{ x: number; y: number } | null>(null);

  const go = useCallback(
    (k: number) => {
      const next = Math.min(Math.max(k, 1), count);
      setCurrent(next);
      history.replaceState(history.state, '', `#${next}`);
    },
    [count],
  );

  const present = useCallback(() => {
    setPresenting(true);
    history.replaceState(history.state, '', presentAddress(true, current));
    deck.current?.focus();
    // Not everywhere (an iframe without the permission, some phones): the layout fills the window anyway.
    deck.current?.requestFullscreen?.().catch(() => {});
  }, [current]);

  const leave = useCallback(() => {
    setPresenting(false);
    history.replaceState(history.state, '', presentAddress(false, current));
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    requestAnimationFrame(() => presentButton.current?.focus());
  }, [current]);

  useEffect(() => {
    if (presentable && new URLSearchParams(location.search).has('present')) setPresenting(true);
  }, [presentable]);

  // The browser's own way out of full screen (Escape, its button) ends the presentation too.
  useEffect(() => {
    if (!presenting) return;
    const onChange = () => {
      if (!document.fullscreenElement) leave();
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [presenting, leave]);

  useEffect(() => {
    setCurrent(slideOfHash(location.hash, count));
    const onHash = () => setCurrent(slideOfHash(location.hash, count));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [count]);

  // The shown slide and the next one, when not here yet: one request for a few slides from the first missing.
  useEffect(() => {
    const from = [current, current + 1].find((k) => k <= count && !slides[k - 1] && !asked.current.has(k));
    if (from === undefined || from === failed) return;
    const batch: number[] = [];
    for (let k = from; k <= count && batch.length < 3 && !slides[k - 1]; k++) batch.push(k);
    for (const k of batch) asked.current.add(k);
    fetch(`${slidesUrl}${slidesUrl.includes('?') ? '&' : '?'}from=${from}`, { headers: { Accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<{ from: number; slides: SlideView[] }>) : Promise.reject(new Error(String(res.status)))))
      .then((got) => {
        setFailed(null);
        setSlides((had) => had.map((slide, i) => slide ?? got.slides[i + 1 - got.from]));
      })
      // Asked for again when the visitor moves on or says so (Try again), never in a loop.
      .catch(() => {
        for (const k of batch) asked.current.delete(k);
        setFailed(from);
      });
  }, [current, count, slides, slidesUrl, failed]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (presenting && e.key === 'Escape') {
        e.preventDefault();
        leave();
        return;
      }
      const to: Record<string, number> = { ArrowRight: current + 1, PageDown: current + 1, ArrowLeft: current - 1, PageUp: current - 1, Home: 1, End: count };
      // Space moves on while presenting (back with Shift), but a focused button's Space is its own.
      if (presenting && e.key === ' ' && !target?.closest('button, a')) to[' '] = e.shiftKey ? current - 1 : current + 1;
      if (!(e.key in to)) return;
      e.preventDefault();
      go(to[e.key]);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current, count, go, presenting, leave]);

  return (
    <section
      ref={deck}
      className={presenting ? 'deck deck-presenting' : 'deck'}
      aria-roledescription="slide deck"
      aria-label={label}
      tabIndex={presentable ? -1 : undefined}
    >
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
        {slides.map(
          (slide, i) =>
            slide && (
              <section
                // biome-ignore lint/suspicious/noArrayIndexKey: a slide is its place in the deck
                key={i}
                className="deck-slide"
                aria-roledescription="slide"
                aria-label={`Slide ${i + 1} of ${count}`}
                hidden={i + 1 !== current}
              >
                <Slide slide={slide} />
              </section>
            ),
        )}
        {!slides[current - 1] && (
          <section className="deck-slide" aria-roledescription="slide" aria-label={`Slide ${current} of ${count}`} aria-busy={failed !== current}>
            <div className="slide slide-pending">
              {failed === current ? (
                <p className="slide-pending-text">
                  Slide {current} could not be loaded.{' '}
                  <button type="button" className="secondary" onClick={() => setFailed(null)}>
                    Try again
                  </button>
                </p>
              ) : (
                <p className="slide-pending-text">Loading slide {current}…</p>
              )}
            </div>
          </section>
        )}
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
        {presentable &&
          (presenting ? (
            <button type="button" className="secondary deck-leave" onClick={leave} aria-keyshortcuts="Escape">
              Stop presenting
            </button>
          ) : (
            <button type="button" ref={presentButton} onClick={present}>
              Present
            </button>
          ))}
      </div>
    </section>
  );
}
