// Sign-up invitations: the operator's one-time links (`npm run user:invite`). The link holds a random
// token (256 bits); the table keeps its sha256, so a database dump cannot be turned into links.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { invitations } from '@/db/schema';
import { invalid } from '../errors';
import { createUser, emailSchema, type User } from './users';

export const INVITATION_DAYS = 7;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const wellFormed = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** A new invitation for `email`; answers the token for the link (shown once, never stored). */
export async function createInvitation(db: Db, email: string, days = INVITATION_DAYS): Promise<{ token: string; expiresAt: Date }> {
  const address = emailSchema.safeParse(email);
  if (!address.success) throw invalid('email', address.error.issues[0].message);
  const token = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(invitations)
    .values({ tokenHash: hash(token), email: address.data, expiresAt: sql`now() + make_interval(days => ${days}::int)` })
    .returning({ expiresAt: invitations.expiresAt });
  return { token, expiresAt: row.expiresAt };
}

/** The invitation of a link while it can still be used (not used, not expired), else null. */
export async function openInvitation(db: Db, token: string): Promise<{ email: string } | null> {
  if (!wellFormed(token)) return null;
  const [row] = await db
    .select({ email: invitations.email })
    .from(invitations)
    .where(and(eq(invitations.tokenHash, hash(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, sql`now()`)));
  return row ?? null;
}

/** Thrown when an invitation is missing, expired or already used (the link no longer works). */
export class InvitationClosed extends Error {}

/**
 * Creates the account an invitation is for (with the address it was sent to) and spends the invitation, in one transaction: the
 * conditional update lets exactly one of two simultaneous sign-ups with one link through.
 */
export async function acceptInvitation(db: Db, token: string, input: Omit<Parameters<typeof createUser>[1], 'email'>): Promise<{ user: User; apiKey: string }> {
  if (!wellFormed(token)) throw new InvitationClosed();
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(invitations)
      .set({ usedAt: sql`now()` })
      .where(and(eq(invitations.tokenHash, hash(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, sql`now()`)))
      .returning({ tokenHash: invitations.tokenHash, email: invitations.email });
    if (!claimed) throw new InvitationClosed();
    // An account refused (name taken, bad password) rolls the claim back: the link still works.
    const made = await createUser(tx, { ...input, email: claimed.email });
    await tx.update(invitations).set({ usedBy: made.user.id }).where(eq(invitations.tokenHash, claimed.tokenHash));
    return made;
  });
}
