// The write counters behind the rate limits, on both drivers: windows and concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWrite } from '@/lib/core/rate-limit';
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
