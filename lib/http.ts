// The one wrapper every API route goes through: it hands the handler a database and parsed params,
// and turns every error into the contract's error body. Nothing else catches.
import sjson from 'secure-json-parse';
import type { z } from 'zod';
import { getDb, type Db } from '@/db/client';
import { authenticate, type Viewer } from './auth';
import {
  ApiError,
  invalidMany,
  methodNotAllowed,
  notAuthenticated,
  parseError,
  payloadTooLarge,
  serviceUnavailable,
  unsupportedMediaType,
} from './errors';
import { limitAddress, limitUser, rateLimitConfig, rateLimitHeaders } from './rate-limit';

export const MiB = 1024 * 1024;
export const MAX_JSON_DEPTH = 100;

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
 * with (they also make the OpenAPI document, lib/openapi.ts), whether a caller is required, and the
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
  /** How the body's text becomes a value before validation (default: parseJsonText). */
  parseBody?: (text: string) => unknown;
  /** Status codes and what they mean, for the document (errors are added from the schemas and auth). */
  responses?: Record<number, string>;
  handler: (ctx: HandlerContext<Q, B, A>) => Promise<Response>;
}

/** Any declared endpoint, as `routes()` keeps it. */
export type AnyEndpoint = Endpoint<any, any, any>;

/** Declares an endpoint with its handler's types inferred from its schemas and `auth` (the return
 * type names none of them, so the call's context cannot widen them). */
export function endpoint<Q = Record<string, never>, B = undefined, const A extends 'optional' | 'required' = 'optional'>(
  e: Endpoint<Q, B, A>,
): AnyEndpoint {
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
export function routes(
  path: string,
  endpoints: Partial<Record<Method, AnyEndpoint>>,
): Record<Verb, NextHandler> {
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

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function wrap(e: AnyEndpoint, head: boolean, allow: string): NextHandler {
  return async (req, ctx) => {
    let res: Response;
    let limits: Record<string, string> = {};
    try {
      const params = (ctx?.params ? await ctx.params : {}) as Record<string, string>;
      const db = await getDb();
      const url = new URL(req.url);
      const write = WRITES.has(req.method);
      const config = write ? rateLimitConfig() : null;
      // Every write attempt counts against the address first, so guessing keys is throttled too.
      const byAddress = config ? await limitAddress(db, req.headers, config) : null;
      const viewer = await authenticate(db, req).catch(async (error: unknown) => {
        // A wrong key on a read counts against the address as a write does: keys cannot be guessed through reads.
        if (!write && error instanceof ApiError && error.status === 401) await limitAddress(db, req.headers, rateLimitConfig());
        throw error;
      });
      const byUser = config && viewer ? await limitUser(db, viewer, config) : null;
      const tighter = [byAddress, byUser].filter((s) => s !== null).sort((a, b) => a.limit - a.count - (b.limit - b.count))[0];
      if (tighter) limits = rateLimitHeaders(tighter);
      if (e.auth === 'required' && !viewer) throw notAuthenticated();
      const query = e.query ? parseWith(e.query, queryObject(url)) : {};
      let body: unknown;
      if (e.body) {
        const text = await readJsonText(req, e.bodyLimit ?? MiB);
        body = parseWith(e.body, (e.parseBody ?? parseJsonText)(text));
      }
      res = await e.handler({ req, url, db, params, viewer, query, body, origin: publicOrigin(req) });
    } catch (error) {
      res = errorResponse(error);
    }
    for (const [name, value] of Object.entries(limits)) if (!res.headers.has(name)) res.headers.set(name, value);
    if (!res.headers.has('Allow')) res.headers.set('Allow', allow);
    return head ? new Response(null, { status: res.status, headers: res.headers }) : res;
  };
}

export function errorResponse(error: unknown): Response {
  const apiError = toApiError(error);
  return json(apiError.body(), { status: apiError.status, headers: apiError.headers });
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return serviceUnavailable(1);
  const code = sqlState(error);
  if (code === '23505') return invalidMany([{ field: 'filename', message: 'Sorry, a file with that name already exists' }]);
  // A data exception (class 22) is a value the database refused to store: the client's input.
  if (code?.startsWith('22')) {
    return invalidMany([{ field: 'body', message: 'a value in the request cannot be stored (invalid characters or out of range)' }]);
  }
  console.error('Unhandled error:', error);
  return new ApiError(500, [{ code: 'SERVER_ERROR', message: 'Internal server error.', path: null, field: null }]);
}

const UNAVAILABLE = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH',
  'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED',
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006',
]);

