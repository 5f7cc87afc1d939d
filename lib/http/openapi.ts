// The OpenAPI 3.1 document of the API, generated from the routes' own declarations (`routes()` in
// lib/http/routes.ts): each endpoint's zod query and body schemas (input side), its auth, its body limit and
// its responses. Nothing is written here per path, so the document follows what the handlers validate.
import 'server-only';
import { z } from 'zod';
import { ERROR_CODES } from '@/lib/core/errors';
import { API_ROUTE, WRITES, type AnyEndpoint, type ApiRoute, type Method } from './routes';
import { MiB } from '@/lib/core/json-text';

export type JsonSchema = { [key: string]: unknown };

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required: true; description: string; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, ResponseObject>;
}

export type OperationMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Partial<Record<OperationMethod, Operation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

/** The contract's error body: every 4xx and 5xx answer holds it (lib/core/errors.ts makes it). */
export const errorBodySchema = z
  .object({
    errors: z
      .array(
        z.object({
          code: z.enum(ERROR_CODES),
          message: z.string().meta({ description: 'names the field or JSON path at fault, e.g. `figure: This field is required.`' }),
          path: z.string().nullable().meta({ description: 'the JSON path inside `field` at fault (`figure.data[0].y`), else null' }),
          field: z.string().nullable().meta({ description: 'the top-level field at fault, else null' }),
        }),
      )
      .min(1),
    detail: z.string().meta({ description: 'the messages, one per line' }),
  })
  .meta({ description: 'The error body of every failed request' });

/** The API root's sections, each `{origin}/v2/{key}`. */
export const API_SECTIONS = ['dashboards', 'files', 'folders', 'grids', 'images', 'plots', 'spectacle-presentations', 'users'] as const;

/** GET /v2/: where each section and the API's description live. */
export function apiRoot(origin: string): Record<(typeof API_SECTIONS)[number] | 'openapi', string> {
  const sections = Object.fromEntries(API_SECTIONS.map((key) => [key, `${origin}/v2/${key}`]));
  return { ...sections, openapi: `${origin}/v2/openapi.json` } as Record<(typeof API_SECTIONS)[number] | 'openapi', string>;
}

/** Groups of operations, in the order the docs page shows them; `root` holds paths outside a section. */
const TAGS: Record<string, string> = {
  root: 'The API root and this description of the API.',
  plots: 'Plotly figures whose data are references (`xsrc`) to grid columns; the public list and the feed.',
  grids: 'Tables of named columns: the data plots reference.',
  files: 'Any file (plot, grid, folder, dashboard or presentation) by its fid or its path; trash, restore and delete.',
  folders: "Folders holding an owner's files.",
  dashboards: "Dashboards: plots (and text) laid out in boxes, their content a client's JSON text (Python's `dashboard_ops`).",
  'spectacle-presentations': "Slide decks of text, images, code and live plots, their content a client's JSON text (Python's `presentation_ops`).",
  images: 'Figures drawn as images (nothing is stored).',
  users: 'The authenticated user and their API key.',
};

const PATH_PARAMETERS: Record<string, string> = {
  fid: 'A file id, `{owner}:{n}` (for example `alice:2`).',
};

const SECURITY_SCHEMES = {
  basicAuth: { type: 'http', scheme: 'basic', description: 'HTTP Basic with `username:api_key`.' },
  plotlyAuthorization: {
    type: 'apiKey',
    in: 'header',
    name: 'Plotly-Authorization',
    description: "The same `Basic base64(username:api_key)` value in this header (the clients' proxy mode).",
  },
};
const AUTHENTICATED: Record<string, string[]>[] = [{ basicAuth: [] }, { plotlyAuthorization: [] }];

