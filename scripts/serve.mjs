// One app process's HTTP server: what `next start` runs (Next's own request handler, the same
// -p/-H/--keepAliveTimeout arguments and PORT, keep-alive, and a graceful stop on SIGTERM/SIGINT), with
// compression done here instead of by Next (`compress: false` in next.config.mjs). Next gzips every
// answer at level 6 and drops a route's own Content-Encoding: on large inline content that costs far
// more CPU than the bytes it saves are worth. Here data answers (the API, .json/.csv downloads) use
// brotli (quality 2 for lists and records, 1 for content and downloads) or, for clients that do not
// list br (Python's requests), gzip level 1; pages and assets keep the library's defaults (brotli 4, gzip 6).
// The `compression` middleware streams (bounded memory), adds Vary: Accept-Encoding, skips HEAD,
// images, small bodies and `Cache-Control: no-transform`. Build assets are compressed once, at build
// time (scripts/precompress.mjs), and sent from those files.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import compression from 'compression';
import Negotiator from 'negotiator';
import next from 'next';
import nextConfig from '../next.config.mjs';

// No body to encode (a 304 or 204 must not gain Content-Encoding), else the library's rule (compressible types).
const filter = (req, res) => res.statusCode !== 304 && res.statusCode !== 204 && compression.filter(req, res);
// gzip level 1 with memLevel 9: less CPU than memLevel 8 on large numeric answers, for the same size.
const dataOptions = (brotliQuality) => ({
  filter,
  level: zlib.constants.Z_BEST_SPEED,
  memLevel: 9,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality } },
});
// Lists and records (a few KB): brotli 2, many times smaller for next to no CPU. Content and
// downloads (up to hundreds of MB of numbers): brotli 1, nearly as small for clearly less CPU than
// quality 2.
const compressData = compression(dataOptions(2));
const compressBulk = compression(dataOptions(1));
const compressPages = compression({ filter });
// As requested (before Next's rewrites): /v2/…, /~owner/n.json and .csv, and their /files/… forms;
// of those, the bulk: plots' and grids' content, and the downloads.
const DATA_PATH = /^(?:\/v2(?:[/?]|$)|[^?]*(?:\.(?:json|csv)|\/files\/[^/?]+\/\d+\/(?:json|csv))(?:\?|$))/;
const BULK_PATH = /^(?:\/v2\/(?:plots|grids)\/[^/?]+\/content|[^?]*(?:\.(?:json|csv)|\/files\/[^/?]+\/\d+\/(?:json|csv)))(?:\?|$)/;

const STATIC_PREFIX = '/_next/static/';
const STATIC_ROOT = path.join(process.cwd(), '.next', 'static');
const STATIC_TYPES = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=UTF-8',
  '.txt': 'text/plain; charset=UTF-8',
  '.map': 'application/json; charset=UTF-8',
};
const SUFFIX = { br: '.br', gzip: '.gz' };
// The headers next.config.mjs gives every response, so these answers carry them too.
const everyResponse = Object.fromEntries(((await nextConfig.headers()).find((rule) => rule.source === '/(.*)')?.headers ?? []).map((h) => [h.key, h.value]));

/**
 * A build asset's precompressed copy, when the client takes brotli or gzip and the copy exists:
 * sent as the file it is, with the headers Next gives build assets. False when Next should answer.
 */
async function sendPrecompressed(req, res) {
  const url = req.url ?? '';
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(STATIC_PREFIX)) return false;
  let file;
  try {
    file = path.join(STATIC_ROOT, decodeURIComponent(url.slice(STATIC_PREFIX.length).split('?')[0]));
  } catch {
    return false;
  }
  const type = STATIC_TYPES[path.extname(file)];
  const encoding = new Negotiator(req).encoding(['br', 'gzip']);
  if (!type || !SUFFIX[encoding] || !file.startsWith(STATIC_ROOT + path.sep)) return false;
  const info = await stat(file + SUFFIX[encoding]).catch(() => null);
  if (!info?.isFile()) return false;
  res.writeHead(200, {
    ...everyResponse,
    'Content-Type': type,
    'Content-Encoding': encoding,
    'Content-Length': info.size,
    'Cache-Control': 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
  });
  if (req.method === 'HEAD') res.end();
  else await pipeline(createReadStream(file + SUFFIX[encoding]), res).catch(() => res.destroy());
  return true;
}

