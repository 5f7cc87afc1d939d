import { authenticate } from '@/lib/auth';
import { routes } from '@/lib/http';
import { deleteFile } from '@/lib/files';
import { fidParam } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  DELETE: async ({ req, db, params }) => {
    const fid = fidParam(params.fid);
    await deleteFile(db, await authenticate(db, req), fid);
    return new Response(null, { status: 204 });
  },
});
