// The time rules that keep time in the database go by (rate-limit windows, sign-in waits, the
// addresses an account signed in from): in the product, the database's own now(), one clock that
// every app process reads alike. A test hands in a clock of its own and moves it, so time passes
// without sleeping or rewriting stored times.
import { sql, type SQL } from 'drizzle-orm';

export interface Clock {
  /** The moment it is now; null: the database's now(). */
  now(): Date | null;
}

export const databaseClock: Clock = { now: () => null };

/** The clock's now in a statement (it holds one value throughout, as now() does in a transaction). */
export function nowSql(clock: Clock): SQL {
  const moment = clock.now();
  return moment ? sql`${moment.toISOString()}::timestamptz` : sql`now()`;
}
