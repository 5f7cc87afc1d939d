// The socket address, appended to each request's X-Forwarded-For before Next sees it (the rate limits
// read it: lib/core/client-address.ts).
//
// Route handlers never see the socket. `next start` only fills X-Forwarded-For with the socket
// address when the request has none (`??=` in next/dist/server/base-server.js): it never appends, so
// a client talking to the app directly can name any address it likes. stampPeerAddress makes the
// server append the socket address itself, as a proxy does. (Requests that arrive in the moment
// before register() installs the stamp keep Next's value.)
import type { IncomingMessage } from 'node:http';

declare global {
  var __plotFilesPeerStamp: boolean | undefined;
}

/** Appends each request's socket address to its X-Forwarded-For (once per process, at start). */
export async function stampPeerAddress(): Promise<void> {
  if (globalThis.__plotFilesPeerStamp) return;
  globalThis.__plotFilesPeerStamp = true;
  const { Server } = await import('node:http');
  type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
  const emit = Server.prototype.emit as Emit;
  // Node raises 'request' before any listener, Next's included, reads the headers.
  Server.prototype.emit = function (event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const req = args[0] as IncomingMessage;
      const peer = req.socket?.remoteAddress;
      if (peer) {
        const prior = req.headers['x-forwarded-for'];
        req.headers['x-forwarded-for'] = prior ? `${prior}, ${peer}` : peer;
      }
    }
    return emit.call(this, event, ...args);
  } as Emit as typeof Server.prototype.emit;
}
