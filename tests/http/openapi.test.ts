// The API root and the OpenAPI document (docs/api.md "The API root and the OpenAPI document"): the document is valid OpenAPI 3.1 and
// holds every route file under app/v2 with every method it declares (lib/http/openapi.json, made by
// `npm run openapi`), generated from the endpoints' own zod schemas; unknown paths
// answer the JSON 404 to every method; the docs page shows every operation.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '@/lib/http/routes';
import { API_SECTIONS, declaredRoute, errorBodySchema, type OpenApiDocument, type ResponseObject } from '@/lib/http/openapi';
import { baseUrl, call, expectError, newUser, type Answer } from '../support/api';

const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface RouteFile {
  file: string;
  /** The path its location names: app/v2/plots/[fid]/route.ts -> /v2/plots/{fid}. */
  path: string;
  module: Record<string, unknown>;
  route: ApiRoute;
}

/** Every route file under app/v2 but the catch-all, imported. */
async function routeFiles(): Promise<RouteFile[]> {
  const root = path.resolve('app/v2');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => path.basename(f) === 'route.ts' && !f.includes('[...')).sort();
  return Promise.all(
    files.map(async (f) => {
      const dir = path.dirname(f) === '.' ? '' : `/${path.dirname(f).split(path.sep).join('/')}`;
      const module = (await import(path.join(root, f))) as Record<string, unknown>;
      return { file: `app/v2/${f}`, path: `/v2${dir.replace(/\[(\w+)\]/g, '{$1}')}`, module, route: declaredRoute(module.OPTIONS) };
    }),
  );
}

const withoutSlash = (p: string) => p.replace(/(.)\/$/, '$1');

