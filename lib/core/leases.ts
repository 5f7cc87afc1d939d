// Leases: slots held by work in flight, in Postgres (`leases`), so every app process counts them
// together. A lease names its holder and expires, so a process that dies mid-work frees its slots.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';

/** Takes `key` for `holder` for `seconds` when it is free or its lease has run out; false when held. */
export async function claimLease(db: Db, key: string, holder: string, seconds: number): Promise<boolean> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`INSERT INTO leases (key, holder, expires_at) VALUES (${key}, ${holder}, now() + make_interval(secs => ${seconds}))
        ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE leases.expires_at < now()
        RETURNING key`,
  );
  return rows.length > 0;
}

/** The first of `keys` free for `holder`, claimed; null when all are held. */
export async function claimOneOf(db: Db, keys: string[], holder: string, seconds: number): Promise<string | null> {
  for (const key of keys) if (await claimLease(db, key, holder, seconds)) return key;
  return null;
}

/** Extends a lease `holder` still holds to `seconds` from now. */
export async function renewLease(db: Db, key: string, holder: string, seconds: number): Promise<void> {
  await db.execute(sql`UPDATE leases SET expires_at = now() + make_interval(secs => ${seconds}) WHERE key = ${key} AND holder = ${holder}`);
}

/** Gives a lease back (only its holder's: an expired one taken over by another stays theirs). */
export async function releaseLease(db: Db, key: string, holder: string): Promise<void> {
  await db.execute(sql`DELETE FROM leases WHERE key = ${key} AND holder = ${holder}`);
}
