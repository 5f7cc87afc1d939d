// The one wrapper every API route goes through: it hands the handler a database and parsed params,
// and turns every error into the contract's error body. Nothing else catches.
import 'server-only';
import type { z } from 'zod';
import { getDb, type Db } from '@/db/client';
import { authenticate, type Viewer } from '@/lib/core/accounts/auth';
import { ApiError, notAuthenticated } from '@/lib/core/errors';
import { MiB, parseJsonText, parseWith } from '@/lib/core/json-text';
import { originFrom } from './request/origin';
import { admitWrite, limitAddress, rateLimitHeaders } from '@/lib/core/accounts/rate-limit';
import { decodeUtf8, readJsonBytes } from './body';
import { methodNotAllowed } from './errors';
import { parseLargeGridBody } from './body-workers';
import { GRID_BODY_SCHEMAS, parseGridBody, type GridBody } from './grid-bodies';
import { errorResponse, finishCaching } from './responses';

type AnyViewer<A> = A extends 'required' ? Viewer : Viewer | null;

/** What a handler gets: the caller (resolved once, here), the parsed query and body, and the path's params. */
export interface HandlerContext<Q = Record<string, never>, B = undefined, A = 'optional'> {
  req: Request;
  url: URL;
  db: Db;
  /** The path's dynamic segments ([fid] -> params.fid). */
  params: Record<string, string>;
  viewer: AnyViewer<A>;
  query: Q;
  body: B;
  /** The public origin every emitted URL is built from. */
  origin: string;
}

/**
 * One method of one path, declared: the zod schemas the wrapper validates the query and JSON body
 * with (they also make the OpenAPI document, lib/http/openapi.ts), whether a caller is required, and the
 * handler. A 401 (`auth: 'required'`) or a 400 naming the field is answered before the handler runs.
 */
export interface Endpoint<Q = unknown, B = unknown, A extends 'optional' | 'required' = 'optional' | 'required'> {
  summary: string;
  description?: string;
  auth?: A;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Largest body accepted, in bytes (default 1 MiB); 413 beyond. */
  bodyLimit?: number;
  /** A grid body (`body` is its kind's schema): parsed by its kind's rule, and over 1 MiB parsed and
   * checked off the event loop (lib/http/grid-bodies.ts). */
  gridBody?: GridBody;
  /** Status codes and what they mean, for the document (errors are added from the schemas and auth). */
  responses?: Record<number, string>;
  handler: (ctx: HandlerContext<Q, B, A>) => Promise<Response>;
}

/** Any declared endpoint, as `routes()` keeps it. */
// biome-ignore lint/suspicious/noExplicitAny: each handler takes its own query and body types, so a list of endpoints can only name them as any
export type AnyEndpoint = Endpoint<any, any, any>;

/** Declares an endpoint with its handler's types inferred from its schemas and `auth` (the return
 * type names none of them, so the call's context cannot widen them). */
export function endpoint<Q = Record<string, never>, B = undefined, const A extends 'optional' | 'required' = 'optional'>(e: Endpoint<Q, B, A>): AnyEndpoint {
  return e as AnyEndpoint;
}

type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Verb = (typeof VERBS)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A path's declared endpoints, kept on its handlers for the OpenAPI document. */
export interface ApiRoute {
  path: string;
  endpoints: Partial<Record<Method, AnyEndpoint>>;
}
export const API_ROUTE = Symbol.for('plot-files.api-route');

/**
 * Every verb of one path: the given ones wrapped, HEAD answering GET's headers, OPTIONS answering
 * 200 with `Allow`, and the rest 405 with `Allow`. Use as
 * `export const { GET, ... } = routes('/v2/plots/{fid}', { GET: endpoint({...}) })`.
 */
export function routes(path: string, endpoints: Partial<Record<Method, AnyEndpoint>>): Record<Verb, NextHandler> {
  for (const e of Object.values(endpoints)) {
    if (e.gridBody && e.body !== GRID_BODY_SCHEMAS[e.gridBody]) throw new Error(`${path}: a ${e.gridBody} body is checked with its own schema`);
  }
  const given = Object.keys(endpoints) as Verb[];
  const allow = [...given, ...(endpoints.GET ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const out = {} as Record<Verb, NextHandler>;
  for (const verb of VERBS) {
    const e = verb === 'HEAD' ? endpoints.GET : endpoints[verb as Method];
    if (verb === 'OPTIONS') {
      out[verb] = async () => new Response(null, { status: 200, headers: { Allow: allow, 'Content-Length': '0' } });
    } else if (!e) {
      out[verb] = async () => errorResponse(methodNotAllowed(verb, allow));
    } else {
      out[verb] = wrap(e, verb === 'HEAD', allow);
    }
  }
  Object.defineProperty(out.OPTIONS, API_ROUTE, { value: { path, endpoints } satisfies ApiRoute });
  return out;
}

/** The methods that write, and so count against the rate limits. */
export const WRITES = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);

function wrap(e: AnyEndpoint, head: boolean, allow: string): NextHandler {
  return async (req, ctx) => {
    let res: Response;
    let limits: Record<string, string> = {};
    try {
      const params = (ctx?.params ? await ctx.params : {}) as Record<string, string>;
      const db = await getDb();
      const url = new URL(req.url);
      const origin = originFrom(req.headers, url);
      const caller = { method: req.method, headers: req.headers, origin };
      let viewer: Viewer | null;
      if (WRITES.has(req.method)) {
        // Every write attempt counts against the address first, so guessing keys is throttled too.
        const admitted = await admitWrite(db, caller);
        viewer = admitted.viewer;
        const tighter = admitted.states.sort((a, b) => a.limit - a.count - (b.limit - b.count))[0];
        if (tighter) limits = rateLimitHeaders(tighter);
      } else {
        viewer = await authenticate(db, caller).catch(async (error: unknown) => {
          // A wrong key on a read counts against the address as a write does: keys cannot be guessed through reads.
          if (error instanceof ApiError && error.status === 401) await limitAddress(db, req.headers);
          throw error;
        });
      }
      if (e.auth === 'required' && !viewer) throw notAuthenticated();
      const query = e.query ? parseWith(e.query, queryObject(url)) : {};
      const body = e.body ? await readBody(req, e, e.body) : undefined;
      res = await e.handler({ req, url, db, params, viewer, query, body, origin });
    } catch (error) {
      res = errorResponse(error);
    }
    finishCaching(req, res);
    for (const [name, value] of Object.entries(limits)) if (!res.headers.has(name)) res.headers.set(name, value);
    if (!res.headers.has('Allow')) res.headers.set('Allow', allow);
    return head ? new Response(null, { status: res.status, headers: res.headers }) : res;
  };
}

/** The request's body, parsed and validated with the endpoint's schema. */
async function readBody(req: Request, e: AnyEndpoint, schema: z.ZodType): Promise<unknown> {
  const bytes = await readJsonBytes(req, e.bodyLimit ?? MiB);
  if (e.gridBody && bytes.length > MiB) return parseLargeGridBody(e.gridBody, bytes);
  const text = decodeUtf8(bytes);
  return parseWith(schema, e.gridBody ? parseGridBody(e.gridBody, text) : parseJsonText(text));
}

/** The query string as a plain object (first value of each name). */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}
