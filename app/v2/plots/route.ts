import { authenticate } from '@/lib/auth';
import { json, MiB, parseWith, publicOrigin, queryObject, readJson, routes } from '@/lib/http';
import { requireViewer } from '@/lib/permissions';
import { createPlot, listPlots, listQuerySchema } from '@/lib/plots';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: async ({ req, url, db }) => {
    const query = parseWith(listQuerySchema, queryObject(url));
    const page = await listPlots(db, await authenticate(db, req), query, publicOrigin(req), url);
    return json(page.text);
  },
  POST: async ({ req, db }) => {
    const viewer = requireViewer(await authenticate(db, req));
    const body = await readJson(req, 10 * MiB);
    return json(await createPlot(db, viewer, body, publicOrigin(req)));
  },
});
