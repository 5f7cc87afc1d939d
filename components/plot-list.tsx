// One page of a plot list (gallery, feed, profile): the cards, the paging, or the empty state.
import type { ReactNode } from 'react';
import { pageHref } from '@/lib/shared/urls';
import type { CardPage } from '@/lib/web/gallery';
import LoadMore, { type NextPage } from './load-more';
import { PlotCard } from './plot-card';

/** Cards on the first row at the widest layout: their images load first, the rest lazily. */
const FIRST_ROW = 4;

interface PlotListProps {
  page: CardPage;
  /** The list page's path and parameters, which its page links keep. */
  path: string;
  params?: Record<string, string | number | undefined>;
  /** Where "Load more" gets the next page: a server action. */
  loadPage: (cursor: string) => Promise<NextPage>;
  empty: ReactNode;
}

export function PlotList({ page, path, params = {}, loadPage, empty }: PlotListProps) {
  return (
    <>
      {page.cards.length ? (
        <div className="plot-grid">
          {page.cards.map((card, i) => (
            <PlotCard key={card.fid} card={card} priority={i < FIRST_ROW} />
          ))}
        </div>
      ) : (
        <div className="empty-state">{empty}</div>
      )}
      <LoadMore
        cursor={page.next}
        previousHref={page.previous ? pageHref(path, params, page.previous) : null}
        pageHref={pageHref(path, params)}
        shown={page.cards.map((card) => card.fid)}
        loadPage={loadPage}
      />
    </>
  );
}
