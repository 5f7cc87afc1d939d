import { apiDocument } from '@/lib/http/openapi-document';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/openapi.json', {
  GET: endpoint({
    summary: 'This description of the API (OpenAPI 3.1), generated from the schemas the handlers validate with',
    handler: async ({ origin }) => json(apiDocument(origin)),
  }),
});
