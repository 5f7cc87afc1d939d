import { z } from 'zod';
import { authenticate } from '@/lib/auth';
import { json, jsonStream, parseWith, queryObject, routes } from '@/lib/http';
import { getPlotContent } from '@/lib/plot-content';
import { fidParam } from '@/lib/records';

const contentQuery = z.object({
  inline_data: z.enum(['true', 'false', 'True', 'False', '1', '0'], { message: "inline_data must be 'true' or 'false'" }).optional(),
  map_data: z.enum(['unreadable'], { message: "map_data must be 'unreadable'" }).optional(),
  share_key: z.string().max(200).optional(),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  GET: async ({ req, url, db, params }) => {
    const fid = fidParam(params.fid);
    const query = parseWith(contentQuery, queryObject(url));
    const viewer = await authenticate(db, req);
    const content = await getPlotContent(db, viewer, fid, {
      inlineData: ['true', 'True', '1'].includes(query.inline_data ?? ''),
      mapUnreadable: query.map_data === 'unreadable',
      shareKey: query.share_key,
    });
    // The answer depends on who asks (readable grids), so caches must revalidate it per caller.
    const headers = { ETag: content.etag, 'Cache-Control': 'private, no-cache', Vary: 'Accept, Authorization, Cookie' };
    if (req.headers.get('if-none-match')?.split(/\s*,\s*/).includes(content.etag)) {
      return new Response(null, { status: 304, headers });
    }
    const res = jsonStream(content.parts(), { headers });
    res.headers.set('Vary', headers.Vary);
    return res;
  },
});
