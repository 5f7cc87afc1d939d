// Proof that an address is the person's. Open sign-up takes any address, so with mail configured an
// address typed at sign-up counts for nothing until its owner opens the link mailed to it: until then
// it receives no reset mail, signs in nothing, and holds the address against no one (an invitation to
// it, or another sign-up, goes through). Confirming makes it the account's, and accounts that only
// typed the same address lose it. The link holds a random token (256 bits); the table keeps its
// sha256. Confirming is a POST from the link's page: mail scanners that open links confirm nothing.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { emailConfirmations, users } from '@/db/schema';
import { countLimited, exceeded, signInLimitConfig } from './rate-limit';
import { releaseUnconfirmed } from './users';

/** How long a link works. */
export const CONFIRM_HOURS = 48;
/** Links one account may be sent per sign-in window (the first at sign-up, then "send it again"). */
export const CONFIRM_MAILS_PER_ACCOUNT = 3;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const wellFormed = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * A new link for the account's unconfirmed address, or null: nothing to confirm, or the account was
 * sent its share of links this window. Answers the token (for the link, never stored) and where it goes.
 */
export async function issueEmailConfirmation(db: Db, userId: number): Promise<{ token: string; username: string; email: string } | null> {
  const [user] = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt), sql`${users.email} <> ''`, eq(users.isActive, true)));
  if (!user) return null;
  if (exceeded(await countLimited(db, `confirm:mail:${userId}`, CONFIRM_MAILS_PER_ACCOUNT, signInLimitConfig().windowSeconds))) return null;
  const token = randomBytes(32).toString('base64url');
  await db
    .insert(emailConfirmations)
    .values({ tokenHash: hash(token), userId, email: user.email, expiresAt: sql`now() + make_interval(hours => ${CONFIRM_HOURS}::int)` });
  await db
    .delete(emailConfirmations)
    .where(and(eq(emailConfirmations.userId, userId), sql`(${emailConfirmations.expiresAt} <= now() OR ${emailConfirmations.usedAt} IS NOT NULL)`));
  return { token, ...user };
}

const open = (token: string) =>
  and(eq(emailConfirmations.tokenHash, hash(token)), isNull(emailConfirmations.usedAt), gt(emailConfirmations.expiresAt, sql`now()`));

/** What a link would confirm while it still can (not used, not expired, the account still has that address unconfirmed), else null. */
export async function openEmailConfirmation(db: Db, token: string): Promise<{ username: string; email: string } | null> {
  if (!wellFormed(token)) return null;
  const [row] = await db
    .select({ username: users.username, email: emailConfirmations.email })
    .from(emailConfirmations)
    .innerJoin(users, eq(users.id, emailConfirmations.userId))
    .where(and(open(token), isNull(users.emailConfirmedAt), sql`lower(${users.email}) = lower(${emailConfirmations.email})`));
  return row ?? null;
}

/** Thrown when a link is missing, expired, already used, or its address is no longer the account's to confirm. */
export class EmailConfirmationClosed extends Error {}
/** Thrown when another account confirmed the address first. */
export class EmailTaken extends Error {}

/**
 * Confirms the address of a link, in one transaction: the link is spent, the account's address
 * counts from now, and accounts that only typed it lose it. Another account holding it confirmed
 * already: EmailTaken (nothing changes).
 */
export async function confirmEmail(db: Db, token: string): Promise<{ username: string; email: string }> {
  if (!wellFormed(token)) throw new EmailConfirmationClosed();
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(emailConfirmations)
      .set({ usedAt: sql`now()` })
      .where(open(token))
      .returning({ userId: emailConfirmations.userId, email: emailConfirmations.email });
    if (!claimed) throw new EmailConfirmationClosed();
    // Serialises confirmations of one address (two accounts confirming it at once): one wins.
    await queryRows(tx, sql`SELECT pg_advisory_xact_lock(hashtext(lower(${claimed.email})))`);
    const [own] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, claimed.userId), isNull(users.emailConfirmedAt), sql`lower(${users.email}) = lower(${claimed.email})`));
    if (!own) throw new EmailConfirmationClosed();
    const [holder] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${claimed.email}) AND ${users.emailConfirmedAt} IS NOT NULL`);
    if (holder && holder.id !== claimed.userId) throw new EmailTaken();
    const [user] = await tx
      .update(users)
      .set({ emailConfirmedAt: sql`now()` })
      .where(and(eq(users.id, claimed.userId), isNull(users.emailConfirmedAt), sql`lower(${users.email}) = lower(${claimed.email})`))
      .returning({ username: users.username, email: users.email });
    if (!user) throw new EmailConfirmationClosed();
    await releaseUnconfirmed(tx, claimed.userId, user.email);
    return user;
  });
}

/** Whether the account's address counts (confirmed), for its settings page. */
export async function emailState(db: Db, userId: number): Promise<{ email: string; confirmed: boolean }> {
  const [row] = await db.select({ email: users.email, at: users.emailConfirmedAt }).from(users).where(eq(users.id, userId));
  return { email: row?.email ?? '', confirmed: Boolean(row?.at) };
}
