// The streaming host (STREAM_HOST): chart_studio's `Stream` POSTs / with `plotly-streamtoken` and a
// chunked body that never ends, one JSON object and "\n" per write, "\n" per heartbeat. scripts/serve.mjs
// hands such requests here before Next sees them (Next would read the body to its end), and this
// reads the body as it comes, line by line. While the stream is open nothing is answered; the answer
// ends it: 200 at the client's close, 408 after STREAM_LIMITS.silenceMs of silence (the client
// reconnects on both), 4xx for what the client must be told (it raises the message).
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { getDb } from '@/db/client';
import { StreamSession } from '@/lib/core/streams/stream-session';
import { STREAM_LIMITS, StreamLineError } from '@/lib/shared/streams';
import { onStop } from './stopping';

declare global {
  var __plotFilesStreamWrites: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
}

/** A bucket of `rate` per second holding up to `burst`: how long to wait before `n` more may pass. */
class Bucket {
  private level: number;
  private at = performance.now();
  constructor(
    private rate: number,
    private burst: number,
  ) {
    this.level = burst;
  }
  take(n: number): number {
    const now = performance.now();
    this.level = Math.min(this.burst, this.level + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    this.level -= n;
    return this.level >= 0 ? 0 : Math.ceil((-this.level / this.rate) * 1000);
  }
}

/**
 * Ends the stream with `status`: written straight to the socket and the socket half-closed, while
 * the rest of the body is read and dropped. Node's own close would reset a connection that still
 * holds unread body, and a reset discards the answer before the client (which reads it only at its
 * next write) sees it: the socket stays until the client closes it, or a silence's length passes.
 */
function answer(req: IncomingMessage, res: ServerResponse, status: number, message: string, lingerMs: number = STREAM_LIMITS.silenceMs): void {
  const socket = req.socket;
  if (res.headersSent || socket.writableEnded || socket.destroyed) return;
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  req.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs).unref();
  socket.once('close', () => clearTimeout(timer));
}

async function handleStreamWrite(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return answer(req, res, 405, 'This is the streaming host: chart_studio\u2019s Stream POSTs / here.');
  const token = req.headers['plotly-streamtoken'];
  if (typeof token !== 'string' || token === '' || token.length > 200)
    return answer(req, res, 400, 'A stream needs the plotly-streamtoken header: one of your stream tokens (stream_ids).');
  let session: StreamSession | null;
  try {
    session = await StreamSession.open(await getDb(), token);
  } catch (error) {
    // 502: the client reconnects.
    console.error('Stream not opened:', (error as Error).message);
    return answer(req, res, 502, 'The database is unavailable; the stream reconnects.');
  }
  if (!session) return answer(req, res, 404, 'Unknown stream token: make one with "New stream token" on your settings page and put it in stream_ids.');
  const stream = session;
  let claimed: boolean;
  try {
    claimed = await stream.claim();
  } catch (error) {
    console.error('Stream not opened:', (error as Error).message);
    return answer(req, res, 502, 'The database is unavailable; the stream reconnects.');
  }
  if (!claimed) return answer(req, res, 429, 'This stream token already has an open stream: close it first.');
  // Gone while the token was taken: its close came before anything listened for it.
  if (req.socket.destroyed) return void stream.close();

  const writes = new Bucket(STREAM_LIMITS.writesPerSecond, STREAM_LIMITS.writeBurst);
  const bytes = new Bucket(STREAM_LIMITS.bytesPerSecond, STREAM_LIMITS.byteBurst);
  let carry: Buffer[] = [];
  let carried = 0;
  let ended = false;
  let silence: NodeJS.Timeout | undefined;
  // 502 at a stop: the client reconnects, to a process still serving.
  const forget = onStop(() => void finish(502, 'The server is restarting; the stream reconnects.', 2000));
  const finish = async (status: number | null, message = '', lingerMs?: number) => {
    if (ended) return;
    ended = true;
    forget();
    clearTimeout(silence);
    await stream.close();
    if (status !== null) answer(req, res, status, message, lingerMs);
  };
  const heard = () => {
    clearTimeout(silence);
    silence = setTimeout(() => void finish(408, 'Stream closed after a minute without a write or heartbeat.'), STREAM_LIMITS.silenceMs);
  };
  // Over a bound the body is not read for a while: the client's writes wait (TCP backpressure).
  const slowDown = (ms: number) => {
    if (ms <= 0) return;
    req.pause();
    setTimeout(() => !ended && req.resume(), ms);
  };
  heard();
  req.on('data', (chunk: Buffer) => {
    if (ended) return;
    heard();
    let wrote = 0;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...carry, chunk.subarray(start, nl)]).toString('utf8');
      carry = [];
      carried = 0;
      start = nl + 1;
      try {
        if (stream.write(line)) wrote++;
      } catch (error) {
        return void finish(400, `Bad stream write: ${error instanceof StreamLineError ? error.message : 'unreadable.'}`);
      }
    }
    carried += chunk.length - start;
    if (carried > STREAM_LIMITS.lineBytes)
      return void finish(413, `A stream write must be at most ${STREAM_LIMITS.lineBytes / 1024} KiB (one JSON object and a newline).`);
    if (start < chunk.length) carry.push(chunk.subarray(start));
    slowDown(Math.max(writes.take(wrote), bytes.take(chunk.length)));
  });
  req.on('end', () => void finish(200, 'Stream closed.'));
  // The connection ended without the zero chunk (or with the client's extra CRLF before it): what came is kept.
  req.on('close', () => void finish(null));
}

/** Makes this process answer the streaming host (scripts/serve.mjs calls it for requests to STREAM_HOST). */
export function installStreamWrites(): void {
  globalThis.__plotFilesStreamWrites = (req, res) => {
    handleStreamWrite(req, res).catch((error: unknown) => {
      console.error('Stream failed:', error);
      answer(req, res, 500, 'The stream failed.');
    });
  };
}
