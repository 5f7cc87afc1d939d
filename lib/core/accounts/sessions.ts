// Browser sessions: sign in with username + API key, get an HttpOnly SameSite=Lax cookie. The token
// is random (256 bits); the database keeps only its hash, so every app process shares sessions.
import 'server-only';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { compiledQuery, type Db } from '@/db/client';
import { sessions } from '@/db/schema';

export const SESSION_COOKIE = 'pf_session';
export const SESSION_DAYS = 30;

/**
 * The session cookie holding `token`, or with null the one that clears it, for the site at `origin`
 * (its public origin): the one set of attributes for every place that sets or clears it, so a browser replaces
 * the very cookie. HttpOnly (no script reads it), SameSite=Lax (another site's posts go without it),
 * the whole site, Secure whenever the site is served over https (directly, or behind a proxy that
 * says so).
 */
export function sessionCookie(token: string | null, origin: string) {
  return {
    name: SESSION_COOKIE,
    value: token ?? '',
    path: '/',
    maxAge: token === null ? 0 : SESSION_DAYS * 86400,
    httpOnly: true,
    sameSite: 'lax',
    secure: origin.startsWith('https:'),
  } as const;
}

/** sessionCookie as a Set-Cookie header's value. */
export function sessionSetCookie(token: string | null, origin: string): string {
  const c = sessionCookie(token, origin);
  const sameSite = `SameSite=${c.sameSite.charAt(0).toUpperCase()}${c.sameSite.slice(1)}`;
  return [`${c.name}=${c.value}`, `Path=${c.path}`, `Max-Age=${c.maxAge}`, c.httpOnly && 'HttpOnly', sameSite, c.secure && 'Secure'].filter(Boolean).join('; ');
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({ tokenHash: hash(token), userId, expiresAt: sql`now() + ${`${SESSION_DAYS} days`}::interval` });
  // Expired sessions of this user go when they sign in again: no background job needed.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, sql`now()`)));
  return token;
}

// Every signed-in page and request looks its session up: compiled once.
const sessionUser = compiledQuery<{ id: number; username: string }>(
  () => sql`SELECT u.id, u.username FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = ${sql.placeholder('hash')}::text AND s.expires_at > now() AND u.is_active LIMIT 1`,
);

/** The signed-in user of a live session token (a Viewer; auth.ts imports this module, not the reverse). */
export async function sessionViewer(db: Db, token: string): Promise<{ id: number; username: string } | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await sessionUser(db, { hash: hash(token) });
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

/**
 * The anti-forgery token of the forms a signed-in person submits: derived from the credential that
 * signed them in (the session token, or the Authorization header of a browser using Basic auth), so
 * it needs no storage, differs per session, and changes when the session does. Another site can read
 * neither the HttpOnly cookie nor the page, so it cannot compute or copy it.
 */
export function csrfToken(credential: string): string {
  return createHmac('sha256', credential).update('plot-files csrf v1').digest('base64url');
}
