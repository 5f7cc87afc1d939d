// "Forgot password?" links in the core, on PostgreSQL and PGlite: a link only for an active account
// with that address (any case), at most a few mails an address a window, used once (of two
// simultaneous uses, one), spent with every other link of the account and every session, kept when
// the new password is refused, dead once expired.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordResets, users } from '@/db/schema';
import { createPasswordReset, openPasswordReset, PasswordResetClosed, RESET_MAILS_PER_ADDRESS, resetPassword } from '@/lib/core/accounts/password-resets';
import { verifyPassword } from '@/lib/core/accounts/passwords';
import { createSession, sessionViewer } from '@/lib/core/accounts/sessions';
import { createUser, getUserById } from '@/lib/core/accounts/users';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError } from './_helpers';

const name = () => `p${randomBytes(4).toString('hex')}`;
const NEW_PASSWORD = 'a brand new password';

describe.each(SQL_DRIVER)('password resets (%s)', (driver) => {
  const database = useDatabase(driver);

  async function account() {
    const username = name();
    const { user } = await createUser(database.db, { username, email: `${username}@Mail.example`, password: 'the old password' });
    return user;
  }

  it('makes a link only for an active account using the address, in any case', async () => {
    const { db } = database;
    const user = await account();
    const made = await createPasswordReset(db, `  ${user.email.toUpperCase()} `);
    expect(made).toMatchObject({ username: user.username, email: user.email });
    expect(made!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the token's hash is kept.
    const rows = await db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows.map((r) => r.tokenHash)).not.toContain(made!.token);
    expect(await openPasswordReset(db, made!.token)).toEqual({ username: user.username });

    expect(await createPasswordReset(db, `nobody-${name()}@mail.example`)).toBeNull();
    expect(await createPasswordReset(db, '')).toBeNull();
    const inactive = await account();
    await db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    expect(await createPasswordReset(db, inactive.email)).toBeNull();
  });

  it('mails one address only so often in a window', async () => {
    const user = await account();
    const made = [];
    for (let i = 0; i < RESET_MAILS_PER_ADDRESS + 2; i++) made.push(await createPasswordReset(database.db, user.email));
    expect(made.map((m) => m !== null)).toEqual([...Array(RESET_MAILS_PER_ADDRESS).fill(true), false, false]);
  });

  it('sets the password once: the link and every other link of the account are spent, every session ends', async () => {
    const { db } = database;
    const user = await account();
    const session = await createSession(db, user.id);
    const first = (await createPasswordReset(db, user.email))!;
    const second = (await createPasswordReset(db, user.email))!;

    // A refused password changes nothing and leaves the link working.
    await expectApiError(resetPassword(db, first.token, 'short'), 400, /at least 10 characters/);
    expect(await openPasswordReset(db, first.token)).not.toBeNull();
    expect(await sessionViewer(db, session)).not.toBeNull();

    // Two at once: exactly one sets its password.
    const outcomes = await Promise.allSettled([resetPassword(db, first.token, NEW_PASSWORD), resetPassword(db, first.token, 'the other new password')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(PasswordResetClosed);
    const winner = outcomes[0].status === 'fulfilled' ? NEW_PASSWORD : 'the other new password';
    expect(await verifyPassword((await getUserById(db, user.id))?.passwordHash, winner)).toBe(true);
    expect(await sessionViewer(db, session)).toBeNull();

    for (const token of [first.token, second.token]) {
      expect(await openPasswordReset(db, token)).toBeNull();
      await expect(resetPassword(db, token, 'yet another password')).rejects.toBeInstanceOf(PasswordResetClosed);
    }
    expect(await verifyPassword((await getUserById(db, user.id))?.passwordHash, winner)).toBe(true);
  });

  it('refuses an expired link and tokens that are no link', async () => {
    const { db } = database;
    const user = await account();
    const made = (await createPasswordReset(db, user.email))!;
    await db.update(passwordResets).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResets.userId, user.id));
    expect(await openPasswordReset(db, made.token)).toBeNull();
    await expect(resetPassword(db, made.token, NEW_PASSWORD)).rejects.toBeInstanceOf(PasswordResetClosed);
    for (const token of ['', 'x', 'A'.repeat(43), `${made.token}=`]) {
      expect(await openPasswordReset(db, token)).toBeNull();
      await expect(resetPassword(db, token, NEW_PASSWORD)).rejects.toBeInstanceOf(PasswordResetClosed);
    }
    expect(await verifyPassword((await getUserById(db, user.id))?.passwordHash, 'the old password')).toBe(true);
  });
});
