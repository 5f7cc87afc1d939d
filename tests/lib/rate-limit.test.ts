// The write counters behind the rate limits, on both drivers: windows, concurrency, nickname changes,
// sweeps that keep each namespace's own window, and the sign-in pair's growing waits. Time passes on
// a clock the tests move (tests/support/clock.ts), never by waiting.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import {
  claimPairAttempt,
  countWrite,
  forgetPairFailures,
  isKnownAddress,
  KNOWN_ADDRESS_DAYS,
  limitRename,
  rememberKnownAddress,
  RENAMES_PER_DAY,
  sweepExpired,
  unclaimPairAttempt,
  type SignInLimitConfig,
} from '@/lib/core/accounts/rate-limit';
import { expectApiError } from './_helpers';
import { manualClock } from '../support/clock';
import { DRIVERS, useDatabase } from '../support/postgres';

describe.each(DRIVERS)('rate limit counters (%s)', (driver) => {
  const database = useDatabase(driver);
  // From the start of a day (where every window begins); the tests move it on.
  const clock = manualClock();
  const PAIR: SignInLimitConfig = { freeFailures: 3, perAccount: 0, perAddress: 0, signUpsPerAddress: 0, windowSeconds: 900, trustedProxies: 0, clock };

  it('counts writes per key within a window and says when it ends', async () => {
    const first = await countWrite(database.db, 'k:a', 3, 3600, clock);
    clock.advance(600);
    const second = await countWrite(database.db, 'k:a', 3, 3600, clock);
    const other = await countWrite(database.db, 'k:b', 3, 3600, clock);
    expect([first.count, second.count, other.count]).toEqual([1, 2, 1]);
    expect([first.reset, second.reset, other.reset]).toEqual([3600, 3000, 3000]);
  });

  // A counted write then commits without waiting for a WAL flush of its own (rate_limits is UNLOGGED).
  it('keeps its counters in an unlogged table', async () => {
    const [row] = await queryRows<{ persistence: string }>(
      database.db,
      sql`SELECT relpersistence AS persistence FROM pg_class WHERE oid = 'rate_limits'::regclass`,
    );
    expect(row.persistence).toBe('u');
  });

  it('starts over in a new window', async () => {
    await countWrite(database.db, 'k:w', 3, 60, clock);
    clock.advance(59);
    expect((await countWrite(database.db, 'k:w', 3, 60, clock)).count).toBe(2);
    clock.advance(1);
    expect((await countWrite(database.db, 'k:w', 3, 60, clock)).count).toBe(1);
  });

  it('concurrent writes each get their own count: exactly the limit fit under it', async () => {
    const states = await Promise.all(Array.from({ length: 50 }, () => countWrite(database.db, 'k:c', 20, 3600, clock)));
    expect(states.map((s) => s.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(states.filter((s) => s.count <= 20)).toHaveLength(20);
  });

  it(`nickname changes: ${RENAMES_PER_DAY} a day per user, then a 429 that says when, and others unaffected`, async () => {
    const day = manualClock();
    for (let i = 0; i < RENAMES_PER_DAY; i++) await limitRename(database.db, 101, day);
    day.advance(86_400 - 7200);
    const err = await expectApiError(limitRename(database.db, 101, day), 429, /at most 10 times a day.*Try again in 2 hours\./);
    expect(err.headers['Retry-After']).toBe('7200');
    await limitRename(database.db, 102, day);
    // The next day, the user's changes start over.
    day.advance(7200);
    await limitRename(database.db, 101, day);
  });

  const rowOf = async (key: string) => (await queryRows<{ count: number }>(database.db, sql`SELECT count FROM rate_limits WHERE key = ${key}`))[0];

  it("a sweep deletes only its own namespace's ended windows (the API's minute never forgets sign-in failures or renames)", async () => {
    for (const key of ['addr:10.9.9.9', 'user:77', 'signin:user:77', 'signin:pair:user:77:10.9.9.9', 'rename:77'])
      await countWrite(database.db, key, 10, 60, clock);
    clock.advance(120);
    await sweepExpired(database.db, ['addr', 'user'], 60, clock);
    expect(await rowOf('addr:10.9.9.9')).toBeUndefined();
    expect(await rowOf('user:77')).toBeUndefined();
    for (const key of ['signin:user:77', 'signin:pair:user:77:10.9.9.9', 'rename:77']) expect(await rowOf(key), key).toEqual({ count: 1 });
    await sweepExpired(database.db, ['signin'], 900, clock);
    expect(await rowOf('signin:user:77')).toEqual({ count: 1 });
    await sweepExpired(database.db, ['signin'], 60, clock);
    expect(await rowOf('signin:user:77')).toBeUndefined();
    expect(await rowOf('rename:77')).toEqual({ count: 1 });
  });

  it('a sign-in pair: a few attempts free, then each waits twice as long after the last, at most half the window', async () => {
    const key = 'signin:pair:user:1:10.0.0.1';
    for (let i = 0; i < PAIR.freeFailures; i++) expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
    // Waiting: refused and not counted, however often it is asked.
    for (let i = 0; i < 5; i++) expect(await claimPairAttempt(database.db, key, PAIR)).toBe(1);
    expect(await rowOf(key)).toEqual({ count: PAIR.freeFailures });
    const waits = [];
    for (let n = 0; n < 12; n++) {
      clock.advance(PAIR.windowSeconds / 2);
      expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
      waits.push(await claimPairAttempt(database.db, key, PAIR));
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 450, 450, 450, 450]);
    // A moment short of the wait is still refused, saying so.
    clock.advance(449.5);
    expect(await claimPairAttempt(database.db, key, PAIR)).toBe(1);
    // An attempt refused before it was checked is given back; a success forgets the pair.
    clock.advance(0.5);
    expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
    await unclaimPairAttempt(database.db, key);
    expect(await rowOf(key)).toEqual({ count: PAIR.freeFailures + 12 });
    await forgetPairFailures(database.db, key);
    expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
    expect(await rowOf(key)).toEqual({ count: 1 });
  });

  it('a sign-in pair is forgotten a window after its last failure', async () => {
    const key = 'signin:pair:user:2:10.0.0.2';
    for (let i = 0; i < PAIR.freeFailures; i++) await claimPairAttempt(database.db, key, PAIR);
    clock.advance(PAIR.windowSeconds - 5);
    expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
    expect(await rowOf(key)).toEqual({ count: PAIR.freeFailures + 1 });
    clock.advance(PAIR.windowSeconds);
    expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
    expect(await rowOf(key)).toEqual({ count: 1 });
  });

  it('simultaneous attempts on one pair: exactly the free ones are counted, the rest wait', async () => {
    const key = 'signin:pair:user:3:10.0.0.3';
    const waits = await Promise.all(Array.from({ length: 20 }, () => claimPairAttempt(database.db, key, PAIR)));
    expect(waits.filter((w) => w === 0)).toHaveLength(PAIR.freeFailures);
    expect(waits.filter((w) => w === 1)).toHaveLength(20 - PAIR.freeFailures);
  });

  it(`an address an account signed in from is known for ${KNOWN_ADDRESS_DAYS} days`, async () => {
    const key = 'signin-known:user:4:10.0.0.4';
    expect(await isKnownAddress(database.db, key, clock)).toBe(false);
    await rememberKnownAddress(database.db, key, clock);
    expect(await isKnownAddress(database.db, key, clock)).toBe(true);
    expect(await isKnownAddress(database.db, 'signin-known:user:4:10.0.0.5', clock)).toBe(false);
    clock.advance(KNOWN_ADDRESS_DAYS * 86_400 - 1);
    expect(await isKnownAddress(database.db, key, clock)).toBe(true);
    clock.advance(1);
    expect(await isKnownAddress(database.db, key, clock)).toBe(false);
    await rememberKnownAddress(database.db, key, clock);
    expect(await isKnownAddress(database.db, key, clock)).toBe(true);
  });
});
