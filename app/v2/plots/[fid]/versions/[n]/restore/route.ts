import { restorePlotVersion } from '@/lib/core/plots/plot-versions';
import { fidParam } from '@/lib/core/records';
import { versionParam } from '@/lib/core/files/versions';
import { clientOf } from '@/lib/http/request/client';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}/versions/{n}/restore', {
  POST: endpoint({
    summary: "Make a version's figure and title current again, as a new version (restoring the current one changes nothing)",
    auth: 'required',
    responses: { 200: "the plot's detail record (as GET /v2/plots/{fid})", 404: 'No plot the caller may write at that fid, or no such version kept.' },
    handler: async ({ req, db, viewer, params, origin }) =>
      json(await restorePlotVersion(db, viewer, fidParam(params.fid), versionParam(params.n), clientOf(req.headers), origin)),
  }),
});
