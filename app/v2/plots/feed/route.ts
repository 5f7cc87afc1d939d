import { endpoint, json, routes } from '@/lib/http';
import { feedQuerySchema, listFeed } from '@/lib/plots';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/feed', {
  GET: endpoint({
    summary: 'Handpicked public plots in a random order fixed by the cursor',
    query: feedQuerySchema,
    handler: async ({ db, viewer, query, origin, url }) => json((await listFeed(db, viewer, query, origin, url)).text),
  }),
});
