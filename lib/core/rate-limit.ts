// Rate limits on writes, per API key and per client address: fixed-window counters in Postgres
// (`rate_limits`), so every app process serving one database counts together.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from './auth';
import { clientAddress } from './client-address';
import { throttled } from './errors';

export interface RateLimitConfig {
  /** Writes per window by one user (API key or session); 0 turns the limit off. */
  perKey: number;
  /** Writes per window from one client address, signed in or not; 0 turns the limit off. */
  perAddress: number;
  windowSeconds: number;
  /** Reverse proxies in front of the app that append to X-Forwarded-For (see lib/core/client-address.ts). */
  trustedProxies: number;
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
});

export interface RateLimitState {
  limit: number;
  /** Writes counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends. */
  reset: number;
}

/**
 * Counts one write against `key` and answers its state (one statement: start a new window or add
 * to the current one). Expired rows are swept now and then so the table stays small.
 */
export async function countWrite(db: Db, key: string, limit: number, windowSeconds: number): Promise<RateLimitState> {
  const [row] = await queryRows<{ count: number; reset: number }>(
    db,
    sql`INSERT INTO rate_limits AS r (key, window_start, count)
        VALUES (${key}, to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}::int) * ${windowSeconds}::int), 1)
        ON CONFLICT (key) DO UPDATE
          SET count = CASE WHEN r.window_start = excluded.window_start THEN r.count + 1 ELSE 1 END,
              window_start = excluded.window_start
        RETURNING count, ceil(extract(epoch FROM r.window_start + make_interval(secs => ${windowSeconds}::int) - now()))::int AS reset`,
  );
  if (Math.random() < 0.01) {
    await db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => ${windowSeconds}::int)`);
  }
  return { limit, count: row.count, reset: Math.max(1, row.reset) };
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
async function count(db: Db, key: string, limit: number, windowSeconds: number): Promise<RateLimitState | null> {
  return limit ? countWrite(db, key, limit, windowSeconds) : null;
}

export const exceeded = (state: RateLimitState | null): state is RateLimitState => !!state && state.count > state.limit;

function enforce(state: RateLimitState | null): RateLimitState | null {
  if (exceeded(state)) throw throttled(state.reset, rateLimitHeaders(state));
  return state;
}

/** Counts a write from this address (an API write or a sign-in attempt). */
export const countAddressWrite = (db: Db, headers: Headers, config = rateLimitConfig()) =>
  count(db, `addr:${clientAddress(headers, config.trustedProxies)}`, config.perAddress, config.windowSeconds);

/** A write from this address: 429 once the address has used up its window. */
export const limitAddress = async (db: Db, headers: Headers, config = rateLimitConfig()) => enforce(await countAddressWrite(db, headers, config));

/** A write by this user: 429 once the user has used up its window. */
export const limitUser = async (db: Db, viewer: Viewer, config = rateLimitConfig()) =>
  enforce(await count(db, `user:${viewer.id}`, config.perKey, config.windowSeconds));
