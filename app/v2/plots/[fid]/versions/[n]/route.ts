import { getPlotVersion } from '@/lib/core/plots/plot-versions';
import { fidParam } from '@/lib/core/records';
import { versionParam } from '@/lib/core/files/versions';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}/versions/{n}', {
  GET: endpoint({
    summary: 'One version of a plot: its writers only',
    responses: {
      200: 'the version: {"version", "date_modified", "author", "client", "title", "figure"} (srcs as stored)',
      404: 'No plot the caller may write at that fid, or no such version kept.',
    },
    handler: async ({ db, viewer, params }) => json(await getPlotVersion(db, viewer, fidParam(params.fid), versionParam(params.n))),
  }),
});
