// Every API route module (app/v2/**/route.ts but the catch-all), for the OpenAPI document and the
// docs page. Add a new route file here: tests/http/openapi.test.ts walks app/v2 and fails on one
// that is missing. Imported lazily: the document's own route is one of them. (It lives in app/, not
// lib/: lib never imports the routes.)
import { buildOpenApi, withServer, type OpenApiDocument } from '@/lib/http/openapi';

const routeModules = () => [
  import('@/app/v2/route'),
  import('@/app/v2/openapi.json/route'),
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
  import('@/app/v2/users/route'),
  import('@/app/v2/users/current/route'),
  import('@/app/v2/users/current/api_key/route'),
];

let built: Promise<OpenApiDocument> | undefined;

/** The API's OpenAPI document as seen from `origin` (built on first use, then kept). */
export async function apiDocument(origin: string): Promise<OpenApiDocument> {
  built ??= Promise.all(routeModules()).then((modules) => buildOpenApi(modules.map((m) => m.OPTIONS)));
  return withServer(await built, origin);
}
