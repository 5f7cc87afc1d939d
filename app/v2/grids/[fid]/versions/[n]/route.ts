import { getGridVersion } from '@/lib/core/grids/grid-versions';
import { fidParam } from '@/lib/core/records';
import { versionParam } from '@/lib/core/files/versions';
import { jsonStream } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/versions/{n}', {
  GET: endpoint({
    summary: 'One version of a grid: its writers only',
    responses: {
      200: 'the version: {"version", "date_modified", "author", "client", "cols": [{"name", "uid", "order", "data"}]}',
      404: 'No grid the caller may write at that fid, or no such version kept.',
    },
    handler: async ({ db, viewer, params }) => jsonStream(await getGridVersion(db, viewer, fidParam(params.fid), versionParam(params.n))),
  }),
});
