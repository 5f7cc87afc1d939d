// The committed OpenAPI document (lib/http/openapi.json, which /v2/openapi.json serves and /docs/api
// shows) is the one the routes' declarations make now: a route, schema or summary changed without
// `npm run openapi` fails here. (tests/http/openapi.test.ts checks the served document against each
// route file.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiRouteFiles, DOCUMENT_FILE, openApiText } from '@/scripts/openapi';

describe('the OpenAPI document file', () => {
  it('is what the route files declare now (npm run openapi rewrites it)', async () => {
    const committed = readFileSync(DOCUMENT_FILE, 'utf8');
    const current = await openApiText();
    expect(JSON.parse(committed), `${DOCUMENT_FILE} is stale: run npm run openapi`).toEqual(JSON.parse(current));
    expect(committed === current, `${DOCUMENT_FILE} is not as npm run openapi writes it`).toBe(true);
  });

  it('is made from every route file under app/v2 but the catch-all', () => {
    const files = apiRouteFiles().map((f) => f.slice(f.indexOf('app/v2/')));
    expect(files).toContain('app/v2/plots/route.ts');
    expect(files).toContain('app/v2/openapi.json/route.ts');
    expect(files.some((f) => f.includes('[...'))).toBe(false);
    const doc = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toHaveLength(files.length);
  });
});
