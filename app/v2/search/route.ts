import { endpoint, routes } from '@/lib/http/routes';
import { jsonStream, shared, pageLinks } from '@/lib/http/responses';
import { searchPlots } from '@/lib/core/plots/search';
import { searchQuerySchema } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/search', {
  GET: endpoint({
    summary:
      'Search public plots by words (title, filename, owner, caption) and type: filters; most relevant first, keyset-paged. ' +
      'A page reads a bounded stretch of plots, so it may hold fewer results than page_size (even none) while next is set: follow next until it is null',
    query: searchQuerySchema,
    handler: async ({ db, viewer, query, origin, url }) => shared(jsonStream(await searchPlots(db, viewer, query, origin, pageLinks(origin, url)))),
  }),
});
