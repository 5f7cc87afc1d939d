import { authenticate } from '@/lib/auth';
import { json, routes } from '@/lib/http';
import { trashFile } from '@/lib/files';
import { fidParam } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  POST: async ({ req, db, params }) => {
    const fid = fidParam(params.fid);
    await trashFile(db, await authenticate(db, req), fid, 'plot');
    return json({});
  },
});