describe('the OpenAPI document', () => {
  let routes: RouteFile[];
  let doc: OpenApiDocument;
  let res: Answer<OpenApiDocument>;

  beforeAll(async () => {
    routes = await routeFiles();
    res = await call<OpenApiDocument>('GET', '/v2/openapi.json');
    doc = res.json;
  });

  it('is served to anonymous callers as JSON, with this origin as its server', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: baseUrl() }]);
  });

  it('is valid OpenAPI 3.1, and every $ref in it resolves', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('every route file is declared with routes() at its own path, exports every verb, and is in the document', () => {
    expect(routes.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const { file, path: expected, module, route } of routes) {
      expect(withoutSlash(route.path), `${file} declares its own path`).toBe(expected);
      // Next answers a verb a route file does not export by itself (no JSON body): export them all.
      expect(
        VERBS.filter((v) => typeof module[v] !== 'function'),
        `${file} exports every verb`,
      ).toEqual([]);
      const item = doc.paths[route.path];
      if (!item) {
        missing.push(`${route.path} (${file}: run npm run openapi)`);
        continue;
      }
      for (const method of Object.keys(route.endpoints)) {
        if (!item[method.toLowerCase() as keyof typeof item]) missing.push(`${method} ${route.path}`);
      }
      if (!Object.keys(route.endpoints).length) expect(item.options, `${route.path}: OPTIONS, its one method`).toBeDefined();
    }
    expect(missing, 'paths and methods missing from /v2/openapi.json').toEqual([]);
    // ...and nothing else: no path the app does not route.
    expect(Object.keys(doc.paths).sort()).toEqual(routes.map((r) => r.route.path).sort());
  });

  it('each operation comes from its endpoint: zod query and body schemas, auth, errors', () => {
    const ids = new Set<string>();
    for (const { route } of routes) {
      for (const [method, e] of Object.entries(route.endpoints)) {
        const op = doc.paths[route.path][method.toLowerCase() as 'get']!;
        const what = `${method} ${route.path}`;
        expect(op.summary, what).toBe(e.summary);
        expect(ids.has(op.operationId), `${what}: operationId ${op.operationId} is unique`).toBe(false);
        ids.add(op.operationId);
        expect(op.tags.length, what).toBe(1);

        const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const params = op.parameters ?? [];
        expect(
          params.filter((p) => p.in === 'path').map((p) => p.name),
          what,
        ).toEqual(pathParams);
        expect(
          params.filter((p) => p.in === 'path').every((p) => p.required),
          what,
        ).toBe(true);
        const queryNames = e.query ? Object.keys((e.query as z.ZodObject).shape) : [];
        expect(
          params.filter((p) => p.in === 'query').map((p) => p.name),
          what,
        ).toEqual(queryNames);
        for (const p of params.filter((p) => p.in === 'query')) {
          // What the wrapper validates with, input side (an integer parameter arrives as text).
          const field = (e.query as z.ZodObject).shape[p.name] as z.ZodType;
          expect(p.required, `${what} ?${p.name}`).toBe(!field.safeParse(undefined).success);
          const { description: _, $schema: __, ...expected } = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
          expect(p.schema, `${what} ?${p.name}`).toEqual(expected);
        }

        if (e.body) {
          const schema = op.requestBody!.content['application/json'].schema;
          const { $schema: _, ...expected } = z.toJSONSchema(e.body, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
          expect(schema, what).toEqual(expected);
        } else {
          expect(op.requestBody, what).toBeUndefined();
        }

        const anonymousAllowed = op.security.some((s) => Object.keys(s).length === 0);
        expect(anonymousAllowed, `${what}: auth`).toBe(e.auth !== 'required');
        expect(
          op.security.some((s) => 'basicAuth' in s),
          what,
        ).toBe(true);

        const statuses = Object.keys(op.responses).map(Number);
        const expectedErrors = [
          401,
          503,
          ...(e.query || e.body ? [400] : []),
          ...(route.path.includes('{') ? [404] : []),
          ...(e.body ? [413, 415] : []),
          ...(WRITE_METHODS.has(method) ? [429] : []),
          ...(e.auth === 'required' && route.path.includes('{fid}') ? [403] : []),
        ];
        for (const status of expectedErrors) {
          const r: ResponseObject | undefined = op.responses[status];
          expect(r?.content?.['application/json'].schema, `${what} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        }
        if (statuses.includes(429)) expect(Object.keys(op.responses[429].headers ?? {}), what).toContain('Retry-After');
        expect(Object.keys(op.responses[503].headers ?? {}), what).toEqual(['Retry-After']);
        for (const status of Object.keys(e.responses ?? {})) expect(op.responses[status]?.description, `${what} ${status}`).toBe(e.responses![Number(status)]);
        expect(
          statuses.some((s) => s < 300),
          `${what}: a success answer`,
        ).toBe(true);
      }
    }
  });

  it("declares the error body as the zod schema the service's errors satisfy", async () => {
    const { $schema: _, ...expected } = z.toJSONSchema(errorBodySchema, { io: 'input' }) as Record<string, unknown>;
    expect(doc.components.schemas.Error).toEqual(expected);
    const alice = await newUser('oas');
    const answers = [
      await call('GET', '/v2/nope'),
      await call('GET', '/v2/files'),
      await call('GET', '/v2/plots?page_size=0'),
      await call('GET', '/v2/users/current'),
      await call('GET', '/v2/plots', { headers: { Authorization: 'Basic bm9ib2R5Om5vcGU=' } }),
      await call('POST', '/v2/plots', { user: alice, raw: '{', headers: { 'Content-Type': 'application/json' } }),
      await call('POST', '/v2/plots', { user: alice, raw: '{}', headers: { 'Content-Type': 'text/plain' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 405, 400, 401, 401, 400, 415]);
    for (const a of answers) expect(errorBodySchema.safeParse(a.json).error, a.text).toBeUndefined();
  });
});

describe('the API root', () => {
  let doc: OpenApiDocument;
  beforeAll(async () => {
    doc = (await call<OpenApiDocument>('GET', '/v2/openapi.json')).json;
  });

  const expectedRoot = () => ({
    ...Object.fromEntries(API_SECTIONS.map((k) => [k, `${baseUrl()}/v2/${k}`])),
    openapi: `${baseUrl()}/v2/openapi.json`,
  });

  it.each(['/v2', '/v2/', '/v2//'])('GET %s answers the root (directly or by 308 to /v2/)', async (p) => {
    let res = await call('GET', p);
    if (res.status === 308) {
      expect(new URL(res.headers.get('location')!, baseUrl()).pathname).toBe('/v2/');
      res = await call('GET', '/v2/');
    }
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-security-policy'), 'an API answer, not a page').toBeNull();
    expect(Object.keys(res.json)).toEqual(['dashboards', 'files', 'folders', 'grids', 'images', 'plots', 'spectacle-presentations', 'users', 'openapi']);
    expect(res.json).toEqual(expectedRoot());
  });

  it('each section answers OPTIONS 200 with Allow: the methods the document gives it', async () => {
    for (const key of API_SECTIONS) {
      const res = await call('OPTIONS', `/v2/${key}`);
      expect(res.status, key).toBe(200);
      const item = doc.paths[`/v2/${key}`];
      expect(item, `/v2/${key} in the document`).toBeDefined();
      const methods = Object.keys(item)
        .filter((m) => m !== 'options')
        .map((m) => m.toUpperCase());
      const expected = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
      expect(res.headers.get('allow')?.split(', ').sort(), key).toEqual(expected.sort());
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !methods.includes(m))) {
        const other = await call(m, `/v2/${key}`);
        expectError(other, 405, 'not allowed');
        expect(other.headers.get('allow'), `${m} /v2/${key}`).toBe(res.headers.get('allow'));
      }
    }
  });

  it('answers a method it does not define with 405 and Allow', async () => {
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await call(m, '/v2/');
      expectError(res, 405, m);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('answers a method no path supports (TRACE, PROPFIND) with 405 and the error body, not 500', async () => {
    // fetch refuses to send TRACE: a raw request.
    const raw = (method: string, path: string) =>
      new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
        const req = httpRequest(new URL(path, baseUrl()), { method }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c)).on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
        });
        req.on('error', reject).end();
      });
    for (const [method, path] of [
      ['TRACE', '/v2/plots'],
      ['TRACE', '/'],
      ['PROPFIND', '/v2/'],
    ]) {
      const res = await raw(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(JSON.parse(res.body).errors[0]).toMatchObject({ code: 'METHOD_NOT_ALLOWED', message: `Method "${method}" not allowed.` });
    }
  });
});

describe('unknown paths under /v2', () => {
  const PATHS = [
    '/v2/nope',
    '/v2/nope/',
    '/v2/plots/alice:1/nope',
    '/v2/plots/alice:1/content/more',
    '/v2/%ZZ',
    '/v2/plots/%',
    '/v2/%00',
    '/v2/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p',
    '/v2/openapi.json/x',
    '/v2/users/current/api_key/x',
    '/v2/files/lookup/x',
    '/v2/route',
    '/v2/%5B...path%5D',
    '/v2/_next/static/x.js',
    '/v2/plots%2Ffeed',
    '/v2/~alice',
  ];

  it.each(PATHS)('%s answers every method with the JSON 404', async (p) => {
    for (const method of VERBS) {
      const res = await call(method, p, WRITE_METHODS.has(method) ? { body: {} } : {});
      const what = `${method} ${p}`;
      if (method === 'HEAD') {
        expect(res.status, what).toBe(404);
        expect(res.headers.get('content-type'), what).toBe('application/json');
        continue;
      }
      expectError(res, 404);
      expect(res.json.errors[0].code, what).toBe('NOT_FOUND');
    }
  });
});

describe('the API reference page', () => {
  it('shows every operation of the document, server-rendered, with its method, path and summary', async () => {
    const doc = (await call<OpenApiDocument>('GET', '/v2/openapi.json')).json;
    const res = await call('GET', '/docs/api');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self' 'nonce-");
    expect(res.text).toContain(`href="/v2/openapi.json"`);
    const decode = (s: string) =>
      s
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    let count = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const start = res.text.indexOf(`<article class="api-op" id="${op!.operationId}"`);
        expect(start, `${method} ${p} on the page`).toBeGreaterThan(0);
        const article = decode(res.text.slice(start, res.text.indexOf('</article>', start))).replace(/<wbr\/>|<!-- -->/g, '');
        expect(article, `${method} ${p}`).toContain(`>${method.toUpperCase()}</span>`);
        expect(article, `${method} ${p}`).toContain(`<code>${p}</code>`);
        expect(article.replace(/<[^>]+>/g, ''), `${method} ${p}`).toContain(op!.summary.replace(/`/g, ''));
        for (const param of op!.parameters ?? []) expect(article, `${method} ${p} ?${param.name}`).toContain(`<code>${param.name}</code>`);
        for (const status of Object.keys(op!.responses)) expect(article, `${method} ${p} ${status}`).toContain(`<th scope="row">${status}</th>`);
        count++;
      }
    }
    expect(count).toBeGreaterThan(20);
  });
});
