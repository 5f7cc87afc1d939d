import { authenticate } from '@/lib/auth';
import { gridContent } from '@/lib/grids';
import { jsonStream, routes } from '@/lib/http';
import { fidParam } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  GET: async ({ req, url, db, params }) => {
    const fid = fidParam(params.fid);
    const viewer = await authenticate(db, req);
    return jsonStream(await gridContent(db, viewer, fid, url.searchParams.get('share_key')));
  },
});
