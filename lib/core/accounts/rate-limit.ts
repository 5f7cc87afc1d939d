// Rate limits on writes, per API key and per client address: fixed-window counters in Postgres
// (`rate_limits`), so every app process serving one database counts together.
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { compiledQuery, queryRows, type CompiledQuery, type Db } from '@/db/client';
import { apiKeyMatchesSql, authenticate, basicCredentials, keyHolder, viewerOf, type CallerRequest, type Viewer } from './auth';
import { clientAddress } from '../client-address';
import { databaseClock, nowSql, type Clock } from '../clock';
import { busy, throttled } from '../errors';
import { hashApiKey, userFromRow, userNamedSql } from './users';

export interface RateLimitConfig {
  /** Writes per window by one user (API key or session); 0 turns the limit off. */
  perKey: number;
  /** Writes per window from one client address, signed in or not; 0 turns the limit off. */
  perAddress: number;
  windowSeconds: number;
  /** Reverse proxies in front of the app that append to X-Forwarded-For (see lib/core/client-address.ts). */
  trustedProxies: number;
  /** What time it is (the database's clock; a test's own). */
  clock: Clock;
}

/** A whole-number setting from the environment (`fallback` when unset); a bad value stops the start. */
export function whole(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return value;
}

/** From the environment: generous enough that the official clients uploading in a loop rarely meet it
 * (and they retry a 429 after Retry-After), tight enough to stop a runaway script or key guessing. */
export const rateLimitConfig = (): RateLimitConfig => ({
  perKey: whole('RATE_LIMIT_WRITES_PER_KEY', 600, 0),
  perAddress: whole('RATE_LIMIT_WRITES_PER_ADDRESS', 1200, 0),
  windowSeconds: whole('RATE_LIMIT_WINDOW_SECONDS', 60, 1),
  trustedProxies: whole('TRUST_PROXY', 0, 0),
  clock: databaseClock,
});

export interface RateLimitState {
  limit: number;
  /** Writes counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends. */
  reset: number;
}

/**
 * One write counted against the key `source` selects (none: nothing counted), in the window of
 * `window` seconds (placeholders): start a new window or add to the current one. Answers its count and
 * the seconds until the window ends. The time is the database's now(), or with `ownClock` the
 * placeholder `now` (a test's clock).
 */
const counted = (source: SQL, ownClock: boolean) => {
  const window = sql`${sql.placeholder('window')}::int`;
  const now = ownClock ? sql`${sql.placeholder('now')}::timestamptz` : sql`now()`;
  return sql`INSERT INTO rate_limits AS r (key, window_start, count)
    SELECT s.key, to_timestamp(floor(extract(epoch FROM ${now}) / ${window}) * ${window}), 1 FROM (${source}) s
    ON CONFLICT (key) DO UPDATE
      SET count = CASE WHEN r.window_start = excluded.window_start THEN r.count + 1 ELSE 1 END,
          window_start = excluded.window_start
    RETURNING count, ceil(extract(epoch FROM r.window_start + make_interval(secs => ${window}) - ${now}))::int AS reset`;
};

/** A compiled statement's clock values: which of its two forms, and the placeholder `now`. */
const clockValues = (clock: Clock) => {
  const now = clock.now();
  return { ownClock: now !== null, now: now?.toISOString() };
};

const countOne = [false, true].map((ownClock) =>
  compiledQuery<{ count: number; reset: number }>(() => counted(sql`SELECT ${sql.placeholder('key')}::text AS key`, ownClock)),
);

/**
 * A counter key's namespace: what comes before its first ":". Every key of one namespace counts in
 * windows of one length, so a sweep may only judge its own namespace's rows (the API's short window
 * must not sweep away sign-in failures counted over a longer one, or a day's renames).
 */
const namespaceOf = (key: string) => key.split(':', 1)[0];

/** Deletes the rows of these namespaces whose window (of `windowSeconds`) ended. */
export async function sweepExpired(db: Db, namespaces: string[], windowSeconds: number, clock: Clock = databaseClock): Promise<void> {
  await db.execute(
    sql`DELETE FROM rate_limits
        WHERE split_part(key, ':', 1) IN (${sql.join(
          namespaces.map((n) => sql`${n}`),
          sql`, `,
        )})
          AND window_start < ${nowSql(clock)} - make_interval(secs => ${windowSeconds}::int)`,
  );
}

/** Expired rows are swept now and then (with one write in a hundred) so the table stays small. */
async function sweep(db: Db, namespaces: string[], windowSeconds: number, clock: Clock): Promise<void> {
  if (Math.random() < 0.01) await sweepExpired(db, namespaces, windowSeconds, clock);
}

const state = (limit: number, row: { count: number; reset: number }): RateLimitState => ({ limit, count: row.count, reset: Math.max(1, row.reset) });

