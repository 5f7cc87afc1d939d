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
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

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
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const entry = hops[Math.max(0, hops.length - 1 - trustedProxies)];
  return entry ? addressKey(entry) : 'unknown';
}

/** IPv4 as written (dotted decimal only: `127.1` or octal parts are not addresses here), IPv4-mapped
 * IPv6 as its IPv4, other IPv6 as its /64 (zone dropped). Anything else is what a trusted proxy wrote:
 * it still tells clients apart, so it stays as written, cut short to keep keys small. */
function addressKey(entry: string): string {
  // Node's checks first: ipaddr's validators throw and catch an Error for every address they
  // reject (an IPv6 socket address is not IPv4), and those stack traces cost every request.
  if (isIPv4(entry)) return entry;
  if (!isIPv6(entry) || !ipaddr.IPv6.isValid(entry)) return entry.slice(0, 64);
  const address = ipaddr.IPv6.parse(entry);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${entry}/64`).toString()}/64`;
}
