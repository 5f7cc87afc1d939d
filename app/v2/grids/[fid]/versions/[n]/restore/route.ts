import { restoreGridVersion } from '@/lib/core/grids/grid-versions';
import { fidParam } from '@/lib/core/records';
import { versionParam } from '@/lib/core/files/versions';
import { clientOf } from '@/lib/http/request/client';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/versions/{n}/restore', {
  POST: endpoint({
    summary: "Make a version's columns current again, as a new version (restoring the current one changes nothing)",
    auth: 'required',
    responses: { 200: "the grid's record (as GET /v2/grids/{fid})", 404: 'No grid the caller may write at that fid, or no such version kept.' },
    handler: async ({ req, db, viewer, params, origin }) =>
      json(await restoreGridVersion(db, viewer, fidParam(params.fid), versionParam(params.n), clientOf(req.headers), origin)),
  }),
});
