import { updateEndpoint } from '@/lib/file-actions';
import { fileDetail } from '@/lib/file-detail';
import { getFile } from '@/lib/files';
import { endpoint, json, routes } from '@/lib/http';
import { assertReadable } from '@/lib/permissions';
import { fidParam, shareKeyQuery } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/{fid}', {
  GET: endpoint({
    summary: "Any file's record (a plot's detail, a grid's or a folder's)",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => {
      const file = assertReadable(await getFile(db, fidParam(params.fid)), viewer, query.share_key);
      return json(await fileDetail(db, viewer, file, origin, { shareKey: query.share_key, cols: false }));
    },
  }),
  PUT: updateEndpoint(),
  PATCH: updateEndpoint(),
});
