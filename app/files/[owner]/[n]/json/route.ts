import { getPlotContent } from '@/lib/core/plots/plot-content';
import { fidParam } from '@/lib/core/records';
import { shareKeyQuery } from '@/lib/http/request/queries';
import { contentResponse } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

// `/~owner/n.json`: the figure with its data, as the plot page's download offers it; the API's
// content answer (same caller rules, errors and headers) with inline_data=true&map_data=unreadable.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/~{owner}/{n}.json', {
  GET: endpoint({
    summary: 'A plot with its data inlined, for download',
    query: shareKeyQuery,
    handler: async ({ req, db, viewer, params, query }) =>
      contentResponse(
        req,
        await getPlotContent(db, viewer, fidParam(`${params.owner}:${params.n}`), { inlineData: true, mapUnreadable: true, shareKey: query.share_key }),
      ),
  }),
});
