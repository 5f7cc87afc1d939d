import { getPlotContent } from '@/lib/core/plots/plot-content';
import { fidParam } from '@/lib/core/records';
import { versionParam } from '@/lib/core/files/versions';
import { contentQuerySchema } from '@/lib/http/request/queries';
import { contentResponse } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}/versions/{n}/content', {
  GET: endpoint({
    summary: "One version's figure as GET /v2/plots/{fid}/content gives the current one (by reference or with its column data as it is now): its writers only",
    query: contentQuerySchema.omit({ share_key: true }),
    responses: { 304: 'not modified (If-None-Match)', 404: 'No plot the caller may write at that fid, or no such version kept.' },
    handler: async ({ req, db, viewer, params, query }) => {
      const content = await getPlotContent(db, viewer, fidParam(params.fid), {
        inlineData: ['true', 'True', '1'].includes(query.inline_data ?? ''),
        mapUnreadable: query.map_data === 'unreadable',
        version: versionParam(params.n),
      });
      return contentResponse(req, content);
    },
  }),
});
