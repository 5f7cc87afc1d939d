// A plot page's view count: a view counts once per visitor per day (UTC), as analytics tools count
// visitors, so reloading a page, or a script asking for it in a loop, does not reorder "Most viewed".
// A visitor is the signed-in user, else the address (IPv6 by its /64: lib/core/client-address.ts);
// what is stored of them is a hash salted with the day's random salt, and only today's rows are kept.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { compiledQuery, queryRows, type Db } from '@/db/client';

/** Who is viewing, for counting only: `user:<id>` when signed in, else `address:<client address>`. */
export const visitorOf = (viewer: { id: number } | null, address: string) => (viewer ? `user:${viewer.id}` : `address:${address}`);

/** The UTC day of `now`, as the database's `date` text. */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** Each process's copy of today's salt, per database (one read a day; every process shares the stored one). */
const known = new WeakMap<Db, { day: string; salt: string }>();

/**
 * The salt of `day`, made by the first process to need it. The first time a process meets a new day it
 * also deletes earlier days' views and salts: what is stored stays one day's visitors.
 */
async function saltOf(db: Db, day: string): Promise<string> {
  const copy = known.get(db);
  if (copy?.day === day) return copy.salt;
  await queryRows(db, sql`INSERT INTO view_salts (day, salt) VALUES (${day}::date, ${randomBytes(24).toString('base64url')}) ON CONFLICT (day) DO NOTHING`);
  const [row] = await queryRows<{ salt: string }>(db, sql`SELECT salt FROM view_salts WHERE day = ${day}::date`);
  await pruneViews(db, day);
  known.set(db, { day, salt: row.salt });
  return row.salt;
}

/** Deletes the views and salts of days before `day`. */
export async function pruneViews(db: Db, day: string): Promise<void> {
  await queryRows(db, sql`DELETE FROM plot_views WHERE day < ${day}::date`);
  await queryRows(db, sql`DELETE FROM view_salts WHERE day < ${day}::date`);
}

/**
 * Counts `visitor`'s view of the plot unless they have viewed it already today: whether it counted.
 * One statement (concurrent views of one visitor count once, of many each once). Its commit does not
 * wait for the WAL to reach the disk (`synchronous_commit` off for this statement's own transaction):
 * a database crash may forget the last moment's views, and concurrent views no longer queue on a flush
 * each. Run it on its own, never inside a transaction whose other writes must wait for theirs.
 */
export async function countView(db: Db, fileId: number, visitor: string, now = new Date()): Promise<boolean> {
  const day = dayOf(now);
  const salt = await saltOf(db, day);
  const hashed = createHash('sha256').update(`${salt}\n${visitor}`).digest('base64url').slice(0, 22);
  const rows = await COUNT_VIEW(db, { id: fileId, day, visitor: hashed });
  return rows.length > 0;
}

const COUNT_VIEW = compiledQuery<{ views: string }>(
  () => sql`WITH seen AS (
      INSERT INTO plot_views (file_id, day, visitor)
      SELECT file_id, ${sql.placeholder('day')}::date, ${sql.placeholder('visitor')}::text FROM plots WHERE file_id = ${sql.placeholder('id')}::bigint
      ON CONFLICT DO NOTHING RETURNING file_id)
    UPDATE plots SET views = views + 1
    FROM seen, (SELECT set_config('synchronous_commit', 'off', true)) commit_mode
    WHERE plots.file_id = seen.file_id RETURNING views`,
);
