import { authenticate } from '@/lib/auth';
import { json, parseWith, publicOrigin, queryObject, routes } from '@/lib/http';
import { feedQuerySchema, listFeed } from '@/lib/plots';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: async ({ req, url, db }) => {
    const query = parseWith(feedQuerySchema, queryObject(url));
    const page = await listFeed(db, await authenticate(db, req), query, publicOrigin(req), url);
    return json(page.text);
  },
});
