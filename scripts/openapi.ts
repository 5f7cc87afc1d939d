// npm run openapi — writes lib/http/openapi.json, the API's OpenAPI document, from what every route
// file under app/v2 declares with routes() (lib/http/openapi.ts turns declarations into the document).
// The route /v2/openapi.json and the page /docs/api read that file, so neither loads the routes to
// have it; tests/unit/openapi-document.test.ts fails while it is stale.
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOpenApi } from '@/lib/http/openapi';

export const DOCUMENT_FILE = 'lib/http/openapi.json';

/** Every route file under app/v2 but the catch-all (which answers 404 to every path it gets). */
export function apiRouteFiles(root = path.resolve('app/v2')): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === 'route.ts' && !f.includes('[...'))
    .sort()
    .map((f) => path.join(root, f));
}

/** The document's text as the routes declare it now (servers left empty: each answer fills in its origin). */
export async function openApiText(): Promise<string> {
  const modules = await Promise.all(apiRouteFiles().map((f) => import(pathToFileURL(f).href) as Promise<{ OPTIONS: unknown }>));
  return `${JSON.stringify(buildOpenApi(modules.map((m) => m.OPTIONS)), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(DOCUMENT_FILE, await openApiText());
  console.log(`Wrote ${DOCUMENT_FILE}.`);
}
