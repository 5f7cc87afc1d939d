import { updateEndpoint } from '@/lib/file-actions';
import { endpoint, json, routes } from '@/lib/http';
import { getPlot } from '@/lib/plots';
import { fidParam, shareKeyQuery } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}', {
  GET: endpoint({
    summary: "A plot's detail record",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => json(await getPlot(db, viewer, fidParam(params.fid), origin, query.share_key)),
  }),
  PUT: updateEndpoint('plot'),
  PATCH: updateEndpoint('plot'),
});
