// The API's answers: JSON (whole or streamed piece by piece), plot images, conditional requests, and
// the contract's error body for any error, including the database's own (unavailable -> 503, a
// unique clash -> 400, a person's storage full -> 413).
import 'server-only';
import fresh from 'fresh';
import { ApiError, invalidMany, serviceUnavailable } from '@/lib/core/errors';
import { sessionToken } from '@/lib/core/accounts/sessions';
import { storageRefusal } from '@/lib/core/accounts/storage';
import type { PlotImage } from '@/lib/core/images/images';
import type { Content } from '@/lib/core/plots/plot-content';
import type { PageLink } from '@/lib/core/plots/plot-lists';

/** Errors are never stored: the same URL may answer otherwise a moment later (signed in, made public). */
export function errorResponse(error: unknown): Response {
  const apiError = toApiError(error);
  const res = json(apiError.body(), { status: apiError.status, headers: apiError.headers });
  res.headers.set('Cache-Control', 'no-store');
  return res;
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return serviceUnavailable(1);
  const full = storageRefusal(error);
  if (full) return full;
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
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
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

// Caching. A shared cache (CDN, nginx proxy_cache) may keep an answer that is the same for every
// anonymous caller for a few seconds and serve it stale while it refetches; browsers revalidate each
// time (max-age=0). Such answers vary on every header that could change them: the credentials (a
// cache must never hand the anonymous answer to a signed-in caller, nor the reverse) and the
// forwarded host and scheme the emitted URLs are built from (lib/http/request/origin.ts). Anything else is
// `private`, and the routes() wrapper downgrades a shared answer to private whenever the request
// carries credentials (finishCaching).
export const SHARED_CACHE = 'public, max-age=0, s-maxage=10, stale-while-revalidate=30';
export const SHARED_VARY = 'Accept, Accept-Encoding, Authorization, Plotly-Authorization, Cookie, X-Forwarded-Host, X-Forwarded-Proto';
export const PRIVATE_CACHE = 'private, no-store';
/** Private, but worth a 304: the ETag names the answer. */
export const PRIVATE_REVALIDATE = 'private, no-cache';

/** `res` marked as the same for every anonymous caller (the wrapper keeps it so only for those). */
export function shared(res: Response): Response {
  res.headers.set('Cache-Control', SHARED_CACHE);
  res.headers.set('Vary', SHARED_VARY);
  return res;
}

/** Whether the request names a caller (API key or session cookie), valid or not. */
function hasCredentials(headers: Headers): boolean {
  return headers.has('authorization') || headers.has('plotly-authorization') || sessionToken(headers.get('cookie')) !== null;
}

/**
 * The answer's caching, made safe: a shared answer stays public only for an anonymous request;
 * every other answer the handler left unmarked is private and never stored.
 */
export function finishCaching(req: Request, res: Response): void {
  const given = res.headers.get('Cache-Control');
  if (res.status >= 400) res.headers.set('Cache-Control', 'no-store');
  else if (!given) res.headers.set('Cache-Control', PRIVATE_CACHE);
  else if (/\bpublic\b/.test(given) && hasCredentials(req.headers)) {
    res.headers.set('Cache-Control', res.headers.has('ETag') ? PRIVATE_REVALIDATE : PRIVATE_CACHE);
  }
}

/** A JSON answer with the contract's headers. `body` may be text the database already built. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  headers.set('Vary', 'Accept');
  const payload = typeof body === 'string' || body instanceof ReadableStream ? body : JSON.stringify(body);
  return new Response(payload as BodyInit, { ...init, headers });
}

/** The links of a list answer to its neighbours: the request's path and other parameters at the public origin, another cursor. */
export function pageLinks(origin: string, url: URL): PageLink {
  const params = new URLSearchParams(url.searchParams);
  params.delete('cursor');
  const base = `${origin}${url.pathname}?${params.size ? `${params}&` : ''}cursor=`;
  return (cursor) => `${base}${encodeURIComponent(cursor)}`;
}

/** A JSON answer written piece by piece (large column data is spliced in as stored, never re-parsed),
 * or whole when it is one piece. */
export function jsonStream(parts: string | AsyncIterable<string>, init: ResponseInit = {}): Response {
  if (typeof parts === 'string') return json(parts, init);
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

/** Image bytes as drawn, or with `encoded` a JSON `{"image": "data:<type>;base64,..."}` (the clients' form). */
export function imageResponse(bytes: Buffer, type: string, encoded = false): Response {
  if (encoded) return json({ image: `data:${type};base64,${bytes.toString('base64')}` }, { headers: { 'Cache-Control': 'no-store' } });
  return new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
    headers: {
      'Content-Type': type,
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'no-store',
      // An SVG opened from here is inert.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    },
  });
}

/** A plot's content (the API's and the `.json` download's): streamed, with its ETag and a 304. */
export function contentResponse(req: Request, content: Content): Response {
  // Shared only when every anonymous caller gets this answer (a public plot, public grids, no secret
  // link); else it depends on who asks, so it is revalidated per caller.
  const headers = content.shared
    ? { ETag: content.etag, 'Cache-Control': SHARED_CACHE, Vary: SHARED_VARY }
    : { ETag: content.etag, 'Cache-Control': PRIVATE_REVALIDATE, Vary: 'Accept, Accept-Encoding, Authorization, Plotly-Authorization, Cookie' };
  if (notModified(req, content.etag)) return new Response(null, { status: 304, headers });
  const res = jsonStream(content.parts(), { headers });
  res.headers.set('Vary', headers.Vary);
  return res;
}

/**
 * Whether the client's copy is current: its If-None-Match names `etag` (weakly or not) or is `*`.
 * Only that header goes to fresh: its rule that a request's `Cache-Control: no-cache` always wants
 * the whole answer is for caches; an origin may confirm a copy still current with a 304.
 */
export function notModified(req: Request, etag: string): boolean {
  const ifNoneMatch = req.headers.get('if-none-match');
  return ifNoneMatch !== null && fresh({ 'if-none-match': ifNoneMatch }, { etag });
}

/**
 * The answer at `/~owner/n.png[?size=…]`: a rendered PNG with an ETag (a public one cached for good when the
 * URL carries a version token `v`, else revalidated by browsers and kept briefly by shared caches; a private one revalidated;
 * 304 when the client's copy is current), or a placeholder, never cached. A public plot's image is
 * the same for every caller, so it needs no Vary.
 */
export function pngResponse(req: Request, image: PlotImage): Response {
  if (image.state !== 'rendered') {
    return new Response(new Uint8Array(image.png), {
      headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-store', 'X-Image-State': image.state },
    });
  }
  const etag = `"${image.version}-${image.size}"`;
  const versioned = new URL(req.url).searchParams.has('v');
  const headers = {
    'Content-Type': 'image/png',
    ETag: etag,
    // A private image is asked for again each time (a 304 when unchanged): whoever loses access to
    // the plot (a collaborator removed, a secret link turned off) loses it from their browser too.
    'Cache-Control': !image.public ? PRIVATE_REVALIDATE : versioned ? 'public, max-age=31536000, immutable' : SHARED_CACHE,
    'X-Image-State': 'rendered',
  };
  if (notModified(req, etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image.png), { headers });
}
