import type { Metadata } from 'next';
import { PlotList } from '@/components/plot-list';
import { DocumentCards } from '@/components/documents/document-cards';
import { SearchForm } from '@/components/search-form';
import { FoundFiles } from '@/components/found-files';
import { searchDocuments } from '@/lib/core/documents/document-cards';
import { SEARCH_WALK } from '@/lib/core/plots/search';
import { searchPage, searchQuery } from '@/lib/web/gallery';
import { signInFirst } from '@/lib/shared/urls';
import { pageContext } from '@/lib/web/page-context';
import { ownNameMatches } from '@/lib/web/workspace';
import { moreSearchPlots } from '@/app/_actions/lists';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { q } = searchQuery(await searchParams);
  return {
    title: q.trim() ? `Search: ${q.trim().slice(0, 80)}` : 'Search',
    description: 'Search the public Plotly charts on Plot Files by title, filename, owner, caption and trace type.',
    // Result pages are endless combinations of words: not for indexing.
    robots: { index: false },
  };
}

// Search results: public plots matching `q` (lib/core/plots/search.ts), most relevant first, paged with
// the lists' cursors and "Load more". The box on the gallery and the feed lands here (a GET form).
export default async function Search({ searchParams }: Props) {
  const { db, viewer, origin } = await pageContext();
  const query = searchQuery(await searchParams);
  const q = query.q.trim();
  // Searching one's own plots needs someone signed in; anonymous, the page says so.
  const mine = query.mine && viewer !== null;
  const page = q && !query.error && (mine || !query.mine) ? await searchPage(db, viewer, { q, cursor: query.cursor, mine }, origin) : null;
  const what = mine ? 'Your files (private and secret included)' : 'Public plots';
  // Dashboards and presentations found by their names lead the first page.
  const documents = page && !query.cursor ? await searchDocuments(db, viewer, q, mine ? 'own' : 'public') : [];
  // One's own grids and folders too, by name: the workspace's box finds every kind of file.
  const named = page && mine && viewer && !query.cursor ? await ownNameMatches(db, viewer, q) : [];

  return (
    <main>
      <div className="list-head">
        <div>
          <h1>Search</h1>
          <p className="muted">
            {page ? (
              <>
                {what} matching <q>{q}</q>: the most relevant first, or the newest first when very many match.
              </>
            ) : (
              'Words from titles, filenames, owner names and captions; type:heatmap for a trace type.'
            )}
          </p>
        </div>
        <div className="list-controls">
          <SearchForm q={query.q} mine={mine} />
        </div>
      </div>
      {query.mine && !viewer && (
        <p className="notice" role="status">
          <a href={signInFirst(`/search?in=mine&q=${encodeURIComponent(q)}`)}>Sign in</a> to search your own plots.
        </p>
      )}
      {mine && (
        <p className="muted">
          <a href={`/search?q=${encodeURIComponent(q)}`}>Search all public plots instead</a>
        </p>
      )}
      {query.error && (
        <p className="notice" role="alert">
          {query.error}.
        </p>
      )}
      {page?.cursorRejected && (
        <p className="notice" role="status">
          That page link is no longer valid, so here is the first page.
        </p>
      )}
      <FoundFiles rows={named} />
      <DocumentCards rows={documents} byline={!mine} />
      {page && (
        <PlotList
          page={page}
          path="/search"
          params={mine ? { q, in: 'mine' } : { q }}
          loadPage={moreSearchPlots.bind(null, q, mine)}
          empty={
            page.next ? (
              // A search page reads a bounded stretch of plots (lib/core/plots/search.ts); older ones may match.
              <>
                <h2>No matches among the {SEARCH_WALK.toLocaleString('en-US')} plots searched so far</h2>
                <p>
                  Older plots may still match <q>{q}</q>: the next page searches further back.
                </p>
              </>
            ) : (
              <>
                <h2>
                  No plots match <q>{q}</q>
                </h2>
                <p>
                  Every word must match. Try fewer or other words, or <a href="/">browse the gallery</a>.
                </p>
              </>
            )
          }
        />
      )}
    </main>
  );
}
