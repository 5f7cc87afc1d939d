// Keyset pages and their opaque cursors: the keyset position, signed so that a cursor the service did
// not issue is refused (400) instead of steering a query. The key lives in the database, so every
// process agrees.
import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { ApiError, invalid } from './errors';

export interface Cursor {
  /** The ordering the cursor was issued for: a cursor never crosses orderings. */
  o: string;
  /** Direction: 'n' pages forward from the key, 'p' backward. */
  d: 'n' | 'p';
  /** The keyset position (the sort key of the last or first row shown). */
  k: (string | number)[];
  /** The feed's random-order seed. */
  s?: string;
}

let cachedSecret: Buffer | undefined;

async function secret(db: Db): Promise<Buffer> {
  if (cachedSecret) return cachedSecret;
  const fresh = randomBytes(32).toString('hex');
  // The first process to ask creates the key; everyone reads the one that won.
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`WITH ins AS (
          INSERT INTO settings (key, value) VALUES ('cursor_secret', ${fresh})
          ON CONFLICT (key) DO NOTHING RETURNING value)
        SELECT value FROM ins UNION ALL SELECT value FROM settings WHERE key = 'cursor_secret' LIMIT 1`,
  );
  // Asked at once, the losers' INSERT waits for the winner's and inserts nothing, and their SELECT ran
  // on a snapshot taken before the winner committed: they read the key in a statement of their own.
  const value = row?.value ?? (await queryRows<{ value: string }>(db, sql`SELECT value FROM settings WHERE key = 'cursor_secret'`))[0].value;
  cachedSecret = Buffer.from(value, 'hex');
  return cachedSecret;
}

function sign(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, 16);
}

export async function encodeCursor(db: Db, cursor: Cursor): Promise<string> {
  const payload = Buffer.from(JSON.stringify(cursor)).toString('base64url');
  return `${payload}.${sign(await secret(db), payload).toString('base64url')}`;
}

/** The 400 of a cursor the service did not issue for the list asked (forged, or another list's). */
export class CursorRefused extends ApiError {
  constructor() {
    super(400, invalid('cursor', 'Invalid cursor.').errors);
  }
}

/** The cursor `value` issued for `order`, of the shape `valid` accepts (when given); else CursorRefused. */
export async function decodeCursor(db: Db, value: string, order: string, valid?: (cursor: Cursor) => boolean): Promise<Cursor> {
  const bad = () => new CursorRefused();
  const [payload, mac, extra] = value.split('.');
  if (!payload || !mac || extra !== undefined || value.length > 512) throw bad();
  const expected = sign(await secret(db), payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
  let cursor: Cursor;
  try {
    cursor = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (cursor.o !== order || (cursor.d !== 'n' && cursor.d !== 'p') || !Array.isArray(cursor.k)) throw bad();
  if (valid && !valid(cursor)) throw bad();
  return cursor;
}

/** A page of rows in one list order, with the cursors of the pages after and before it (null at either end). */
export interface RowsPage<R> {
  rows: R[];
  next: string | null;
  previous: string | null;
}

/**
 * The pager every keyset list ends in: cuts a page from rows fetched past `cursor` (in its direction,
 * one more than `size` to know whether more exist) and signs the cursors of its neighbours.
 * `resume`: the key where a page that stopped reading early (a bounded search) stopped; it may hold
 * fewer than `size` rows, even none, and its onward cursor resumes there, past rows already read.
 */
export async function keysetPage<R>(
  db: Db,
  rows: R[],
  opts: { size: number; cursor: Cursor | null; order: string; seed?: string; keyOf: (row: R) => Cursor['k']; resume?: Cursor['k'] },
): Promise<RowsPage<R>> {
  const dir = opts.cursor?.d ?? 'n';
  const more = rows.length > opts.size;
  const shown = rows.slice(0, opts.size);
  if (dir === 'p') shown.reverse();
  const at = (d: 'n' | 'p', k: Cursor['k']) => encodeCursor(db, { o: opts.order, d, k, ...(opts.seed ? { s: opts.seed } : {}) });
  const first = shown[0];
  const last = shown[shown.length - 1];
  // Onward (in the page's direction): where reading stopped, else past the last row shown when more exist.
  const onward = opts.resume ?? (more ? opts.keyOf(dir === 'n' ? last : first) : null);
  // Back the way it came: before the first row shown (a page that shows none has no key to go back from).
  const back = opts.cursor !== null && shown.length ? opts.keyOf(dir === 'n' ? first : last) : null;
  const [next, previous] = dir === 'n' ? [onward, back] : [back, onward];
  return {
    rows: shown,
    next: next ? await at('n', next) : null,
    previous: previous ? await at('p', previous) : null,
  };
}
