// Browser sessions: sign in with username + API key, get an HttpOnly SameSite=Lax cookie. The token
// is random (256 bits); the database keeps only its hash, so every app process shares sessions.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { runPrepared, type Db } from '@/db/client';
import { sessions, users } from '@/db/schema';

export const SESSION_COOKIE = 'pf_session';
export const SESSION_DAYS = 30;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({ tokenHash: hash(token), userId, expiresAt: sql`now() + ${`${SESSION_DAYS} days`}::interval` });
  // Expired sessions of this user go when they sign in again: no background job needed.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, sql`now()`)));
  return token;
}

/** The signed-in user of a live session token (a Viewer; auth.ts imports this module, not the reverse). */
export async function sessionViewer(db: Db, token: string): Promise<{ id: number; username: string } | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await runPrepared(
    db
      .select({ id: users.id, username: users.username })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, hash(token)), gt(sessions.expiresAt, sql`now()`), eq(users.isActive, true)))
      .limit(1),
  );
  return row ?? null;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hash(token)));
}

/** The session token from a Cookie header. */
export function sessionToken(cookieHeader: string | null): string | null {
  for (const part of cookieHeader?.split(';') ?? []) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return null;
}
