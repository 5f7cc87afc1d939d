// Which address a request comes from, for per-address rate limits.
//
// Route handlers never see the socket. `next start` only fills X-Forwarded-For with the socket
// address when the request has none (`??=` in next/dist/server/base-server.js): it never appends, so
// a client talking to the app directly can name any address it likes. stampPeerAddress makes the
// server append the socket address itself, as a proxy does, before Next sees the request. The last
// entry is then always the real peer; each trusted proxy in front (TRUST_PROXY) vouches for one more
// entry to its left, and anything further left is whatever the client wrote. (Requests that arrive
// in the moment before register() installs the stamp keep Next's value.)
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

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

/**
 * The client's address: the X-Forwarded-For entry `trustedProxies` places left of the last one
 * (fewer entries than that: the first). IPv6 addresses count per /64, the block one subscriber gets,
 * so walking through one's own block does not buy a fresh limit.
 */
export function clientAddress(headers: Headers, trustedProxies: number): string {
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const entry = hops[Math.max(0, hops.length - 1 - trustedProxies)] ?? 'unknown';
  const address = entry.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  return isIP(address) === 6 ? ipv6Block(address) : address.slice(0, 64);
}

function ipv6Block(address: string): string {
  const [head, tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}
