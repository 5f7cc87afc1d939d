import { clientOf } from '@/lib/http/request/client';
import { endpoint, routes } from '@/lib/http/routes';
import { json, jsonStream, shared, pageLinks } from '@/lib/http/responses';
import { MiB } from '@/lib/core/json-text';
import { createPlot, plotCreateSchema } from '@/lib/core/plots/plots';
import { listPlots } from '@/lib/core/plots/plot-lists';
import { listQuerySchema } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots', {
  GET: endpoint({
    summary: 'List public plots (newest first, or by views), keyset-paged',
    query: listQuerySchema,
    handler: async ({ db, viewer, query, origin, url }) => shared(jsonStream(await listPlots(db, viewer, query, origin, pageLinks(origin, url)))),
  }),
  POST: endpoint({
    summary: 'Create a plot on src references to grid columns',
    auth: 'required',
    body: plotCreateSchema,
    bodyLimit: 10 * MiB,
    responses: { 200: 'the new plot: {"file": detail record}' },
    handler: async ({ req, db, viewer, body, origin }) => json(await createPlot(db, viewer, body, origin, clientOf(req.headers))),
  }),
});
