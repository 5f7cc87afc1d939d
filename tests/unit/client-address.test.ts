// The address a request is counted against, from X-Forwarded-For as the server stamped it (the
// socket address last) and the number of trusted proxies in front.
import { describe, expect, it } from 'vitest';
import { clientAddress } from '@/lib/core/client-address';

const xff = (value: string) => new Headers({ 'x-forwarded-for': value });

describe('clientAddress', () => {
  it('with no trusted proxy takes the socket address, whatever the client wrote before it', () => {
    expect(clientAddress(xff('203.0.113.9'), 0)).toBe('203.0.113.9');
    expect(clientAddress(xff('1.2.3.4, 5.6.7.8, 203.0.113.9'), 0)).toBe('203.0.113.9');
  });

  it('steps one entry left per trusted proxy, and no further than the first', () => {
    expect(clientAddress(xff('1.2.3.4, 198.51.100.7, 10.0.0.2'), 1)).toBe('198.51.100.7');
    expect(clientAddress(xff('1.2.3.4, 198.51.100.7, 10.0.0.2, 10.0.0.3'), 2)).toBe('198.51.100.7');
    expect(clientAddress(xff('10.0.0.2'), 3)).toBe('10.0.0.2');
  });

  it('counts IPv4-mapped addresses as IPv4 and IPv6 per /64', () => {
    expect(clientAddress(xff('::ffff:127.0.0.1'), 0)).toBe('127.0.0.1');
    expect(clientAddress(xff('2001:db8:1:2:aaaa::1'), 0)).toBe('2001:db8:1:2::/64');
    expect(clientAddress(xff('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), 0)).toBe('2001:db8:1:2::/64');
    expect(clientAddress(xff('2001:db8::7'), 0)).toBe('2001:db8:0:0::/64');
    expect(clientAddress(xff('::1'), 0)).toBe('0:0:0:0::/64');
    expect(clientAddress(xff('fe80::1%eth0'), 0)).toBe('fe80:0:0:0::/64');
  });

  it('names a missing header as one shared unknown address', () => {
    expect(clientAddress(new Headers(), 0)).toBe('unknown');
  });
});
