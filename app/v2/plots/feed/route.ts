import { endpoint, routes } from '@/lib/http/routes';
import { jsonStream, shared, pageLinks } from '@/lib/http/responses';
import { feedQuerySchema } from '@/lib/http/request/queries';
import { listFeed } from '@/lib/core/plots/plot-lists';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/feed', {
  GET: endpoint({
    summary: 'Handpicked public plots in a random order fixed by the cursor',
    query: feedQuerySchema,
    handler: async ({ db, viewer, query, origin, url }) => shared(jsonStream(await listFeed(db, viewer, query, origin, pageLinks(origin, url)))),
  }),
});
