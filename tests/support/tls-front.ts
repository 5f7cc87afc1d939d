// A TLS front for the app in the client tests, as nginx is for a deployment: plotly.R speaks only
// https (it builds every API URL as https://{domain}). Its certificate is self-signed, made at start
// with openssl in a temporary directory, and trusted only by the clients the tests point at it
// (`caFile`). It forwards every request to the app with X-Forwarded-Proto: https, so the URLs the
// app emits are https ones on the front, and keeps the last exchanges for failure messages.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

export interface TlsFront {
  /** `https://127.0.0.1:{port}` */
  url: string;
  /** The certificate (PEM), for the clients to trust (httr's cainfo, REQUESTS_CA_BUNDLE). */
  caFile: string;
  /** A position in the log of exchanges (for `log`). */
  mark(): number;
  /** The last exchanges since `mark` (at most 8), oldest first, one paragraph each. */
  log(since?: number): string;
  stop(): Promise<void>;
}

const KEEP = 8;
const EXCERPT = 1500;
/** Raw bytes kept of a body: enough to decompress an excerpt of a compressed one. */
const RAW = 64 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The first bytes of a body and its length (what a failure message shows of it). */
class Body {
  private chunks: Buffer[] = [];
  private kept = 0;
  length = 0;
  constructor(
    private type: string | undefined,
    private encoding: string | undefined,
  ) {}
  add(chunk: Buffer) {
    this.length += chunk.length;
    if (this.kept < RAW) {
      this.chunks.push(chunk.subarray(0, RAW - this.kept));
      this.kept += Math.min(chunk.length, RAW - this.kept);
    }
  }
  show(): string {
    if (!this.length) return '';
    if (this.type && !/json|text|xml|x-www-form/.test(this.type)) return `  <${this.length} bytes of ${this.type}>`;
    let bytes = Buffer.concat(this.chunks);
    try {
      // what was kept may be the start of a compressed body: decompress what it holds
      if (this.encoding === 'gzip') bytes = zlib.gunzipSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
      else if (this.encoding === 'deflate') bytes = zlib.inflateSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
      else if (this.encoding === 'br') bytes = zlib.brotliDecompressSync(bytes, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    } catch {
      return `  <${this.length} bytes, ${this.encoding}>`;
    }
    const text = bytes.subarray(0, EXCERPT).toString('utf8');
    return `  ${text}${bytes.length > EXCERPT || this.length > this.kept ? ` ... (${this.length} bytes${this.encoding ? ` ${this.encoding}` : ''})` : ''}`;
  }
}

interface Exchange {
  request: string;
  requestBody: Body;
  answer?: string;
  answerBody?: Body;
}

/** Starts a front for the app at `target` (`http://127.0.0.1:port`). */
export async function startTlsFront(target: string): Promise<TlsFront> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const caFile = path.join(dir, 'cert.pem');
  // prettier-ignore
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-sha256',
      '-days',
      '2',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      caFile,
      '-subj',
      '/CN=plot-files test front',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    ],
    { stdio: 'pipe' },
  );

  const exchanges: Exchange[] = [];
  let count = 0;
  const upstream = new URL(target);
  const server = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, (req, res) => {
    const exchange: Exchange = {
      request: `${req.method} https://${req.headers.host ?? ''}${req.url}`,
      requestBody: new Body(req.headers['content-type'], req.headers['content-encoding']),
    };
    exchanges.push(exchange);
    if (exchanges.length > KEEP) exchanges.shift();
    count++;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    headers['x-forwarded-proto'] = 'https';
    headers['x-forwarded-host'] = req.headers.host;
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      exchange.answer = `-> ${answer.statusCode} ${answer.headers['content-type'] ?? ''}`;
      exchange.answerBody = new Body(answer.headers['content-type'], answer.headers['content-encoding']);
      const answerHeaders: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) answerHeaders[name] = value;
      res.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.on('data', (chunk: Buffer) => exchange.answerBody!.add(chunk));
      answer.pipe(res);
    });
    forward.on('error', (err) => {
      exchange.answer = `-> no answer from the app: ${err.message}`;
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.on('data', (chunk: Buffer) => exchange.requestBody.add(chunk));
    req.pipe(forward);
  });
  server.on('tlsClientError', () => {
    // a client refusing the certificate: its own error says so
  });

  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  return {
    url: `https://127.0.0.1:${port}`,
    caFile,
    mark: () => count,
    log: (since = 0) => {
      const n = Math.min(KEEP, count - since);
      if (!n) return '(none)';
      return exchanges
        .slice(-n)
        .map((e) => [e.request, e.requestBody.show(), e.answer ?? '-> (no answer yet)', e.answerBody?.show() ?? ''].filter(Boolean).join('\n'))
        .join('\n');
    },
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
