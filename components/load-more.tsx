'use client';
// Paging for the plot lists. The links (rendered on the server too) work without JavaScript; with it,
// "Load more" appends the next page's cards below the first ones and the "next" link moves past
// what has been appended, so both ways of paging agree.
import { useEffect, useRef, useState } from 'react';
import type { PlotCardData } from '@/lib/web/plot-cards';
import { PlotCard } from './plot-card';

export interface NextPage {
  cards: PlotCardData[];
  next: string | null;
}

interface LoadMoreProps {
  /** The next page's cursor; null on the last page. */
  cursor: string | null;
  previousHref: string | null;
  /** This list's page link without a cursor (e.g. "/?order_by=-views"). */
  pageHref: string;
  /** The cards already on the page: a plot whose rank moved meanwhile is not shown twice. */
  shown: string[];
  /** A server action answering the page after a cursor (cards only: no figure travels). */
  loadPage: (cursor: string) => Promise<NextPage>;
}

const withCursor = (href: string, cursor: string) => `${href}${href.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

export default function LoadMore({ cursor, previousHref, pageHref, shown, loadPage }: LoadMoreProps) {
  const [cards, setCards] = useState<PlotCardData[]>([]);
  const [next, setNext] = useState(cursor);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [status, setStatus] = useState('');
  const [focusFid, setFocusFid] = useState<string | null>(null);
  // The button does nothing without JavaScript, so it appears only once the page is hydrated.
  const [hydrated, setHydrated] = useState(false);
  const grid = useRef<HTMLDivElement>(null);

  useEffect(() => setHydrated(true), []);

  // When the last page arrives the button goes away; keep keyboard focus in the list instead of
  // dropping it to the top of the document.
  useEffect(() => {
    if (!focusFid) return;
    grid.current?.querySelector<HTMLAnchorElement>(`[data-fid="${CSS.escape(focusFid)}"] .plot-card-title a`)?.focus();
  }, [focusFid]);

  async function loadMore() {
    if (!next || state === 'loading') return;
    setState('loading');
    setStatus('Loading more plots…');
    try {
      const page = await loadPage(next);
      const seen = new Set([...shown, ...cards.map((c) => c.fid)]);
      const fresh = page.cards.filter((c) => !seen.has(c.fid));
      setCards([...cards, ...fresh]);
      setNext(page.next);
      setState('idle');
      // A search page may come back empty with more to read (it reads a bounded stretch of plots).
      setStatus(
        !fresh.length && page.next
          ? 'No more plots in this stretch; Load more looks further.'
          : `${fresh.length} more ${fresh.length === 1 ? 'plot' : 'plots'} loaded${page.next ? '' : '; that is all of them'}.`,
      );
      if (!page.next && fresh.length) setFocusFid(fresh[0].fid);
    } catch (error) {
      console.error('Load more failed:', error);
      setState('failed');
      setStatus('');
    }
  }

  return (
    <>
      {cards.length > 0 && (
        <div ref={grid} className="plot-grid plot-grid-more">
          {cards.map((card) => (
            <PlotCard key={card.fid} card={card} />
          ))}
        </div>
      )}
      {(previousHref || next) && (
        <nav className="pager" aria-label="Pages">
          {previousHref && (
            <a rel="prev" href={previousHref} className="button secondary">
              <span aria-hidden="true">←</span> Previous page
            </a>
          )}
          {hydrated && next && (
            <button type="button" className="load-more" onClick={loadMore} disabled={state === 'loading'} aria-busy={state === 'loading'}>
              {state === 'loading' ? 'Loading…' : 'Load more'}
            </button>
          )}
          {next && (
            <a rel="next" href={withCursor(pageHref, next)} className="button secondary">
              Next page <span aria-hidden="true">→</span>
            </a>
          )}
        </nav>
      )}
      {state === 'failed' && (
        <p role="alert" className="form-error center">
          More plots could not be loaded. Try again, or use the page links.
        </p>
      )}
      <p role="status" className="sr-only">
        {status}
      </p>
    </>
  );
}
