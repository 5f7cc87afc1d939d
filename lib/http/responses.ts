// The API's answers: JSON (whole or streamed piece by piece), plot images, conditional requests, and
// the contract's error body for any error, including the database's own (unavailable -> 503, a
// unique clash -> 400).
import 'server-only';
import fresh from 'fresh';
import { ApiError, invalidMany, serviceUnavailable } from '@/lib/core/errors';
import type { PlotImage } from '@/lib/core/images';
import type { Content } from '@/lib/core/plot-content';

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
  // The answer depends on who asks (readable grids), so caches must revalidate it per caller.
  const headers = { ETag: content.etag, 'Cache-Control': 'private, no-cache', Vary: 'Accept, Authorization, Cookie' };
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
 * The answer at `/~owner/n.png[?size=…]`: a rendered PNG with an ETag (long-lived caching when the
 * URL carries a version token `v`, else revalidated; 304 when the client's copy is current), or a
 * placeholder, never cached.
 */
export function pngResponse(req: Request, image: PlotImage): Response {
  if (image.state !== 'rendered') {
    return new Response(new Uint8Array(image.png), {
      headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-store', 'X-Image-State': image.state },
    });
  }
  const etag = `"${image.version}-${image.size}"`;
  const scope = image.public ? 'public' : 'private';
  const versioned = new URL(req.url).searchParams.has('v');
  const headers = {
    'Content-Type': 'image/png',
    ETag: etag,
    'Cache-Control': versioned ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache`,
    'X-Image-State': 'rendered',
  };
  if (notModified(req, etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image.png), { headers });
}
