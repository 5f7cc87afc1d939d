import { gridContent } from '@/lib/core/grids/grids';
import { endpoint, routes } from '@/lib/http/routes';
import { jsonStream } from '@/lib/http/responses';
import { fidParam } from '@/lib/core/records';
import { shareKeyQuery } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/content', {
  GET: endpoint({
    summary: "A grid's columns with their data",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query }) => jsonStream(await gridContent(db, viewer, fidParam(params.fid), query.share_key)),
  }),
});