function causes(error: unknown): { code?: unknown; errno?: unknown }[] {
  const out = [];
  for (let e = error, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    out.push(e as { code?: unknown });
    if (e instanceof AggregateError) out.push(...(e.errors as { code?: unknown }[]));
  }
  return out;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some((e) => typeof e.code === 'string' && UNAVAILABLE.has(e.code));
}

export function sqlState(error: unknown): string | undefined {
  const hit = causes(error).find((e) => typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code));
  return hit?.code as string | undefined;
}

/** A JSON answer with the contract's headers. `body` may be text the database already built. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  headers.set('Vary', 'Accept');
  const payload = typeof body === 'string' || body instanceof ReadableStream ? body : JSON.stringify(body);
  return new Response(payload as BodyInit, { ...init, headers });
}

/**
 * The public origin every emitted URL is built from: PUBLIC_URL, else the request's own origin
 * (honouring X-Forwarded-Proto / X-Forwarded-Host from a proxy in front).
 */
export function publicOrigin(req: Request): string {
  return originFrom(req.headers, new URL(req.url));
}

/** The same for a server component, from its request headers. */
export function originFrom(headers: Headers, fallback: URL): string {
  const configured = process.env.PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const host = firstValue(headers.get('x-forwarded-host')) ?? headers.get('host') ?? fallback.host;
  const proto = firstValue(headers.get('x-forwarded-proto')) ?? fallback.protocol.replace(':', '');
  // Only well-formed values reach emitted URLs; anything else falls back to the URL Next saw.
  const safeHost = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? host : fallback.host;
  const safeProto = proto === 'https' || proto === 'http' ? proto : fallback.protocol.replace(':', '');
  return `${safeProto}://${safeHost}`;
}

function firstValue(header: string | null): string | undefined {
  const v = header?.split(',')[0]?.trim();
  return v || undefined;
}

/** Reads a JSON body: JSON content type (or none), at most `limit` bytes, valid UTF-8, at most
 * 100 levels deep, no `__proto__`, no NUL characters or lone surrogates (Postgres cannot store them). */
export async function readJson(req: Request, limitBytes: number): Promise<unknown> {
  return parseJsonText(await readJsonText(req, limitBytes));
}

/** The body's text under readJson's transport rules (type, size, UTF-8), not yet parsed. */
export async function readJsonText(req: Request, limitBytes: number): Promise<string> {
  const type = req.headers.get('content-type');
  if (type && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type.trim())) {
    throw unsupportedMediaType(type.split(';')[0].trim().slice(0, 100));
  }
  const label = `${limitBytes / MiB} MiB`;
  if (Number(req.headers.get('content-length')) > limitBytes) {
    const error = payloadTooLarge(label);
    error.headers.Connection = 'close';
    throw error;
  }
  const bytes = await readBytes(req, limitBytes, label);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw parseError('JSON parse error - the request body is not valid UTF-8.');
  }
}

/** Parses JSON text under the same rules as bodies (used too for grid data sent as a string). */
export function parseJsonText(text: string, what = 'the request body'): unknown {
  if (!text.trim()) throw parseError(`JSON parse error - ${what} is empty.`);
  checkDepth(text);
  checkEscapes(text);
  try {
    return sjson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw parseError(`JSON parse error - ${(error as Error).message}`);
  }
}

