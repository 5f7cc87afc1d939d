import { z } from 'zod';
import { endpoint, routes } from '@/lib/http/routes';
import { jsonStream, notModified } from '@/lib/http/responses';
import { getPlotContent } from '@/lib/core/plot-content';
import { fidParam, shareKeyQuery } from '@/lib/core/records';

const contentQuery = z.object({
  inline_data: z
    .enum(['true', 'false', 'True', 'False', '1', '0'], { message: "inline_data must be 'true' or 'false'" })
    .optional()
    .meta({ description: '`true`: each `{attr}src` replaced by `{attr}` holding the column values it names (where readable)' }),
  map_data: z
    .enum(['unreadable'], { message: "map_data must be 'unreadable'" })
    .optional()
    .meta({ description: '`unreadable`: adds `map_data`, the values of each src whose grid the caller cannot read' }),
  share_key: shareKeyQuery.shape.share_key,
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}/content', {
  GET: endpoint({
    summary: "A plot's figure, by reference or with its column data inlined",
    query: contentQuery,
    responses: { 304: 'not modified (If-None-Match)' },
    handler: async ({ req, db, viewer, params, query }) => {
      const content = await getPlotContent(db, viewer, fidParam(params.fid), {
        inlineData: ['true', 'True', '1'].includes(query.inline_data ?? ''),
        mapUnreadable: query.map_data === 'unreadable',
        shareKey: query.share_key,
      });
      // The answer depends on who asks (readable grids), so caches must revalidate it per caller.
      const headers = { ETag: content.etag, 'Cache-Control': 'private, no-cache', Vary: 'Accept, Authorization, Cookie' };
      if (notModified(req, content.etag)) return new Response(null, { status: 304, headers });
      const res = jsonStream(content.parts(), { headers });
      res.headers.set('Vary', headers.Vary);
      return res;
    },
  }),
});
