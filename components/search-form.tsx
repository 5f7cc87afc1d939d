// The search box (gallery, feed, search results; the workspace's searches one's own files of every
// kind): a plain GET form to /search, so it works without JavaScript and every search is a link.
import { MAX_QUERY_CHARS } from '@/lib/shared/limits';

/** `mine`: the box searches the signed-in person's own files (the workspace's): plots, grids, folders, dashboards, presentations. */
export function SearchForm({ q = '', mine = false }: { q?: string; mine?: boolean }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the form itself is the search landmark; a <search> wrapper would add a box around it inside the flex rows that place it
    <form role="search" className="search-form" method="get" action="/search">
      {mine && <input type="hidden" name="in" value="mine" />}
      <label htmlFor="search-q" className="visually-hidden">
        {mine ? 'Search your files' : 'Search public plots'}
      </label>
      <input
        id="search-q"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={MAX_QUERY_CHARS}
        placeholder={mine ? 'Search your files by name' : 'Search plots, e.g. rainfall type:bar'}
      />
      <button type="submit">Search</button>
    </form>
  );
}
