import { endpoint, json, MiB, routes } from '@/lib/http';
import { getPlot, plotBodySchema, updatePlot } from '@/lib/plots';
import { fidParam, shareKeyQuery } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}', {
  GET: endpoint({
    summary: "A plot's detail record",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => json(await getPlot(db, viewer, fidParam(params.fid), origin, query.share_key)),
  }),
  PUT: endpoint({
    summary: "Update a plot's fields (those given)",
    auth: 'required',
    body: plotBodySchema,
    bodyLimit: 10 * MiB,
    handler: async ({ db, viewer, params, body, origin }) => json(await updatePlot(db, viewer, fidParam(params.fid), body, origin)),
  }),
});
