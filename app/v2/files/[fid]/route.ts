import { updateEndpoint } from '@/lib/http/file-actions';
import { fileDetail } from '@/lib/core/workspace/file-detail';
import { getFile } from '@/lib/core/files/files';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { assertReadable } from '@/lib/core/permissions';
import { fidParam } from '@/lib/core/records';
import { shareKeyQuery } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/{fid}', {
  GET: endpoint({
    summary: "Any file's record (a plot's detail, a grid's or a folder's)",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => {
      const file = assertReadable(await getFile(db, fidParam(params.fid), viewer), viewer, query.share_key);
      return json(await fileDetail(db, viewer, file, origin, { shareKey: query.share_key, cols: false }));
    },
  }),
  PUT: updateEndpoint(),
  PATCH: updateEndpoint(),
});
