import type { Metadata } from 'next';
import { PlotList } from '@/components/plot-list';
import { SearchForm } from '@/components/search-form';
import { cursorQuery, feedPage } from '@/lib/web/gallery';
import { pageContext } from '@/lib/web/page-context';
import { moreFeedPlots } from '@/app/_actions/lists';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = {
  title: 'Feed',
  description: 'Plotly charts handpicked by the curators of Plot Files, in a fresh random order on every visit.',
};

// Handpicked plots in random order. The order's seed travels in the page cursors, so paging through
// one visit shows each plot once; a new visit (or "Shuffle") draws a new order.
export default async function Feed({ searchParams }: Props) {
  const { db, origin } = await pageContext();
  const { query, invalid } = cursorQuery(await searchParams);
  const page = await feedPage(db, query, origin);

  return (
    <main>
      <div className="list-head">
        <div>
          <h1>Feed</h1>
          <p className="muted">Handpicked plots, in a random order.</p>
        </div>
        <div className="list-controls">
          <SearchForm />
          <a href="/feed" className="button secondary">
            Shuffle
          </a>
        </div>
      </div>
      {(invalid || page.cursorRejected) && (
        <p className="notice" role="status">
          That page link is no longer valid, so here is a fresh shuffle.
        </p>
      )}
      <PlotList
        page={page}
        path="/feed"
        loadPage={moreFeedPlots}
        empty={
          <>
            <h2>Nothing handpicked yet</h2>
            <p>
              Operators pick plots for the feed with <code>npm run plot:curate -- owner:n --handpicked true</code>. Meanwhile, browse the{' '}
              <a href="/">gallery</a>.
            </p>
          </>
        }
      />
    </main>
  );
}
