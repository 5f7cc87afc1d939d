import { authenticate } from '@/lib/auth';
import { json, MiB, publicOrigin, readJson, routes } from '@/lib/http';
import { getPlot, updatePlot } from '@/lib/plots';
import { fidParam } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes<{ fid: string }>({
  GET: async ({ req, url, db, params }) => {
    const fid = fidParam(params.fid);
    const viewer = await authenticate(db, req);
    return json(await getPlot(db, viewer, fid, publicOrigin(req), url.searchParams.get('share_key')));
  },
  PUT: async ({ req, db, params }) => {
    const fid = fidParam(params.fid);
    const viewer = await authenticate(db, req);
    const body = await readJson(req, 10 * MiB);
    return json(await updatePlot(db, viewer, fid, body, publicOrigin(req)));
  },
});
