import { updateEndpoint } from '@/lib/http/file-actions';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { getPlot } from '@/lib/core/plots/plots';
import { fidParam } from '@/lib/core/records';
import { shareKeyQuery } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}', {
  GET: endpoint({
    summary: "A plot's detail record",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => json(await getPlot(db, viewer, fidParam(params.fid), origin, query.share_key)),
  }),
  PUT: updateEndpoint('plot'),
  PATCH: updateEndpoint('plot'),
});
