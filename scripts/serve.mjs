// One app process's HTTP server: what `next start` runs (Next's own request handler, the same
// -p/-H/--keepAliveTimeout arguments and PORT, keep-alive, and a graceful stop on SIGTERM/SIGINT), with
// compression done here instead of by Next (`compress: false` in next.config.mjs). Next gzips every
// answer at level 6 and drops a route's own Content-Encoding: on 2 x 1M values of inline content that
// cost ~550 ms of CPU for 3.0x smaller bytes. Here data answers (the API, .json/.csv downloads) use
// brotli quality 2 (~105 ms, 6x smaller) or, for clients that do not list br (Python's requests),
// gzip level 1 (~95 ms, 2.7x); pages and assets keep the library's defaults (brotli 4, gzip 6).
// The `compression` middleware streams (bounded memory), adds Vary: Accept-Encoding, skips HEAD,
// images, small bodies and `Cache-Control: no-transform`.
import http from 'node:http';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import compression from 'compression';
import next from 'next';

// No body to encode (a 304 or 204 must not gain Content-Encoding), else the library's rule (compressible types).
const filter = (req, res) => res.statusCode !== 304 && res.statusCode !== 204 && compression.filter(req, res);
const compressData = compression({ filter, level: zlib.constants.Z_BEST_SPEED, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } } });
const compressPages = compression({ filter });
// As requested (before Next's rewrites): /v2/…, /~owner/n.json and .csv, and their /files/… forms.
const DATA_PATH = /^(?:\/v2(?:[/?]|$)|[^?]*(?:\.(?:json|csv)|\/files\/[^/?]+\/\d+\/(?:json|csv))(?:\?|$))/;

// Next routes these methods; any other (TRACE, PROPFIND, ...) would reach it and answer 500.
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** 405 for a method no path here supports, in the API's error body (lib/core/errors.ts's shape); `Allow`
 * names every method the server implements (OPTIONS on a path answers that path's own set). */
function methodNotAllowed(req, res) {
  const message = `Method "${String(req.method).slice(0, 20)}" not allowed.`;
  const body = JSON.stringify({ errors: [{ code: 'METHOD_NOT_ALLOWED', message, field: null, path: null }], detail: message });
  res.writeHead(405, { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', 'Content-Length': Buffer.byteLength(body), Allow: [...ROUTED_METHODS].join(', ') });
  res.end(body);
  // Drain any body, so the connection can carry the next request.
  req.resume();
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
  const server = http.createServer(async (req, res) => {
    if (!ROUTED_METHODS.has(req.method ?? '')) return methodNotAllowed(req, res);
    try {
      const handle = await ready;
      const compress = DATA_PATH.test(req.url ?? '') ? compressData : compressPages;
      compress(req, res, () => {});
      await handle(req, res);
    } catch (error) {
      console.error(`Failed to handle request for ${req.url}`, error);
      if (!res.headersSent) res.statusCode = 500;
      res.end('Internal Server Error');
    }
  });
  if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;

  // Stop taking connections, let requests in flight finish, then close the app (as `next start` does).
  let stopping = false;
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
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
