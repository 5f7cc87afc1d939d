import { endpoint, routes } from '@/lib/http/routes';
import { contentResponse } from '@/lib/http/responses';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { fidParam } from '@/lib/core/records';
import { contentQuerySchema } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}/content', {
  GET: endpoint({
    summary: "A plot's figure, by reference or with its column data inlined",
    query: contentQuerySchema,
    responses: { 304: 'not modified (If-None-Match)' },
    handler: async ({ req, db, viewer, params, query }) => {
      const content = await getPlotContent(db, viewer, fidParam(params.fid), {
        inlineData: ['true', 'True', '1'].includes(query.inline_data ?? ''),
        mapUnreadable: query.map_data === 'unreadable',
        shareKey: query.share_key,
      });
      return contentResponse(req, content);
    },
  }),
});
