import { authenticate } from '@/lib/auth';
import { deleteFile } from '@/lib/files';
import { getGrid } from '@/lib/grids';
import { json, publicOrigin, routes } from '@/lib/http';
import { fidParam } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  GET: async ({ req, url, db, params }) => {
    const fid = fidParam(params.fid);
    const viewer = await authenticate(db, req);
    return json(await getGrid(db, viewer, fid, publicOrigin(req), url.searchParams.get('share_key')));
  },
  DELETE: async ({ req, db, params }) => {
    const fid = fidParam(params.fid);
    await deleteFile(db, await authenticate(db, req), fid, 'grid');
    return new Response(null, { status: 204 });
  },
});
