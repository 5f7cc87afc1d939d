// The write counters behind the rate limits, on both drivers: windows, concurrency, nickname changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { countWrite, limitRename, RENAMES_PER_DAY } from '@/lib/core/rate-limit';
import { expectApiError } from './_helpers';
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

  // A counted write then commits without waiting for a WAL flush of its own (migration 0018).
  it('keeps its counters in an unlogged table', async () => {
    const [row] = await queryRows<{ persistence: string }>(database.db, sql`SELECT relpersistence AS persistence FROM pg_class WHERE oid = 'rate_limits'::regclass`);
    expect(row.persistence).toBe('u');
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

  it(`nickname changes: ${RENAMES_PER_DAY} a day per user, then a 429 that says when, and others unaffected`, async () => {
    for (let i = 0; i < RENAMES_PER_DAY; i++) await limitRename(database.db, 101);
    const err = await expectApiError(limitRename(database.db, 101), 429, /at most 10 times a day.*Try again in \d+ hours?/);
    expect(Number(err.headers['Retry-After'])).toBeGreaterThan(0);
    expect(Number(err.headers['Retry-After'])).toBeLessThanOrEqual(86_400);
    await limitRename(database.db, 102);
  });
});
