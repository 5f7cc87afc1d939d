import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { apiDocument } from '@/app/v2/openapi-routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/openapi.json', {
  GET: endpoint({
    summary: 'This description of the API (OpenAPI 3.1), generated from the schemas the handlers validate with',
    handler: async ({ origin }) => json(await apiDocument(origin)),
  }),
});