/** Counts one write against `key` and answers its state (one statement). */
export async function countWrite(db: Db, key: string, limit: number, windowSeconds: number, clock: Clock = databaseClock): Promise<RateLimitState> {
  const { ownClock, now } = clockValues(clock);
  const [row] = await countOne[Number(ownClock)](db, { key, window: windowSeconds, now });
  await sweep(db, [namespaceOf(key)], windowSeconds, clock);
  return state(limit, row);
}

/** Takes back one write counted against `key` in the current window (a sign-in that turned out right). */
export async function refundWrite(db: Db, key: string, windowSeconds: number, clock: Clock = databaseClock): Promise<void> {
  await db.execute(
    sql`UPDATE rate_limits SET count = count - 1
        WHERE key = ${key} AND count > 0
          AND window_start = to_timestamp(floor(extract(epoch FROM ${nowSql(clock)}) / ${windowSeconds}::int) * ${windowSeconds}::int)`,
  );
}

/** The draft IETF RateLimit headers for an answer. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(Math.max(0, state.limit - state.count)),
    'RateLimit-Reset': String(state.reset),
  };
}

/** Counts a write against a limit (null when it is off). */
export async function countLimited(db: Db, key: string, limit: number, windowSeconds: number, clock: Clock = databaseClock): Promise<RateLimitState | null> {
  return limit ? countWrite(db, key, limit, windowSeconds, clock) : null;
}

export const exceeded = (state: RateLimitState | null): state is RateLimitState => !!state && state.count > state.limit;

function enforce(state: RateLimitState | null): RateLimitState | null {
  if (exceeded(state)) throw throttled(state.reset, rateLimitHeaders(state));
  return state;
}

const addressKey = (headers: Headers, config: RateLimitConfig) => `addr:${clientAddress(headers, config.trustedProxies)}`;

/** Counts a write from this address (an API write or a sign-in attempt). */
export const countAddressWrite = (db: Db, headers: Headers, config = rateLimitConfig()) =>
  countLimited(db, addressKey(headers, config), config.perAddress, config.windowSeconds, config.clock);

/** A write from this address: 429 once the address has used up its window. */
export const limitAddress = async (db: Db, headers: Headers, config = rateLimitConfig()) => enforce(await countAddressWrite(db, headers, config));

/** A write by this user: 429 once the user has used up its window. */
export const limitUser = async (db: Db, viewer: Viewer, config = rateLimitConfig()) =>
  enforce(await countLimited(db, `user:${viewer.id}`, config.perKey, config.windowSeconds, config.clock));

/** Nickname changes a user may make a day: each rewrites the search entry of every plot of theirs
 * (the trigger users_sync_plot_search), work that grows with their plot count. */
export const RENAMES_PER_DAY = 10;

/** Counts a nickname change of the user's: 429 past RENAMES_PER_DAY in the day. */
export async function limitRename(db: Db, userId: number, clock: Clock = databaseClock): Promise<void> {
  const state = await countWrite(db, `rename:${userId}`, RENAMES_PER_DAY, 86_400, clock);
  if (exceeded(state)) {
    const hours = Math.ceil(state.reset / 3600);
    throw busy(
      `Your nickname can change at most ${RENAMES_PER_DAY} times a day (each change re-indexes every plot of yours for search). Try again in ${hours} hour${hours === 1 ? '' : 's'}.`,
      state.reset,
    );
  }
}

/** Comments one user may post an hour (RATE_LIMIT_COMMENTS_PER_HOUR, 0: no limit): a person writes a
 * few, a script floods. */
export const commentsPerHour = () => whole('RATE_LIMIT_COMMENTS_PER_HOUR', 30, 0);

