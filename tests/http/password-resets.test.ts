// "Forgot password?" over HTTP, against a real SMTP server the test starts (tests/support/smtp.ts):
// two app processes on one database send the link and take the new password (all state in
// Postgres); the answer is the same for an address with no account, which gets no mail; a link works
// once and not after it expires; without mail configured the page says to ask the operator. With open sign-up,
// an address typed at sign-up gets no reset mail until its owner confirms it with the mailed link
// (a POST from the link's page; opening the link confirms nothing), and does not stop an invitation
// to it. A comment mails the plot's owner (lib/core/files/notifications.ts's outbox, sent after the answer).
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { passwordResets } from '@/db/schema';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createInvitation } from '@/lib/core/accounts/invitations';
import { createSession } from '@/lib/core/accounts/sessions';
import { createUser } from '@/lib/core/accounts/users';
import { createPlot } from '@/lib/core/plots/plots';
import { startSmtpServer } from '../support/smtp';
import { createMigratedDatabase } from '../support/postgres';

const PASSWORD = 'the password I forgot';
const NEW_PASSWORD = 'a password I will remember';
const PER_ADDRESS = 4;

const name = () => `r${randomBytes(4).toString('hex')}`;
const address = () => `10.${randomBytes(3).join('.')}`;

describe('forgotten password, by mail', () => {
  const dbName = createDatabaseName('resets');
  let database: Database;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const apps: Awaited<ReturnType<typeof startServer>>[] = [];
  let noMail: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    await createMigratedDatabase(dbName);
    database = await openDatabase(adminUrl(dbName));
    smtp = await startSmtpServer();
    const env = {
      DATABASE_URL: adminUrl(dbName),
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      TRUST_PROXY: '1',
      RESET_REQUESTS_PER_ADDRESS: String(PER_ADDRESS),
      SIGNUP: 'open',
    };
    [apps[0], apps[1], noMail] = await Promise.all([
      startServer((url) => ({ ...env, SMTP_URL: smtp.url, PUBLIC_URL: url })),
      startServer((url) => ({ ...env, SMTP_URL: smtp.url, PUBLIC_URL: url })),
      // SMTP_URL without PUBLIC_URL: mail stays off (links are never built on a request's Host).
      startServer({ ...env, SMTP_URL: smtp.url, PUBLIC_URL: '' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([...apps, noMail].filter(Boolean).map((a) => a.stop()));
    await smtp?.close();
    await database?.close();
    await dropDatabase(dbName);
  });

  async function post(base: string, path: string, fields: Record<string, string>, opts: { from?: string; origin?: string } = {}) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': opts.from ?? address(), Origin: opts.origin ?? base },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
  }
  const get = async (base: string, path: string, cookie?: string) => {
    const res = await fetch(`${base}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };
  const signIn = (base: string, username: string, password: string) => post(base, '/signin/submit', { username, password });

  async function account() {
    const username = name();
    const email = `${username}@mail.example`;
    const { user } = await createUser(database.db, { username, email, password: PASSWORD });
    return { user, username, email };
  }

  it('mails a one-time link that sets a new password on another process, ends every session, and signs in', async () => {
    const { user, username, email } = await account();
    const session = await createSession(database.db, user.id);
    expect((await get(apps[0].url, '/signin')).text).toContain('href="/forgot-password"');
    expect((await get(apps[0].url, '/forgot-password')).status).toBe(200);

    const seen = smtp.mails.length;
    const asked = await post(apps[0].url, '/forgot-password/submit', { email: email.toUpperCase() });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe('/forgot-password?sent=1');
    expect((await get(apps[0].url, asked.location!)).text).toContain('If an account uses that address, we sent a link to it.');

    const mail = await smtp.mailTo(email, seen);
    expect(mail.from).toBe('no-reply@127.0.0.1');
    expect(mail.raw).toMatch(/^Subject: Reset your password at 127\.0\.0\.1:\d+$/m);
    expect(mail.text).toContain(`the account ${username} at ${apps[0].url}`);
    const link = mail.text.match(/^(http\S+)$/m)?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^${apps[0].url}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    const path = link.slice(apps[0].url.length);
    const token = new URL(link).searchParams.get('token')!;

    // The other process opens it: the link goes on to its form.
    const opened = await get(apps[1].url, path);
    expect(opened.status).toBe(303);
    expect(opened.location).toBe(`/reset-password/new?token=${token}`);
    const page = await get(apps[1].url, opened.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Choose a new password');
    expect(page.text).toContain(`<strong>${username}</strong>`);

    // A refused password comes back at its field, and the link still works.
    const short = await post(apps[1].url, '/reset-password/submit', { token, password: 'short', password2: 'short' });
    expect(short.location).toBe(`/reset-password/new?token=${token}&error=password`);
    const differ = await post(apps[1].url, '/reset-password/submit', { token, password: NEW_PASSWORD, password2: `${NEW_PASSWORD}!` });
    expect(differ.location).toBe(`/reset-password/new?token=${token}&error=mismatch`);
    // The link itself with an error code (as a form sent back) goes on to the form with it.
    expect((await get(apps[1].url, `${path}&error=mismatch`)).location).toBe(differ.location);
    const shown = (await get(apps[1].url, differ.location!)).text;
    const input = /<input\b[^>]*\bname="password2"[^>]*>/.exec(shown)?.[0];
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="password2-error"');
    expect(shown).toContain('The two passwords differ.');

    const done = await post(apps[1].url, '/reset-password/submit', { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/signin?reset=1');
    expect((await get(apps[0].url, '/signin?reset=1')).text).toContain('Your password is changed');

    // Every session ended; the new password signs in, the old one no longer does.
    expect((await get(apps[0].url, '/v2/users/current', `pf_session=${session}`)).status).toBe(401);
    const signedIn = await signIn(apps[0].url, username, NEW_PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toContain('pf_session=');
    expect((await signIn(apps[0].url, username, PASSWORD)).location).toContain('error=wrong');

    // The link worked once: it answers 410 now, and so does its form's page (sent back to the link).
    const spent = await get(apps[0].url, path);
    expect(spent.status).toBe(410);
    expect(spent.text).toContain('This link no longer works');
    const form = await get(apps[0].url, `/reset-password/new?token=${token}`);
    expect([form.status, form.location]).toEqual([307, path]);
    const reuse = await post(apps[0].url, '/reset-password/submit', { token, password: 'yet another password', password2: 'yet another password' });
    expect(reuse.status).toBe(410);
    expect((await signIn(apps[0].url, username, NEW_PASSWORD)).status).toBe(303);
    expect((await signIn(apps[0].url, username, 'yet another password')).location).toContain('error=wrong');
  });

  it('answers an address with no account the same, and mails nothing', async () => {
    const { email } = await account();
    const nobody = `${name()}@mail.example`;
    const seen = smtp.mails.length;
    const unknown = await post(apps[0].url, '/forgot-password/submit', { email: nobody });
    const known = await post(apps[1].url, '/forgot-password/submit', { email });
    expect(unknown.status).toBe(303);
    expect([unknown.location, unknown.text]).toEqual([known.location, known.text]);
    await smtp.mailTo(email, seen);
    // The unknown address was asked about first; give its lookup as long again as the known one's mail took.
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.mails.slice(seen).flatMap((m) => m.to)).toEqual([email]);
  });

  it('refuses an expired link, an unknown one, a bad address and a post from another site', async () => {
    const { user, username, email } = await account();
    const seen = smtp.mails.length;
    await post(apps[0].url, '/forgot-password/submit', { email });
    const token = new URL((await smtp.mailTo(email, seen)).text.match(/^(http\S+)$/m)![1]).searchParams.get('token')!;
    await database.db.update(passwordResets).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResets.userId, user.id));
    const expired = await get(apps[0].url, `/reset-password?token=${token}`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This link no longer works');
    expect((await post(apps[0].url, '/reset-password/submit', { token, password: NEW_PASSWORD, password2: NEW_PASSWORD })).status).toBe(410);
    expect((await signIn(apps[0].url, username, PASSWORD)).status).toBe(303);
    for (const unknown of [`/reset-password?token=${'A'.repeat(43)}`, '/reset-password?token=short', '/reset-password', '/reset-password?token=a&token=b']) {
      const got = await get(apps[0].url, unknown);
      expect(got.status, unknown).toBe(410);
      expect(got.text).toContain('This link no longer works');
    }
    for (const forged of ['A'.repeat(43), 'short', '']) {
      expect((await post(apps[0].url, '/reset-password/submit', { token: forged, password: NEW_PASSWORD, password2: NEW_PASSWORD })).status).toBe(410);
    }
    const bad = await post(apps[0].url, '/forgot-password/submit', { email: 'not-an-address' });
    expect(bad.location).toBe('/forgot-password?error=email');
    expect((await get(apps[0].url, bad.location!)).text).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="email-error"/);
    const before = smtp.mails.length;
    expect((await post(apps[0].url, '/forgot-password/submit', { email }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(
      (await post(apps[0].url, '/reset-password/submit', { token, password: NEW_PASSWORD, password2: NEW_PASSWORD }, { origin: 'https://evil.example' }))
        .status,
    ).toBe(403);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.length).toBe(before);
  });

  it('throttles requests from one address, counted by both processes together', async () => {
    const from = address();
    const statuses = [];
    for (let i = 0; i <= PER_ADDRESS; i++)
      statuses.push((await post(apps[i % 2].url, '/forgot-password/submit', { email: `${name()}@mail.example` }, { from })).status);
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(303), 429]);
  });

  const confirmLink = async (email: string, seen: number) => {
    const mail = await smtp.mailTo(email, seen);
    expect(mail.raw).toMatch(/^Subject: Confirm your address at 127\.0\.0\.1:\d+$/m);
    const link = mail.text.match(/^(http\S+)$/m)?.[1] ?? '';
    expect(link).toMatch(/\/confirm-email\?token=[A-Za-z0-9_-]{43}$/);
    return { mail, path: new URL(link).pathname + new URL(link).search, token: new URL(link).searchParams.get('token')! };
  };
  const signUp = (username: string, email: string) =>
    post(apps[0].url, '/signup/submit', { username, email, password: PASSWORD, password2: PASSWORD }, { from: address() });
  /** Asks for reset mail for `unconfirmed` first, then for a confirmed address; once that one's mail is in, what went where. */
  async function resetMailsTo(unconfirmed: string): Promise<string[]> {
    const { email: known } = await account();
    const seen = smtp.mails.length;
    await post(apps[0].url, '/forgot-password/submit', { email: unconfirmed });
    await post(apps[1].url, '/forgot-password/submit', { email: known });
    await smtp.mailTo(known, seen);
    await new Promise((r) => setTimeout(r, 1000));
    return smtp.mails
      .slice(seen)
      .flatMap((m) => m.to)
      .filter((to) => to !== known);
  }

  it('an address given at open sign-up gets no reset mail until confirmed; its link confirms on a POST, once, from any process', async () => {
    const username = name();
    const email = `${username}@mail.example`;
    const seen = smtp.mails.length;
    const made = await signUp(username, email);
    expect(made.status, made.text).toBe(303);
    expect(made.location).toBe('/settings?welcome=1');
    const cookie = made.headers.get('set-cookie')!.match(/pf_session=[^;]+/)![0];
    const { mail, path, token } = await confirmLink(email, seen);
    expect(mail.text).toContain(`the account ${username} at ${apps[0].url}`);
    expect((await get(apps[0].url, '/settings', cookie)).text).toContain('is not confirmed yet');
    expect(await resetMailsTo(email)).toEqual([]);

    // Opening the link only asks.
    const page = await get(apps[1].url, path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<strong>${email}</strong>`);
    expect(page.text).toContain('>Confirm</button>');
    expect(await resetMailsTo(email)).toEqual([]);
    expect((await post(apps[1].url, '/confirm-email/submit', { token }, { origin: 'https://evil.example' })).status).toBe(403);

    const done = await post(apps[1].url, '/confirm-email/submit', { token });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/confirm-email?done=1');
    expect((await get(apps[0].url, '/settings', cookie)).text).not.toContain('is not confirmed yet');
    expect(await resetMailsTo(email)).toEqual([email]);
    expect((await post(apps[0].url, '/confirm-email/submit', { token })).status).toBe(410);
    expect((await get(apps[0].url, path)).text).toContain('This link no longer works');
    expect((await post(apps[0].url, '/confirm-email/submit', { token: 'A'.repeat(43) })).status).toBe(410);
  });

  it("a stranger who signs up first with someone's address neither blocks their invitation nor keeps the address", async () => {
    const email = `${name()}@mail.example`;
    const seen = smtp.mails.length;
    expect((await signUp(name(), email)).status).toBe(303);
    const stranger = await confirmLink(email, seen);
    // A second sign-up with the unconfirmed address is not refused either.
    expect((await signUp(name(), email.toUpperCase())).location).toBe('/settings?welcome=1');

    const { token } = await createInvitation(database.db, email);
    const invitee = name();
    const accepted = await post(apps[1].url, '/signup/submit', { invite: token, username: invitee, password: PASSWORD, password2: PASSWORD });
    expect(accepted.status, accepted.text).toBe(303);
    expect(accepted.location).toBe('/settings?welcome=1');
    // The invited account holds the address: the stranger's link confirms nothing, reset mail names the invitee.
    expect((await post(apps[0].url, '/confirm-email/submit', { token: stranger.token })).status).toBe(410);
    const before = smtp.mails.length;
    await post(apps[0].url, '/forgot-password/submit', { email });
    expect((await smtp.mailTo(email, before)).text).toContain(`the account ${invitee} at`);
    expect((await signUp(name(), email)).location).toBe('/signup?error=email-taken');
  });

  it("a comment mails the plot's owner (confirmed address) after the answer, never the one who commented", async () => {
    const owner = await account();
    const { user: commenter, apiKey } = await createUser(database.db, { username: name(), email: `${name()}@mail.example` });
    const plot = JSON.parse(
      await createPlot(database.db, owner.user, { figure: { data: [{ type: 'bar' }] }, world_readable: true, filename: 'Mailed chart' }, apps[0].url),
    ).file;
    const seen = smtp.mails.length;
    const res = await fetch(`${apps[1].url}/v2/plots/${plot.fid}/comments`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${commenter.username}:${apiKey}`).toString('base64')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Where is this from?' }),
    });
    expect(res.status).toBe(201);
    const mail = await smtp.mailTo(owner.email, seen);
    expect(mail.text).toContain(`${commenter.username} commented on your plot `);
    expect(mail.text).toContain(`${apps[1].url}/~${owner.username}/${plot.fid.split(':')[1]}/`);
    expect(smtp.mails.slice(seen).map((m) => m.to.join())).toEqual([owner.email]);
  });

  it('without mail configured (no PUBLIC_URL for the links), "Forgot password?" says to ask the operator, and no mail is offered', async () => {
    expect((await get(noMail.url, '/signin')).text).toContain('href="/forgot-password"');
    const page = await get(noMail.url, '/forgot-password');
    expect(page.status).toBe(200);
    expect(page.text).toContain('npm run user:reset-password');
    expect(page.text).not.toContain('/forgot-password/submit');
    expect((await post(noMail.url, '/forgot-password/submit', { email: 'someone@mail.example' })).status).toBe(404);
  });
});
