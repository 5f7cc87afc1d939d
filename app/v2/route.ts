import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { apiRoot } from '@/lib/http/openapi';

// `/v2`, `/v2/` and (by Next's 308 for repeated slashes) `/v2//`, R's `api()` default, all land here.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/', {
  GET: endpoint({
    summary: 'The API root: the URL of each section and of this description',
    responses: { 200: '{"dashboards", "files", "folders", "grids", "images", "plots", "spectacle-presentations", "users", "openapi"}: absolute URLs' },
    handler: async ({ origin }) => json(apiRoot(origin)),
  }),
});
