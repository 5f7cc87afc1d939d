// Proof of an address, on PostgreSQL and PGlite: an address typed at sign-up (unconfirmed) holds
// nothing: it does not block an invitation or another sign-up to it, receives no reset mail, and
// signs nothing in; its link, used once, makes it the account's, and accounts that only typed it
// lose it; another account confirming it first leaves the link's account without it; a table of
// what each kind of address does.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { checkSignIn } from '@/lib/core/accounts/credentials';
import { confirmEmail, EmailConfirmationClosed, EmailTaken, issueEmailConfirmation, openEmailConfirmation } from '@/lib/core/accounts/email-confirmations';
import { acceptInvitation, createInvitation } from '@/lib/core/accounts/invitations';
import { createPasswordReset } from '@/lib/core/accounts/password-resets';
import { createUser, getUserById, getUserByLogin } from '@/lib/core/accounts/users';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError } from './_helpers';

const name = () => `e${randomBytes(4).toString('hex')}`;
const PASSWORD = 'a long enough password';

describe.each(SQL_DRIVER)('email confirmations (%s)', (driver) => {
  const database = useDatabase(driver);
  const address = () => `${name()}@Mail.example`;

  it('an unconfirmed address holds nothing: no reset mail, no sign-in by it, no block on an invitation or a sign-up', async () => {
    const { db } = database;
    const email = address();
    const { user: stranger } = await createUser(db, { username: name(), email, password: PASSWORD, emailConfirmed: false });
    expect(stranger.emailConfirmedAt).toBeNull();
    expect(await createPasswordReset(db, email), 'no reset mail to an unconfirmed address').toBeNull();
    expect(await getUserByLogin(db, email)).toBeUndefined();
    expect('wrong' in (await checkSignIn(db, new Headers({ 'x-forwarded-for': '10.9.9.9' }), email, PASSWORD))).toBe(true);

    // Another sign-up with the address goes through too (also unconfirmed).
    const { user: other } = await createUser(db, { username: name(), email: email.toUpperCase(), password: PASSWORD, emailConfirmed: false });
    expect(other.email).toBe(email.toUpperCase());

    // The person's invitation to that address goes through, and the address is theirs alone now.
    const { token } = await createInvitation(db, email);
    const { user: invited } = await acceptInvitation(db, token, { username: name(), password: PASSWORD });
    expect(invited.emailConfirmedAt).not.toBeNull();
    expect((await getUserById(db, stranger.id))!.email).toBe('');
    expect((await getUserById(db, other.id))!.email).toBe('');
    expect((await getUserByLogin(db, email))!.id).toBe(invited.id);
    expect((await createPasswordReset(db, email))!.username).toBe(invited.username);
    // A confirmed address is held: a later sign-up with it is refused, as before.
    await expectApiError(createUser(db, { username: name(), email, password: PASSWORD, emailConfirmed: false }), 400, /already exists/);
  });

  it('a link confirms the address it was sent to, once; then it counts and accounts that only typed it lose it', async () => {
    const { db } = database;
    const email = address();
    const { user } = await createUser(db, { username: name(), email, password: PASSWORD, emailConfirmed: false });
    const { user: copycat } = await createUser(db, { username: name(), email, password: PASSWORD, emailConfirmed: false });
    const link = (await issueEmailConfirmation(db, user.id))!;
    expect(link).toMatchObject({ username: user.username, email });
    expect(await openEmailConfirmation(db, link.token)).toEqual({ username: user.username, email });

    const both = await Promise.allSettled([confirmEmail(db, link.token), confirmEmail(db, link.token)]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(EmailConfirmationClosed);
    expect((await getUserById(db, user.id))!.emailConfirmedAt).not.toBeNull();
    expect((await getUserById(db, copycat.id))!.email).toBe('');
    expect(await openEmailConfirmation(db, link.token)).toBeNull();
    expect(await issueEmailConfirmation(db, user.id), 'nothing left to confirm').toBeNull();
    expect((await createPasswordReset(db, email))!.username).toBe(user.username);
    expect((await getUserByLogin(db, email))!.id).toBe(user.id);
  });

  it('another account confirming first leaves the link refused and nothing changed', async () => {
    const { db } = database;
    const email = address();
    const { user: a } = await createUser(db, { username: name(), email, password: PASSWORD, emailConfirmed: false });
    const { user: b } = await createUser(db, { username: name(), email, password: PASSWORD, emailConfirmed: false });
    const [la, lb] = [(await issueEmailConfirmation(db, a.id))!, (await issueEmailConfirmation(db, b.id))!];
    await confirmEmail(db, la.token);
    // b lost the address when a confirmed it: its link no longer confirms anything.
    expect(await openEmailConfirmation(db, lb.token)).toBeNull();
    await expect(confirmEmail(db, lb.token)).rejects.toBeInstanceOf(EmailConfirmationClosed);

    // An account that kept the address while another confirmed it (a race) is refused at its link.
    const { user: c } = await createUser(db, { username: name(), email: address(), password: PASSWORD, emailConfirmed: false });
    const lc = (await issueEmailConfirmation(db, c.id))!;
    await queryRows(db, sql`UPDATE users SET email = ${lc.email}, email_confirmed_at = now() WHERE id = ${a.id}`);
    await expect(confirmEmail(db, lc.token)).rejects.toBeInstanceOf(EmailTaken);
    expect((await getUserById(db, c.id))!.emailConfirmedAt).toBeNull();
  });

  it('sends an account only a few links a window, and refuses tokens that are no link', async () => {
    const { db } = database;
    const { user } = await createUser(db, { username: name(), email: address(), emailConfirmed: false });
    const links = [];
    for (let i = 0; i < 4; i++) links.push(await issueEmailConfirmation(db, user.id));
    expect(links.filter(Boolean)).toHaveLength(3);
    for (const token of ['', 'x', 'A'.repeat(43), `${links[0]!.token}x`]) {
      expect(await openEmailConfirmation(db, token)).toBeNull();
      await expect(confirmEmail(db, token)).rejects.toBeInstanceOf(EmailConfirmationClosed);
    }
    await queryRows(db, sql`UPDATE email_confirmations SET expires_at = now() - interval '1 second' WHERE user_id = ${user.id}`);
    await expect(confirmEmail(db, links[0]!.token)).rejects.toBeInstanceOf(EmailConfirmationClosed);
  });

  it('accounts made without the flag (operator, invitations, sign-up without mail) count their address at once', async () => {
    const { db } = database;
    const email = address();
    const { user } = await createUser(db, { username: name(), email, password: PASSWORD });
    expect(user.emailConfirmedAt).not.toBeNull();
    expect(await issueEmailConfirmation(db, user.id)).toBeNull();
    await expectApiError(createUser(db, { username: name(), email }), 400, /already exists/);
  });
});
