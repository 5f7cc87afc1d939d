// Every API route module (app/v2/**/route.ts but the catch-all), for the OpenAPI document and the
// docs page. Add a new route file here: tests/http/openapi.test.ts walks app/v2 and fails on one
// that is missing. Imported lazily, so the docs page loads no handler it does not call. The
// document's own route is declared here (app/v2/openapi.json/route.ts re-exports it): a route module
// that imported this list would import itself. (It lives in app/, not lib/: lib never imports routes.)
import { buildOpenApi, withServer, type OpenApiDocument } from '@/lib/http/openapi';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

const routeModules = () => [
  import('@/app/v2/route'),
  import('@/app/v2/files/route'),
  import('@/app/v2/files/lookup/route'),
  import('@/app/v2/files/[fid]/route'),
  import('@/app/v2/files/[fid]/trash/route'),
  import('@/app/v2/files/[fid]/restore/route'),
  import('@/app/v2/files/[fid]/permanent_delete/route'),
  import('@/app/v2/folders/route'),
  import('@/app/v2/folders/lookup/route'),
  import('@/app/v2/folders/[fid]/route'),
  import('@/app/v2/folders/[fid]/trash/route'),
  import('@/app/v2/folders/[fid]/restore/route'),
  import('@/app/v2/folders/[fid]/permanent_delete/route'),
  import('@/app/v2/grids/route'),
  import('@/app/v2/grids/lookup/route'),
  import('@/app/v2/grids/[fid]/route'),
  import('@/app/v2/grids/[fid]/content/route'),
  import('@/app/v2/grids/[fid]/col/route'),
  import('@/app/v2/grids/[fid]/row/route'),
  import('@/app/v2/grids/[fid]/trash/route'),
  import('@/app/v2/grids/[fid]/restore/route'),
  import('@/app/v2/grids/[fid]/permanent_delete/route'),
  import('@/app/v2/images/route'),
  import('@/app/v2/plots/route'),
  import('@/app/v2/plots/lookup/route'),
  import('@/app/v2/plots/feed/route'),
  import('@/app/v2/plots/[fid]/route'),
  import('@/app/v2/plots/[fid]/content/route'),
  import('@/app/v2/plots/[fid]/trash/route'),
  import('@/app/v2/plots/[fid]/restore/route'),
  import('@/app/v2/plots/[fid]/permanent_delete/route'),
  import('@/app/v2/search/route'),
  import('@/app/v2/users/route'),
  import('@/app/v2/users/current/route'),
  import('@/app/v2/users/current/api_key/route'),
];

let built: Promise<OpenApiDocument> | undefined;

/** The API's OpenAPI document as seen from `origin` (built on first use, then kept). */
export async function apiDocument(origin: string): Promise<OpenApiDocument> {
  built ??= Promise.all(routeModules()).then((modules) => buildOpenApi([modules[0].OPTIONS, openApiRoute.OPTIONS, ...modules.slice(1).map((m) => m.OPTIONS)]));
  return withServer(await built, origin);
}

/** GET /v2/openapi.json */
export const openApiRoute = routes('/v2/openapi.json', {
  GET: endpoint({
    summary: 'This description of the API (OpenAPI 3.1), generated from the schemas the handlers validate with',
    handler: async ({ origin }) => json(await apiDocument(origin)),
  }),
});