/** Counts a new comment of the user's: 429 past their hourly allowance. */
export async function limitComments(db: Db, viewer: Viewer, limit = commentsPerHour(), clock: Clock = databaseClock): Promise<void> {
  const state = await countLimited(db, `comment:${viewer.id}`, limit, 3600, clock);
  if (exceeded(state)) {
    const minutes = Math.ceil(state.reset / 60);
    throw busy(`You can post at most ${limit} comments an hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, state.reset);
  }
}

export interface SignInLimitConfig {
  /** Failures from one address on one account before each next attempt there has to wait; 0 never waits. */
  freeFailures: number;
  /** Failed sign-ins per window on one account from every address together (or on one name that is no
   * account); 0 turns the limit off. Addresses the account signed in from lately are exempt. */
  perAccount: number;
  /** Failed sign-ins per window from one client address, on any accounts; 0 turns the limit off. */
  perAddress: number;
  /** Sign-up attempts per window from one client address; 0 turns the limit off. */
  signUpsPerAddress: number;
  windowSeconds: number;
  trustedProxies: number;
  /** What time it is (the database's clock; a test's own). */
  clock: Clock;
}

/**
 * Password guessing is throttled far below the API's write allowance. What one guesser meets is the
 * delay on its own address and the account; the account's ceiling is for guessers on many addresses,
 * set well above what one address can reach in a window (its delays and SIGNIN_FAILURES_PER_ADDRESS).
 */
export const signInLimitConfig = (): SignInLimitConfig => ({
  freeFailures: whole('SIGNIN_FAILURES_BEFORE_DELAY', 5, 0),
  perAccount: whole('SIGNIN_FAILURES_PER_ACCOUNT', 300, 0),
  perAddress: whole('SIGNIN_FAILURES_PER_ADDRESS', 50, 0),
  signUpsPerAddress: whole('SIGNUPS_PER_ADDRESS', 10, 0),
  windowSeconds: whole('SIGNIN_WINDOW_SECONDS', 900, 1),
  trustedProxies: whole('TRUST_PROXY', 0, 0),
  clock: databaseClock,
});

/** How long an address the account signed in from stays exempt from the account's ceiling. */
export const KNOWN_ADDRESS_DAYS = 30;

/**
 * The counter keys of a sign-in: its address; its account (by id, or by the name given when none);
 * the pair of the two, whose failures make the next attempt wait; and the mark that the account signed
 * in from this address (looked up for a name that is no account too, so that costs the same).
 */
export function signInKeys(headers: Headers, account: number | string, config: SignInLimitConfig) {
  const address = clientAddress(headers, config.trustedProxies);
  const who = typeof account === 'number' ? `user:${account}` : `name:${account.toLowerCase()}`;
  return {
    address: `signin:addr:${address}`,
    account: `signin:${who}`,
    pair: `signin:pair:${who}:${address}`,
    known: `signin-known:${who}:${address}`,
  };
}

/** Counts a sign-up attempt from this address: its state, exceeded once the address used up its window. */
export const countSignUp = (db: Db, headers: Headers, config = signInLimitConfig()) =>
  countLimited(db, `signup:addr:${clientAddress(headers, config.trustedProxies)}`, config.signUpsPerAddress, config.windowSeconds, config.clock);

/**
 * The wait, in seconds, that `failures` failures on a pair impose after the last of them: none within
 * the allowance, then 1 s, doubling with each further failure, at most half the window (so a pair
 * that waits it out is still remembered, and keeps its long waits).
 */
const pairWait = (failures: SQL, config: SignInLimitConfig) =>
  sql`CASE WHEN ${failures} < ${config.freeFailures}::int THEN 0
      ELSE least(power(2, least(${failures} - ${config.freeFailures}::int, 30)), greatest(1, ${config.windowSeconds}::int / 2)) END`;

/**
 * Counts an attempt on a pair (address and account) unless the pair's failures still make it wait:
 * 0 when counted, else the seconds left to wait (nothing counted). The row holds the failures and the
 * time of the last, and is forgotten a window after it. One statement, so simultaneous attempts each
 * see the ones before them.
 */
export async function claimPairAttempt(db: Db, key: string, config: SignInLimitConfig): Promise<number> {
  const window = sql`make_interval(secs => ${config.windowSeconds}::int)`;
  const now = nowSql(config.clock);
  const [claimed] = await queryRows<{ count: number }>(
    db,
    sql`INSERT INTO rate_limits AS r (key, window_start, count) VALUES (${key}, ${now}, 1)
        ON CONFLICT (key) DO UPDATE
          SET count = CASE WHEN r.window_start > ${now} - ${window} THEN r.count + 1 ELSE 1 END, window_start = ${now}
          WHERE r.window_start <= ${now} - ${window} OR ${now} >= r.window_start + make_interval(secs => ${pairWait(sql`r.count`, config)})
        RETURNING count`,
  );
  if (claimed) {
    await sweep(db, [namespaceOf(key)], config.windowSeconds, config.clock);
    return 0;
  }
  const [left] = await queryRows<{ wait: number }>(
    db,
    sql`SELECT ceil(extract(epoch FROM window_start + make_interval(secs => ${pairWait(sql`count`, config)}) - ${nowSql(config.clock)}))::int AS wait
        FROM rate_limits WHERE key = ${key}`,
  );
  return Math.max(1, left?.wait ?? 1);
}

/** Takes back an attempt counted on a pair that was refused before anything was checked. */
export async function unclaimPairAttempt(db: Db, key: string): Promise<void> {
  await db.execute(sql`UPDATE rate_limits SET count = count - 1 WHERE key = ${key} AND count > 0`);
}

/** Forgets a pair's failures (its sign-in succeeded). */
export async function forgetPairFailures(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}

/** Marks the address an account just signed in from, for KNOWN_ADDRESS_DAYS. */
export async function rememberKnownAddress(db: Db, key: string, clock: Clock = databaseClock): Promise<void> {
  const now = nowSql(clock);
  await db.execute(
    sql`INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${now}, 1)
        ON CONFLICT (key) DO UPDATE SET window_start = ${now}`,
  );
  await sweep(db, [namespaceOf(key)], KNOWN_ADDRESS_DAYS * 86_400, clock);
}

/** Whether the account signed in from this address within KNOWN_ADDRESS_DAYS. */
export async function isKnownAddress(db: Db, key: string, clock: Clock = databaseClock): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM rate_limits WHERE key = ${key} AND window_start > ${nowSql(clock)} - make_interval(days => ${KNOWN_ADDRESS_DAYS}::int)`,
  );
  return rows.length > 0;
}

