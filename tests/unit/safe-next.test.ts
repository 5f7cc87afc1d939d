// Where a sign-in goes back to (`next`): a path on this site, read as a browser reads a Location, never
// one that begins with `//` or `/\` once normalized or once its percent escapes are decoded.
import { describe, expect, it } from 'vitest';
import { safeNext } from '@/lib/web/sign-in';
import { HOSTILE_NEXT } from '../hardening/hostile-corpus';

describe('safeNext', () => {
  it.each(HOSTILE_NEXT.map((v) => [JSON.stringify(v).slice(0, 80), v]))('refuses %s', (_, value) => {
    expect(safeNext(value)).toBeNull();
  });

  it.each<[string, string]>([
    ['/feed?x=1', '/feed?x=1'],
    ['/settings', '/settings'],
    ['/~ann/3/', '/~ann/3/'],
    ['/search?in=mine&q=a%2F%2Fb', '/search?in=mine&q=a%2F%2Fb'],
    ['/search?q=//evil.example', '/search?q=//evil.example'],
    ['/~ann/3/#//evil.example', '/~ann/3/#//evil.example'],
    ['/', '/'],
    // Normalized as a browser would, and the normalized form is where the redirect goes.
    ['/a/../feed', '/feed'],
    ['/%2e%2e/feed', '/feed'],
    ['/..', '/'],
    ['/~ann/plot name', '/~ann/plot%20name'],
    ['/ü', '/%C3%BC'],
    ['/fe\ted', '/feed'],
  ])('keeps %s as %s', (value, next) => {
    expect(safeNext(value)).toBe(next);
    // What it keeps reads the same again (a fixed point), and a browser reads it as a page of this site.
    expect(safeNext(next)).toBe(next);
    expect(new URL(next, 'https://plots.example/signin').origin).toBe('https://plots.example');
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 1, ['/feed'], { toString: () => '/feed' }]) expect(safeNext(value)).toBeNull();
  });
});
