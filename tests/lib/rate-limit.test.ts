// The write counters behind the rate limits, on both drivers: windows, concurrency, the client address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress, countWrite } from '@/lib/rate-limit';
import { DRIVERS, freshDatabase } from '../support/postgres';

describe.each(DRIVERS)('rate limit counters (%s)', (driver) => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;

  beforeAll(async () => {
    database = await freshDatabase(driver);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('counts writes per key within a window and says when it ends', async () => {
    const first = await countWrite(database.db, 'k:a', 3, 3600);
    const second = await countWrite(database.db, 'k:a', 3, 3600);
    const other = await countWrite(database.db, 'k:b', 3, 3600);
    expect([first.count, second.count, other.count]).toEqual([1, 2, 1]);
    expect(second.reset).toBeGreaterThanOrEqual(1);
    expect(second.reset).toBeLessThanOrEqual(3600);
  });

  it('starts over in a new window', async () => {
    await countWrite(database.db, 'k:w', 3, 1);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await countWrite(database.db, 'k:w', 3, 1)).count).toBe(1);
  });

  it('concurrent writes each get their own count: exactly the limit fit under it', async () => {
    const states = await Promise.all(Array.from({ length: 50 }, () => countWrite(database.db, 'k:c', 20, 3600)));
    expect(states.map((s) => s.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(states.filter((s) => s.count <= 20)).toHaveLength(20);
  });
});

describe('clientAddress', () => {
  const xff = (value?: string) => new Headers(value === undefined ? {} : { 'x-forwarded-for': value });
  it('is the address next start put there when there is no proxy', () => {
    expect(clientAddress(xff('127.0.0.1'), 0)).toBe('127.0.0.1');
  });
  it('is the entry the trusted proxy appended, whatever the client sent before it', () => {
    expect(clientAddress(xff('6.6.6.6, 203.0.113.9'), 1)).toBe('203.0.113.9');
    expect(clientAddress(xff('6.6.6.6, 203.0.113.9, 10.0.0.2'), 2)).toBe('203.0.113.9');
  });
  it('falls back to the first entry, or "unknown"', () => {
    expect(clientAddress(xff('203.0.113.9'), 3)).toBe('203.0.113.9');
    expect(clientAddress(xff(), 0)).toBe('unknown');
  });
});
