// The write counters behind the rate limits, on both drivers: windows, concurrency, nickname changes,
// sweeps that keep each namespace's own window, and the sign-in pair's growing waits.
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
import { DRIVERS, useDatabase } from '../support/postgres';

const PAIR: SignInLimitConfig = { freeFailures: 3, perAccount: 0, perAddress: 0, signUpsPerAddress: 0, windowSeconds: 900, trustedProxies: 0 };

describe.each(DRIVERS)('rate limit counters (%s)', (driver) => {
  const database = useDatabase(driver);

  it('counts writes per key within a window and says when it ends', async () => {
    const first = await countWrite(database.db, 'k:a', 3, 3600);
    const second = await countWrite(database.db, 'k:a', 3, 3600);
    const other = await countWrite(database.db, 'k:b', 3, 3600);
    expect([first.count, second.count, other.count]).toEqual([1, 2, 1]);
    expect(second.reset).toBeGreaterThanOrEqual(1);
    expect(second.reset).toBeLessThanOrEqual(3600);
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
    await countWrite(database.db, 'k:w', 3, 1);
    await age('k:w', 1);
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

  /** Moves a counter's window start (or a pair's last failure) `seconds` into the past: time passing, without the wait. */
  const age = (key: string, seconds: number) =>
    database.db.execute(sql`UPDATE rate_limits SET window_start = window_start - make_interval(secs => ${seconds}::int) WHERE key = ${key}`);
  const rowOf = async (key: string) => (await queryRows<{ count: number }>(database.db, sql`SELECT count FROM rate_limits WHERE key = ${key}`))[0];

  it("a sweep deletes only its own namespace's ended windows (the API's minute never forgets sign-in failures or renames)", async () => {
    // Windows that began two minutes ago (a counted write's window is aligned to the clock: set it outright).
    for (const key of ['addr:10.9.9.9', 'user:77', 'signin:user:77', 'signin:pair:user:77:10.9.9.9', 'rename:77']) {
      await database.db.execute(sql`INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now() - interval '120 seconds', 1)`);
    }
    await sweepExpired(database.db, ['addr', 'user'], 60);
    expect(await rowOf('addr:10.9.9.9')).toBeUndefined();
    expect(await rowOf('user:77')).toBeUndefined();
    for (const key of ['signin:user:77', 'signin:pair:user:77:10.9.9.9', 'rename:77']) expect(await rowOf(key), key).toEqual({ count: 1 });
    await sweepExpired(database.db, ['signin'], 900);
    expect(await rowOf('signin:user:77')).toEqual({ count: 1 });
    await sweepExpired(database.db, ['signin'], 60);
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
      await age(key, PAIR.windowSeconds / 2);
      expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
      waits.push(await claimPairAttempt(database.db, key, PAIR));
    }
    // Rounded up to whole seconds: the refusal comes a moment after the attempt that set the wait.
    expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 450, 450, 450, 450]);
    // An attempt refused before it was checked is given back; a success forgets the pair.
    await age(key, 450);
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
    await age(key, PAIR.windowSeconds - 5);
    expect(await claimPairAttempt(database.db, key, PAIR)).toBe(0);
    expect(await rowOf(key)).toEqual({ count: PAIR.freeFailures + 1 });
    await age(key, PAIR.windowSeconds + 1);
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
    expect(await isKnownAddress(database.db, key)).toBe(false);
    await rememberKnownAddress(database.db, key);
    expect(await isKnownAddress(database.db, key)).toBe(true);
    expect(await isKnownAddress(database.db, 'signin-known:user:4:10.0.0.5')).toBe(false);
    await age(key, KNOWN_ADDRESS_DAYS * 86_400 + 1);
    expect(await isKnownAddress(database.db, key)).toBe(false);
    await rememberKnownAddress(database.db, key);
    expect(await isKnownAddress(database.db, key)).toBe(true);
  });
});