const DESCRIPTION = `The Chart Studio v2 API of Plot Files: the official \`chart_studio\` (Python) and \`plotly\` (R) clients work against it unchanged.

- **Authentication**: HTTP Basic \`username:api_key\`, or the same value in \`Plotly-Authorization\`. Without credentials the caller is anonymous; wrong credentials answer 401 \`Bad API key\` on any request.
- **Permissions**: a file another caller may not read answers exactly the 404 of a missing one. A \`share_key\` query parameter grants read on one secret file.
- **URLs** in answers are absolute, built from the public origin.
- **Errors** are JSON with the \`Error\` body; a client's mistake is always a 4xx. A path not listed here answers 404 \`NOT_FOUND\` to every method.
- **Methods**: every path answers \`OPTIONS\` with 200 and \`Allow\`, and \`HEAD\` where it answers \`GET\`; a method it does not list answers 405 with \`Allow\`. A trailing \`/\` on a path is accepted.
- **Rate limits**: writes (\`POST\`, \`PUT\`, \`PATCH\`, \`DELETE\`) count per user and per address; past a limit the answer is 429 with \`Retry-After\` and \`RateLimit-*\` headers.`;

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const RETRY_AFTER = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } };

/** The error answers an endpoint can give, from what it declares (schemas, auth, path, method). */
function errorResponses(path: string, method: Method, e: AnyEndpoint): Record<number, ResponseObject> {
  const out: Record<number, ResponseObject> = {};
  const add = (status: number, description: string, headers?: ResponseObject['headers']) =>
    (out[status] = { description, ...(headers ? { headers } : {}), content: ERROR_CONTENT });
  if (e.body) add(400, 'Bad input: malformed JSON, or a field at fault (named in `field` and the message).');
  else if (e.query) add(400, 'A query parameter at fault (named in `field` and the message).');
  add(
    401,
    e.auth === 'required'
      ? 'No credentials (`Authentication credentials were not provided.`) or wrong ones (`Bad API key`).'
      : 'Wrong credentials (`Bad API key`). Without any, the caller is anonymous.',
  );
  if (e.auth === 'required' && path.includes('{fid}')) add(403, 'The caller may read the file but is not its owner.');
  if (path.includes('{')) add(404, 'No such file, or one the caller may not read (the same answer).');
  if (e.body) {
    add(413, `The body is over ${(e.bodyLimit ?? MiB) / MiB} MiB, or a file's change would take its owner's files past their storage (STORAGE_PER_PERSON_MB).`);
    add(415, 'The body is not JSON.');
  }
  if (WRITES.has(method)) {
    const integer = (description: string) => ({ description, schema: { type: 'integer' } });
    add(429, 'Too many writes: wait `Retry-After` seconds.', {
      'Retry-After': RETRY_AFTER,
      'RateLimit-Limit': integer('Writes allowed in the window.'),
      'RateLimit-Remaining': integer('Writes left in the window.'),
      'RateLimit-Reset': integer('Seconds until the window resets.'),
    });
  }
  add(503, 'The database is unavailable: retry after `Retry-After` seconds.', { 'Retry-After': RETRY_AFTER });
  return out;
}

function responses(path: string, method: Method, e: AnyEndpoint): Record<string, ResponseObject> {
  const out: Record<number, ResponseObject> = errorResponses(path, method, e);
  const declared = Object.entries(e.responses ?? {}).map(([status, description]) => [Number(status), description] as const);
  if (!declared.some(([status]) => status < 300)) out[200] = { description: 'OK' };
  for (const [status, description] of declared) {
    out[status] = status >= 400 ? { ...out[status], description, content: ERROR_CONTENT } : { description };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

/** A zod schema as JSON Schema (what a client sends: transforms and refinements have no output side
 * here), shared definitions moved into the document's components. */
function jsonSchema(schema: z.ZodType, components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _, $defs, ...rest } = converted;
  if (!$defs) return rest;
  for (const [name, def] of Object.entries($defs as Record<string, JsonSchema>)) {
    if (components[name] && JSON.stringify(components[name]) !== JSON.stringify(def)) throw new Error(`two schemas named ${name}`);
    components[name] = def;
  }
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

function queryParameters(schema: JsonSchema, where: string): Parameter[] {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== 'object' || !properties) throw new Error(`${where}: a query schema must be a z.object`);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, { description, ...rest }]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof description === 'string' ? { description } : {}),
    schema: rest,
  }));
}

