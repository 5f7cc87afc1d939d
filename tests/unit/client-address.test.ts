// The address a request is counted against, from X-Forwarded-For as the server stamped it (the
// socket address last) and the number of trusted proxies in front.
import { describe, expect, it } from 'vitest';
import { clientAddress } from '@/lib/core/client-address';

const xff = (value: string) => new Headers({ 'x-forwarded-for': value });

describe('clientAddress', () => {
  it.each([
    ['the socket address alone', '203.0.113.9', 0, '203.0.113.9'],
    ['the socket address, whatever the client wrote before it', '1.2.3.4, 5.6.7.8, 203.0.113.9', 0, '203.0.113.9'],
    ['one entry left per trusted proxy', '1.2.3.4, 198.51.100.7, 10.0.0.2', 1, '198.51.100.7'],
    ['two trusted proxies', '1.2.3.4, 198.51.100.7, 10.0.0.2, 10.0.0.3', 2, '198.51.100.7'],
    ['no further left than the first entry', '10.0.0.2', 3, '10.0.0.2'],
    ['entries without spaces between them', '198.51.100.7,10.0.0.2', 1, '198.51.100.7'],
  ])('picks the entry: %s', (_, header, proxies, key) => {
    expect(clientAddress(xff(header), proxies)).toBe(key);
  });

  it.each([
    ['IPv4-mapped IPv6 as IPv4', '::ffff:127.0.0.1', '127.0.0.1'],
    ['IPv4-mapped IPv6 in capitals', '::FFFF:198.51.100.7', '198.51.100.7'],
    ['IPv4-mapped IPv6 written in hex', '::ffff:c633:6407', '198.51.100.7'],
    ['IPv6 per /64', '2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['IPv6 written in full, leading zeros and all', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['IPv6 in capitals', '2001:DB8:1:2::ABCD', '2001:db8:1:2::/64'],
    ['compressed IPv6 whose /64 is mostly zeros', '2001:db8::7', '2001:db8::/64'],
    ['IPv6 compressed inside the /64', '2001:db8::5:6:7:8', '2001:db8::/64'],
    ['IPv6 compressed across the /64 boundary', '2001:db8:0:9::1', '2001:db8:0:9::/64'],
    ['IPv6 loopback', '::1', '::/64'],
    ['the unspecified IPv6 address', '::', '::/64'],
    ['IPv6 with a zone id, the zone dropped', 'fe80::1%eth0', 'fe80::/64'],
    ['IPv6 with an embedded IPv4 that is not mapped', '64:ff9b::198.51.100.7', '64:ff9b::/64'],
  ])('keys an address: %s', (_, header, key) => {
    expect(clientAddress(xff(header), 0)).toBe(key);
  });

  it.each([
    ['a name', 'proxy.internal', 'proxy.internal'],
    ['IPv4 in short form (not dotted decimal)', '127.1', '127.1'],
    ['IPv4 with a leading zero (octal elsewhere)', '010.0.0.1', '010.0.0.1'],
    ['IPv4 out of range', '1.2.3.256', '1.2.3.256'],
    ['IPv6 with two ::', '1::2::3', '1::2::3'],
    ['IPv6 in brackets', '[2001:db8::1]', '[2001:db8::1]'],
    ['an empty zone id', 'fe80::1%', 'fe80::1%'],
    ['something long, cut to 64 characters', 'x'.repeat(100), 'x'.repeat(64)],
  ])('keeps what is not an address as written: %s', (_, header, key) => {
    expect(clientAddress(xff(header), 0)).toBe(key);
  });

  it.each([
    ['no header', new Headers()],
    ['an empty header', xff('')],
    ['only commas and spaces', xff(' , ,')],
  ])('names %s as one shared unknown address', (_, headers) => {
    expect(clientAddress(headers, 0)).toBe('unknown');
  });
});
