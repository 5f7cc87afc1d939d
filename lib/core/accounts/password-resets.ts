// "Forgot password?": a one-time link, mailed to the account's address, that sets a new password. The
// link holds a random token (256 bits); the table keeps its sha256, so a database dump cannot be
// turned into links. All state is in Postgres, so any app process can answer any step.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { passwordResets, users } from '@/db/schema';
import { clientAddress } from '../client-address';
import { countLimited, exceeded, signInLimitConfig, whole } from './rate-limit';
import { setPassword } from './users';

/** How long a link works. */
export const RESET_MINUTES = 60;
/** Mails one address may be sent per sign-in window: enough for a lost one, too few to flood an inbox. */
export const RESET_MAILS_PER_ADDRESS = 3;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const wellFormed = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Counts a request for a link from this client address (`RESET_REQUESTS_PER_ADDRESS` per sign-in
 * window, as sign-ups are): the seconds to wait once it has used them up, else 0. Said the same way
 * whatever address was asked about, so it tells nothing about accounts.
 */
export async function countResetRequest(db: Db, headers: Headers): Promise<number> {
  const config = signInLimitConfig();
  const limit = whole('RESET_REQUESTS_PER_ADDRESS', config.signUpsPerAddress, 0);
  const state = await countLimited(db, `reset:addr:${clientAddress(headers, config.trustedProxies)}`, limit, config.windowSeconds);
  return exceeded(state) ? state.reset : 0;
}

/**
 * A new link for the active account whose confirmed address is `email`, or null: no such account (an
 * address typed at sign-up and never confirmed receives nothing), or that address was
 * sent its share of mails this window (the caller answers the same either way). Answers the token
 * (for the link, never stored) and the account's name and address.
 */
export async function createPasswordReset(db: Db, email: string): Promise<{ token: string; username: string; email: string } | null> {
  const address = email.trim().toLowerCase();
  if (!address || address.length > 254) return null;
  const [user] = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = ${address} AND ${users.email} <> '' AND ${users.emailConfirmedAt} IS NOT NULL AND ${users.isActive}`)
    .limit(1);
  if (!user) return null;
  const config = signInLimitConfig();
  if (exceeded(await countLimited(db, `reset:mail:${user.id}`, RESET_MAILS_PER_ADDRESS, config.windowSeconds))) return null;
  return { token: await issuePasswordReset(db, user.id), ...user };
}

/** A new link's token for the account (also `npm run user:reset-password -- <name> --link`). */
export async function issuePasswordReset(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(passwordResets).values({ tokenHash: hash(token), userId, expiresAt: sql`now() + make_interval(mins => ${RESET_MINUTES}::int)` });
  // Links that ended go when a new one is made: no background job needed.
  await db
    .delete(passwordResets)
    .where(and(eq(passwordResets.userId, userId), sql`(${passwordResets.expiresAt} <= now() OR ${passwordResets.usedAt} IS NOT NULL)`));
  return token;
}

const open = (token: string) => and(eq(passwordResets.tokenHash, hash(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`));

/** The account a link is for while it still works (not used, not expired), else null. */
export async function openPasswordReset(db: Db, token: string): Promise<{ username: string } | null> {
  if (!wellFormed(token)) return null;
  const [row] = await db
    .select({ username: users.username })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(open(token), eq(users.isActive, true)));
  return row ?? null;
}

/** Thrown when a link is missing, expired or already used. */
export class PasswordResetClosed extends Error {}

/**
 * Sets the new password of a link's account and spends the link, in one transaction: the conditional
 * update lets one of two simultaneous uses through; every other link of the account is spent too,
 * and every session of the account ends (setPassword). A refused password (ApiError naming
 * `password`) rolls the claim back: the link still works.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<{ username: string }> {
  if (!wellFormed(token)) throw new PasswordResetClosed();
  return db.transaction(async (tx) => {
    const [claimed] = await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(open(token)).returning({ userId: passwordResets.userId });
    if (!claimed) throw new PasswordResetClosed();
    await setPassword(tx, claimed.userId, password);
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, claimed.userId), isNull(passwordResets.usedAt)));
    const [user] = await tx.select({ username: users.username }).from(users).where(eq(users.id, claimed.userId));
    return user;
  });
}
