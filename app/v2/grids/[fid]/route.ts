import { permanentDeleteEndpoint, updateEndpoint } from '@/lib/http/file-actions';
import { getGrid } from '@/lib/core/grids/grids';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { fidParam } from '@/lib/core/records';
import { shareKeyQuery } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}', {
  GET: endpoint({
    summary: "A grid's record",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => json(await getGrid(db, viewer, fidParam(params.fid), origin, query.share_key)),
  }),
  PUT: updateEndpoint('grid'),
  PATCH: updateEndpoint('grid'),
  DELETE: { ...permanentDeleteEndpoint('grid'), summary: 'Delete a grid for good' },
});
