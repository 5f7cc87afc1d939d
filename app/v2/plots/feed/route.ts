import { endpoint, jsonStream, routes } from '@/lib/http';
import { feedQuerySchema, listFeed } from '@/lib/plots';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/feed', {
  GET: endpoint({
    summary: 'Handpicked public plots in a random order fixed by the cursor',
    query: feedQuerySchema,
    handler: async ({ db, viewer, query, origin, url }) => jsonStream(await listFeed(db, viewer, query, origin, url)),
  }),
});
