import { authenticate } from '@/lib/auth';
import { folderDetail } from '@/lib/file-detail';
import { json, publicOrigin, routes } from '@/lib/http';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  GET: async ({ req, url, db, params }) => {
    const viewer = await authenticate(db, req);
    return json(await folderDetail(db, viewer, params.fid, url.searchParams.get('user'), publicOrigin(req)));
  },
});