interface AdmissionRow extends Record<string, unknown> {
  address_count: number | null;
  address_reset: number | null;
  user_count: number | null;
  user_reset: number | null;
}

/**
 * The API key write's one statement: the address counted (when that limit is on), the user its
 * credentials name, and the user counted (when that limit is on) only for the right key of an active
 * user, and only while the address is within its limit: what limitAddress, verifyApiKey and limitUser
 * do one after another. Compiled once per pair of limits (and clock: the database's or a test's).
 */
const ADMISSIONS = new Map<string, CompiledQuery<AdmissionRow>>();

function admission(byAddress: boolean, byUser: boolean, ownClock: boolean): CompiledQuery<AdmissionRow> {
  const name = `${byAddress} ${byUser} ${ownClock}`;
  let statement = ADMISSIONS.get(name);
  if (!statement) {
    statement = compiledQuery(() => {
      const a = byAddress ? sql`a AS (${counted(sql`SELECT ${sql.placeholder('address')}::text AS key`, ownClock)}),` : sql``;
      const withinAddress = byAddress ? sql`AND (SELECT count FROM a) <= ${sql.placeholder('perAddress')}::int` : sql``;
      const k = byUser
        ? sql`, k AS (${counted(sql`SELECT 'user:' || u.id AS key FROM u WHERE ${apiKeyMatchesSql(sql`u`, sql.placeholder('hash'))} ${withinAddress}`, ownClock)})`
        : sql``;
      return sql`WITH ${a} u AS (${userNamedSql()}) ${k}
        SELECT u.*, ${byAddress ? sql`(SELECT count FROM a)` : sql`NULL::int`} AS address_count, ${byAddress ? sql`(SELECT reset FROM a)` : sql`NULL::int`} AS address_reset,
               ${byUser ? sql`(SELECT count FROM k)` : sql`NULL::int`} AS user_count, ${byUser ? sql`(SELECT reset FROM k)` : sql`NULL::int`} AS user_reset
        FROM (SELECT 1) one LEFT JOIN u ON true`;
    });
    ADMISSIONS.set(name, statement);
  }
  return statement;
}

/**
 * An API write's caller and its rate-limit states, counted as the limits' rules say: against the
 * address first (so guessing keys is throttled too; 429 once it is used up), then the caller (401 for
 * a wrong key), then against the user (429 once used up). With API key credentials that is one
 * statement (`admission`); a session cookie's writes take the steps one by one.
 */
export async function admitWrite(db: Db, req: CallerRequest, config = rateLimitConfig()): Promise<{ viewer: Viewer | null; states: RateLimitState[] }> {
  const credentials = basicCredentials(req.headers);
  if (credentials === null || typeof credentials === 'string') {
    const byAddress = await limitAddress(db, req.headers, config);
    const viewer = await authenticate(db, req);
    const byUser = viewer ? await limitUser(db, viewer, config) : null;
    return { viewer, states: [byAddress, byUser].filter((s) => s !== null) };
  }
  const { ownClock, now } = clockValues(config.clock);
  const [row] = await admission(
    config.perAddress > 0,
    config.perKey > 0,
    ownClock,
  )(db, {
    address: addressKey(req.headers, config),
    perAddress: config.perAddress,
    username: credentials.username,
    hash: hashApiKey(credentials.key),
    window: config.windowSeconds,
    now,
  });
  if (config.perAddress || config.perKey) await sweep(db, ['addr', 'user'], config.windowSeconds, config.clock);
  const states: RateLimitState[] = [];
  if (row.address_count !== null) states.push(enforce(state(config.perAddress, { count: row.address_count, reset: row.address_reset! }))!);
  const viewer = viewerOf(keyHolder(credentials, userFromRow(row)));
  // Counted in the statement only under keyHolder's own rule (apiKeyMatchesSql).
  if (row.user_count !== null) states.push(enforce(state(config.perKey, { count: row.user_count, reset: row.user_reset! }))!);
  return { viewer, states };
}