const words = (path: string) =>
  path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));

/** A path's group: its section (`/v2/plots/...` -> `plots`), or `root` outside one. */
const tagOf = (path: string) => {
  const section = path.split('/')[2] ?? '';
  return /^[a-z_-]+$/.test(section) ? section : 'root';
};

function operation(path: string, method: Method, e: AnyEndpoint, components: Record<string, JsonSchema>): Operation {
  const operationId = method.toLowerCase() + words(path).join('');
  const parameters: Parameter[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    ...(PATH_PARAMETERS[name] ? { description: PATH_PARAMETERS[name] } : {}),
    schema: { type: 'string' },
  }));
  if (e.query) parameters.push(...queryParameters(jsonSchema(e.query, components), `${method} ${path}`));
  return {
    operationId,
    tags: [tagOf(path)],
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    security: e.auth === 'required' ? AUTHENTICATED : [{}, ...AUTHENTICATED],
    ...(parameters.length ? { parameters } : {}),
    ...(e.body
      ? {
          requestBody: {
            required: true,
            description: `JSON, at most ${(e.bodyLimit ?? MiB) / MiB} MiB.`,
            content: { 'application/json': { schema: jsonSchema(e.body, components) } },
          },
        }
      : {}),
    responses: responses(path, method, e),
  };
}

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The path a route module declared, from its OPTIONS handler (`routes()` puts it there). */
export function declaredRoute(options: unknown): ApiRoute {
  const route = (options as { [API_ROUTE]?: ApiRoute } | undefined)?.[API_ROUTE];
  if (!route) throw new Error('a route module not declared with routes() (lib/http/routes.ts)');
  return route;
}

/**
 * The document for the routes whose OPTIONS handlers are given. `servers` is left empty: the public
 * origin is the request's (openapi-document.ts), the rest is made once (`npm run openapi`).
 */
export function buildOpenApi(optionsHandlers: unknown[]): OpenApiDocument {
  const components: Record<string, JsonSchema> = {};
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  const routes = optionsHandlers.map(declaredRoute).sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const { path, endpoints } of routes) {
    if (paths[path]) throw new Error(`${path} is declared twice`);
    const item: OpenApiDocument['paths'][string] = {};
    for (const method of METHODS) {
      const e = endpoints[method];
      if (!e) continue;
      const op = operation(path, method, e, components);
      if (operationIds.has(op.operationId)) throw new Error(`operationId ${op.operationId} is used twice`);
      operationIds.add(op.operationId);
      item[method.toLowerCase() as OperationMethod] = op;
    }
    // A section's root with no operation of its own (its sub-paths have them) still answers OPTIONS.
    if (!Object.keys(item).length) {
      item.options = {
        operationId: `options${words(path).join('')}`,
        tags: [tagOf(path)],
        summary: 'The methods this path allows, in `Allow` (the operations are on its sub-paths)',
        security: [{}],
        responses: { 200: { description: 'OK', headers: { Allow: { description: 'The allowed methods.', schema: { type: 'string' } } } } },
      };
    }
    paths[path] = item;
  }
  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags)));
  const tags = [...Object.keys(TAGS), ...[...used].filter((t) => !(t in TAGS)).sort()]
    .filter((name) => used.has(name))
    .map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) }));
  const error = jsonSchema(errorBodySchema, components);
  return {
    openapi: '3.1.0',
    info: { title: 'Plot Files API', version: 'v2', description: DESCRIPTION },
    servers: [],
    tags,
    paths,
    components: {
      schemas: { ...components, Error: error },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