/**
 * Postgres cannot store NUL characters or unpaired surrogates (JSON.parse accepts both): refuse
 * them up front. Escapes are read in order, so an escaped backslash never starts one.
 */
function checkEscapes(text: string): void {
  let pendingHigh = -1;
  for (const m of text.matchAll(/\\(?:u([0-9a-fA-F]{4})|[^u])/g)) {
    const code = m[1] ? parseInt(m[1], 16) : -1;
    if (pendingHigh >= 0 && !(m.index === pendingHigh && code >= 0xdc00 && code <= 0xdfff)) throw loneSurrogate();
    if (pendingHigh >= 0) {
      pendingHigh = -1;
      continue;
    }
    if (code === 0) throw parseError('JSON parse error - strings may not contain \\u0000.');
    if (code >= 0xd800 && code <= 0xdbff) pendingHigh = m.index + m[0].length;
    else if (code >= 0xdc00 && code <= 0xdfff) throw loneSurrogate();
  }
  if (pendingHigh >= 0) throw loneSurrogate();
}

const loneSurrogate = () => parseError('JSON parse error - strings may not contain lone surrogate escapes.');

async function readBytes(req: Request, limit: number, label: string): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      // The rest of the body is never read, so the connection cannot carry another request.
      const error = payloadTooLarge(label);
      error.headers.Connection = 'close';
      throw error;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Rejects nesting deeper than MAX_JSON_DEPTH before parsing, in one pass over the text. */
function checkDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) throw parseError(`JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels.`);
    } else if (c === 125 || c === 93) depth--;
  }
}

/**
 * Renames repeated keys of the object at `path` ("x", "x" -> "x", "x (2)") in JSON text, where
 * JSON.parse would keep only the last. Malformed text is returned as is for the parser to reject.
 */
export function renameRepeatedKeys(text: string, path: string[]): string {
  interface Frame { object: boolean; key: string | null; expectKey: boolean; seen: Map<string, number> | null }
  const stack: Frame[] = [];
  const edits: { start: number; end: number; value: string }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 34) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
      if (top?.object && top.expectKey) {
        top.key = text.slice(start, i + 1);
        top.expectKey = false;
        if (top.seen) {
          const count = (top.seen.get(top.key) ?? 0) + 1;
          top.seen.set(top.key, count);
          if (count > 1) {
            try {
              edits.push({ start, end: i + 1, value: JSON.stringify(`${JSON.parse(top.key)} (${count})`) });
            } catch {
              return text;
            }
          }
        }
      }
    } else if (c === 123 || c === 91) {
      const atPath =
        c === 123 &&
        stack.length === path.length &&
        stack.every((f, d) => f.object && f.key !== null && f.key === JSON.stringify(path[d]));
      stack.push({ object: c === 123, key: null, expectKey: c === 123, seen: atPath ? new Map() : null });
    } else if (c === 125 || c === 93) stack.pop();
    else if (c === 44 && top?.object) top.expectKey = true;
  }
  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.value + out.slice(e.end);
  return out;
}

/** Parses with zod, turning its issues into the contract's 400 naming each field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidMany(
    result.error.issues.slice(0, 20).map((issue) => ({
      field: fieldPath(prefix, issue.path) || 'body',
      message: issue.message,
    })),
  );
}

/** `cols[1].name`: object keys joined with dots, array indexes in brackets (the contract's JSON paths). */
function fieldPath(prefix: string, path: PropertyKey[]): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), prefix);
}

/** The query string as a plain object (first value of each name). */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}

/** A JSON answer written piece by piece (large column data is spliced in as stored, never re-parsed). */
export function jsonStream(parts: AsyncIterable<string>, init: ResponseInit = {}): Response {
  const encoder = new TextEncoder();
  const iterator = parts[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        // Headers are gone already: end the stream with an error so the client sees a truncated answer.
        console.error('Error while streaming a response:', error);
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return json(body, init);
}
