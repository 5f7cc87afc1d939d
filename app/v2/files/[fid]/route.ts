import { authenticate } from '@/lib/auth';
import { fileDetail } from '@/lib/file-detail';
import { getFile } from '@/lib/files';
import { json, publicOrigin, routes } from '@/lib/http';
import { assertReadable } from '@/lib/permissions';
import { fidParam } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  GET: async ({ req, url, db, params }) => {
    const fid = fidParam(params.fid);
    const viewer = await authenticate(db, req);
    const file = assertReadable(await getFile(db, fid), viewer, url.searchParams.get('share_key'));
    return json(await fileDetail(db, viewer, file, publicOrigin(req), url.searchParams.get('share_key')));
  },
});
