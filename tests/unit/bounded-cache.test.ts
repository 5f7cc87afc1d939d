// The bounded cache of derived images (lib/core/bounded-cache.ts): least recently used goes first,
// bounds in entries and bytes hold, concurrent misses of one key compute once, failures are not kept.
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '@/lib/core/bounded-cache';

describe('BoundedCache', () => {
  it('drops the least recently used entry past its entry bound', () => {
    const cache = new BoundedCache<string>({ entries: 2, bytes: 1000 }, (v) => v.length);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('holds its byte bound, and keeps no value larger than it', () => {
    const cache = new BoundedCache<string>({ entries: 100, bytes: 10 }, (v) => v.length);
    cache.set('a', 'xxxx');
    cache.set('b', 'yyyy');
    cache.set('c', 'zzzz');
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('b'), cache.get('c')]).toEqual(['yyyy', 'zzzz']);
    cache.set('huge', 'x'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('b', 'y');
    cache.set('d', 'dddd');
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual(['y', 'zzzz', 'dddd']);
  });

  it('computes a missing value once for concurrent callers, and keeps it', async () => {
    const cache = new BoundedCache<number>({ entries: 10, bytes: 100 }, () => 1);
    let made = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const make = async () => {
      made++;
      await gate;
      return 42;
    };
    const both = Promise.all([cache.getOr('k', make), cache.getOr('k', make)]);
    release();
    expect(await both).toEqual([42, 42]);
    expect(await cache.getOr('k', make)).toBe(42);
    expect(made).toBe(1);
  });

  it('keeps no failure: the next call computes again', async () => {
    const cache = new BoundedCache<number>({ entries: 10, bytes: 100 }, () => 1);
    await expect(cache.getOr('k', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.getOr('k', () => 7)).toBe(7);
  });
});
