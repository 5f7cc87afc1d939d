import { listGridVersions } from '@/lib/core/grids/grid-versions';
import { fidParam } from '@/lib/core/records';
import { versionsPageText } from '@/lib/core/files/versions';
import { feedQuerySchema } from '@/lib/http/request/queries';
import { json, pageLinks } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/versions', {
  GET: endpoint({
    summary: "A grid's versions (every save of its columns), newest first, keyset-paged: its writers only",
    description: 'The current version is the highest `version`. How many earlier versions are kept, and which go first: docs/limits.md.',
    query: feedQuerySchema,
    responses: { 200: '{"next", "previous", "results": [{"version", "date_modified", "author", "client"}]}', 404: 'No grid the caller may write at that fid.' },
    handler: async ({ db, viewer, params, query, origin, url }) =>
      json(versionsPageText(await listGridVersions(db, viewer, fidParam(params.fid), query), pageLinks(origin, url))),
  }),
});