// Next routes these methods; any other (TRACE, PROPFIND, ...) would reach it and answer 500.
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** 405 for a method no path here supports, in the API's error body (lib/core/errors.ts's shape); `Allow`
 * names every method the server implements (OPTIONS on a path answers that path's own set). */
function methodNotAllowed(req, res) {
  const message = `Method "${String(req.method).slice(0, 20)}" not allowed.`;
  const body = JSON.stringify({ errors: [{ code: 'METHOD_NOT_ALLOWED', message, field: null, path: null }], detail: message });
  res.writeHead(405, {
    'Content-Type': 'application/json',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
    Allow: [...ROUTED_METHODS].join(', '),
  });
  res.end(body);
  // Drain any body, so the connection can carry the next request.
  req.resume();
}

// The streaming host's name (docs/configuration.md): requests whose Host names it are chart_studio
// Stream's writes, handed to lib/http/stream-writes.ts (installed by instrumentation.ts) with their
// body unread, since Next would wait for a body that never ends.
const STREAM_HOST = process.env.STREAM_HOST?.trim().toLowerCase() || null;
const hostName = (req) => (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');

const WRITE_BUFFER = 64 * 1024;
const LINGER_MS = 2000;
const LAST_REQUEST = Symbol('last request');

/**
 * Lingering close (as nginx's lingering_close): an answer that ends the connection before its
 * request's body was read (a 413 for a body over the limit, sent with `Connection: close`) must reach
 * the client. Closing a socket that holds unread bytes makes the kernel send RST, and a client still
 * uploading loses the answer it has not read yet (ECONNRESET; "fetch failed", a broken pipe in
 * Python). Such a socket sends its FIN and goes on reading, the rest of the body discarded (the
 * server's parser drops it), until the client closes or LINGER_MS pass.
 */
function lingerOnClose(req) {
  const socket = req.socket;
  socket[LAST_REQUEST] = req;
  if (socket.destroySoon.lingers) return;
  const destroySoon = socket.destroySoon;
  socket.destroySoon = function () {
    if (this[LAST_REQUEST]?.complete !== false || this.destroyed) return destroySoon.call(this);
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once('close', () => clearTimeout(timer));
  };
  socket.destroySoon.lingers = true;
}
const DEFAULT_KEEP_ALIVE_MS = 65_000;

// A request's body must arrive within REQUEST_TIMEOUT_MS (Node's requestTimeout, 300 s by default;
// settable for tests) of its headers. Node's own check would also end the streaming host's writes,
// whose body never ends: they have their own deadline, a minute of silence (lib/http/stream-writes.ts).
// So Node's is off (its headersTimeout stays: headers within 60 s) and every other request gets this.
const REQUEST_TIMEOUT_MS = (() => {
  const asked = process.env.REQUEST_TIMEOUT_MS?.trim();
  if (!asked) return 300_000;
  const ms = Number(asked);
  if (Number.isInteger(ms) && ms > 0) return ms;
  console.error(`REQUEST_TIMEOUT_MS must be a whole number of milliseconds above 0 (got ${JSON.stringify(asked)}).`);
  process.exit(2);
})();
const REQUEST_TIMEOUT_ANSWER = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * As Node's requestTimeout: a request whose body has not all arrived in time gets 408 (when nothing
 * was answered yet) and its connection ends, also after an early answer (Node then reads the rest of
 * the body before the connection's next request).
 */
function requestDeadline(req, res) {
  const timer = setTimeout(() => {
    if (req.complete) return;
    const socket = req.socket;
    if (socket.writable && !res.headersSent) socket.write(REQUEST_TIMEOUT_ANSWER);
    socket.destroy();
  }, REQUEST_TIMEOUT_MS).unref();
  req.once('end', () => clearTimeout(timer));
}

/**
 * Next answers a route's body by flushing the headers on their own, then writing each chunk, then
 * ending (the chunked terminator): three socket writes, each a syscall and a TCP segment, for a
 * one-chunk answer. Corked from the header flush until the current tick's work is done, they leave
 * as one write; a body whose next chunk waits on I/O still has its first part sent at once.
 */
function holdWrites(res) {
  const flushHeaders = res.flushHeaders;
  res.flushHeaders = function () {
    if (!this.headersSent) {
      this.cork();
      setImmediate(() => this.uncork());
    }
    return flushHeaders.call(this);
  };
}

/** Serves the built app with `args` as `next start` takes them; resolves once listening. */
export async function serve(args) {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' }, keepAliveTimeout: { type: 'string' } },
  });
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  const hostname = values.hostname;
  const keepAliveTimeout = values.keepAliveTimeout === undefined ? undefined : Number(values.keepAliveTimeout);
  if (!Number.isInteger(port) || port < 0 || (keepAliveTimeout !== undefined && !(keepAliveTimeout >= 0))) {
    console.error(`Usage: node scripts/start.mjs [-p PORT] [-H HOSTNAME] [--keepAliveTimeout MS] (got ${args.join(' ')})`);
    process.exit(2);
  }

  const app = next({ dev: false, dir: process.cwd(), hostname, port });
  // The app is prepared once listening (as under `next start`); requests that come meanwhile wait.
  let prepare;
  const ready = new Promise((resolve) => (prepare = resolve)).then(() => app.prepare()).then(() => app.getRequestHandler());
  // 64 KiB of buffered answer before backpressure (Node 22's default; 20's is 16 KiB): a page of the
  // list is ~45 KiB, and a held write (holdWrites) must not stall it waiting for a drain.
  const server = http.createServer({ highWaterMark: WRITE_BUFFER }, async (req, res) => {
    if (STREAM_HOST && hostName(req) === STREAM_HOST) {
      await ready;
      return globalThis.__plotFilesStreamWrites(req, res);
    }
    requestDeadline(req, res);
    if (!ROUTED_METHODS.has(req.method ?? '')) return methodNotAllowed(req, res);
    holdWrites(res);
    lingerOnClose(req);
    try {
      const handle = await ready;
      if (await sendPrecompressed(req, res)) return;
      const url = req.url ?? '';
      const compress = BULK_PATH.test(url) ? compressBulk : DATA_PATH.test(url) ? compressData : compressPages;
      compress(req, res, () => {});
      await handle(req, res);
    } catch (error) {
      console.error(`Failed to handle request for ${req.url}`, error);
      if (!res.headersSent) res.statusCode = 500;
      res.end('Internal Server Error');
    }
  });
  // An idle keep-alive connection is closed after 65 s unless told otherwise, not Node's 5 s: a client
  // or proxy that reuses a connection just as the server closes it gets ECONNRESET (nginx: a 502), and
  // the common idle limits of clients and proxies (nginx upstream keepalive 60 s, load balancers 60 s)
  // stay under it. Headers must still arrive within Node's headersTimeout (60 s).
  server.keepAliveTimeout = keepAliveTimeout ?? DEFAULT_KEEP_ALIVE_MS;
  server.requestTimeout = 0;

  // Stop taking connections, let requests in flight finish, then close the app (as `next start` does).
  let stopping = false;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      server.close(() => app.close().finally(() => process.exit(code)));
      server.closeIdleConnections();
    });
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  const address = server.address();
  const origin = `http://${hostname && !hostname.includes(':') ? hostname : 'localhost'}:${address.port}`;
  // What `next start` sets once listening: the port actually taken and the app's own origin.
  process.env.PORT = String(address.port);
  process.env.__NEXT_PRIVATE_ORIGIN = origin;
  prepare();
  await ready;
  console.log(`Ready on ${origin}`);
}
