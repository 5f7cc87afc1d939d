import type { Metadata } from 'next';
import { PlotList } from '@/components/plot-list';
import { SearchForm } from '@/components/search-form';
import { galleryPage, galleryParams, galleryQuery } from '@/lib/web/gallery';
import { pageHref } from '@/lib/shared/urls';
import { pageContext } from '@/lib/web/page-context';
import { moreGalleryPlots } from '@/app/_actions/lists';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const QUALITIES = Array.from({ length: 10 }, (_, i) => i + 1);

const ORDER_WORDS: Record<string, string> = {
  '-views': 'most viewed first',
  views: 'least viewed first',
  '-stars': 'most starred first',
  stars: 'least starred first',
};

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { query } = galleryQuery(await searchParams);
  return {
    // The root segment's own page: the layout's title template applies only below it.
    title: { absolute: `${query.order_by === '-views' ? 'Most viewed plots' : query.order_by === '-stars' ? 'Most starred plots' : 'Gallery'} · Plot Files` },
    description: 'Public Plotly charts shared on Plot Files: newest first, most viewed or most starred, filtered by quality.',
  };
}

// The public gallery: every public plot, newest first, most viewed or most starred, optionally only the better
// ones. Sorting, filtering and paging are plain links and a GET form, so all work without JavaScript.
export default async function Gallery({ searchParams }: Props) {
  const { db, origin } = await pageContext();
  const { query, invalid } = galleryQuery(await searchParams);
  const page = await galleryPage(db, query, origin);
  const params = galleryParams(query);
  const byViews = query.order_by === '-views';
  const byStars = query.order_by === '-stars';
  const minQuality = query.min_quality ?? 0;

  return (
    <main>
      <div className="list-head">
        <div>
          <h1>Gallery</h1>
          <p className="muted">
            Public plots, {ORDER_WORDS[query.order_by ?? ''] ?? 'newest first'}
            {minQuality > 0 && `, quality ${minQuality} and up`}.
          </p>
        </div>
        <div className="list-controls">
          <SearchForm />
          <nav aria-label="Sort order" className="sort-switch">
            <a data-sort="newest" href={pageHref('/', { ...params, order_by: undefined })} aria-current={query.order_by ? undefined : 'page'}>
              Newest
            </a>
            <a data-sort="views" href={pageHref('/', { ...params, order_by: '-views' })} aria-current={byViews ? 'page' : undefined}>
              Most viewed
            </a>
            <a data-sort="stars" href={pageHref('/', { ...params, order_by: '-stars' })} aria-current={byStars ? 'page' : undefined}>
              Most starred
            </a>
          </nav>
          <form className="filters" method="get" action="/">
            {query.order_by && <input type="hidden" name="order_by" value={query.order_by} />}
            <label htmlFor="min-quality">Minimum quality</label>
            <select id="min-quality" name="min_quality" defaultValue={String(minQuality)}>
              <option value="0">Any</option>
              {QUALITIES.map((q) => (
                <option key={q} value={q}>
                  {q} or more
                </option>
              ))}
            </select>
            <button type="submit" className="secondary">
              Apply
            </button>
          </form>
        </div>
      </div>
      {(invalid || page.cursorRejected) && (
        <p className="notice" role="status">
          {invalid
            ? 'Part of this address was not understood, so the default sort and filter apply there.'
            : 'That page link is no longer valid, so here is the first page.'}
        </p>
      )}
      <PlotList
        page={page}
        path="/"
        params={params}
        loadPage={moreGalleryPlots.bind(null, Object.fromEntries(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))))}
        empty={
          minQuality > 0 ? (
            <>
              <h2>No plots of quality {minQuality} or more</h2>
              <p>
                Curators have not rated any public plot that high yet. <a href={pageHref('/', { ...params, min_quality: undefined })}>Show every plot</a>.
              </p>
            </>
          ) : (
            <>
              <h2>No public plots yet</h2>
              <p>
                Plots created with <code>chart_studio</code>, R <code>plotly</code> or <code>POST /v2/plots</code> appear here once they are public.
              </p>
            </>
          )
        }
      />
    </main>
  );
}
