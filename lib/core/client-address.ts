// Which address a request comes from, for per-address rate limits: an X-Forwarded-For entry.
//
// `next start` only fills X-Forwarded-For with the socket address when the request has none, so a
// client talking to the app directly could name any address it likes; lib/http/peer-address.ts makes
// the server append the socket address itself, as a proxy does. The last entry is then always the real
// peer; each trusted proxy in front (TRUST_PROXY) vouches for one more entry to its left, and anything
// further left is whatever the client wrote.
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

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
