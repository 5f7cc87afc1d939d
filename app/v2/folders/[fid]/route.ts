import { folderQuerySchema } from '@/lib/http/request/queries';
import { updateEndpoint } from '@/lib/http/file-actions';
import { folderDetail } from '@/lib/core/workspace/file-detail';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/folders/{fid}', {
  GET: endpoint({
    summary: 'A folder with the children the caller may see (`home?user=U`: the top level)',
    query: folderQuerySchema,
    handler: async ({ db, viewer, params, query, origin }) => json(await folderDetail(db, viewer, params.fid, query.user ?? null, origin)),
  }),
  PUT: updateEndpoint('fold'),
  PATCH: updateEndpoint('fold'),
});
