import { gridContent } from '@/lib/grids';
import { endpoint, jsonStream, routes } from '@/lib/http';
import { fidParam, shareKeyQuery } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/content', {
  GET: endpoint({
    summary: "A grid's columns with their data",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query }) => jsonStream(await gridContent(db, viewer, fidParam(params.fid), query.share_key)),
  }),
});
