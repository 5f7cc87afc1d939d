// Accounts over HTTP, on app processes of their own (one database): password sign-in and its
// throttling (429 + Retry-After: a pair of address and account slows down, an address and an account
// have ceilings, counted together by two processes), where a sign-in goes back to, sign-up closed by
// default / open with SIGNUP=open / by invitation, and the /settings forms.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createInvitation } from '@/lib/core/accounts/invitations';
import { createUser, getUserByUsername } from '@/lib/core/accounts/users';
import { basic } from '../support/api';
import { createMigratedDatabase } from '../support/postgres';

const BEFORE_DELAY = 2;
const PER_ACCOUNT = 4;
const PER_ADDRESS = 6;
const PASSWORD = 'a long enough password';

const name = () => `h${randomBytes(4).toString('hex')}`;
const address = () => `10.${randomBytes(3).join('.')}`;

describe('accounts', () => {
  const dbName = createDatabaseName('accounts');
  let database: Database;
  /** Two processes with open sign-up, one with the default (closed). */
  const open: Awaited<ReturnType<typeof startServer>>[] = [];
  let closed: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    await createMigratedDatabase(dbName);
    database = await openDatabase(adminUrl(dbName));
    const env = {
      DATABASE_URL: adminUrl(dbName),
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      TRUST_PROXY: '1',
      SIGNIN_FAILURES_BEFORE_DELAY: String(BEFORE_DELAY),
      SIGNIN_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
      SIGNIN_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
      SIGNUPS_PER_ADDRESS: '3',
      // Windows are fixed (aligned to the epoch): a run of attempts must not cross one's end and count afresh.
      SIGNIN_WINDOW_SECONDS: String(365 * 86_400),
    };
    [open[0], open[1], closed] = await Promise.all([
      startServer({ ...env, SIGNUP: 'open' }),
      startServer({ ...env, SIGNUP: 'open' }),
      startServer({ ...env, SIGNUP: '' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([...open, closed].filter(Boolean).map((a) => a.stop()));
    await database?.close();
    await dropDatabase(dbName);
  });

  /** A form post as a browser on our page sends it (Origin ours, unless given), from `from`. */
  async function post(
    base: string,
    path: string,
    fields: Record<string, string>,
    opts: { from?: string; origin?: string | null; cookie?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': opts.from ?? address(), ...opts.headers };
    if (opts.origin !== null) headers.Origin = opts.origin ?? base;
    if (opts.cookie) headers.Cookie = opts.cookie;
    const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields), redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
  const signIn = (fields: Record<string, string>, opts: { from?: string; origin?: string | null; app?: number } = {}) =>
    post(open[opts.app ?? 0].url, '/signin/submit', fields, opts);
  const sessionOf = (headers: Headers) => /pf_session=([^;]+)/.exec(headers.get('set-cookie') ?? '')?.[1];
  /** A Set-Cookie header's attributes but when the cookie ends (Max-Age, Expires), as a browser reads them (in any case and order). */
  const cookieFlags = (header: string | null) =>
    (header ?? '')
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase())
      .filter((a) => !/^(max-age|expires)=/.test(a))
      .sort();
  const get = (base: string, path: string, cookie?: string) =>
    fetch(`${base}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' }).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      text: await r.text(),
    }));

  async function account(opts: { password?: boolean } = {}) {
    const username = name();
    const { apiKey } = await createUser(database.db, { username, email: `${username}@example.org`, password: opts.password === false ? undefined : PASSWORD });
    return { username, apiKey, email: `${username}@example.org` };
  }

  it('signs in with a password (by username or email) or the API key: 303 to `next` with the session cookie', async () => {
    const user = await account();
    for (const [login, secret] of [
      [user.username, PASSWORD],
      [user.email.toUpperCase(), PASSWORD],
      [user.username, user.apiKey],
    ]) {
      const res = await signIn({ username: login, password: secret, next: '/feed?x=1' });
      expect(res.status, `${login}`).toBe(303);
      expect(res.headers.get('location')).toBe('/feed?x=1');
      expect(res.headers.get('set-cookie')).toMatch(/^pf_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
      const me = await get(open[1].url, '/v2/users/current', `pf_session=${sessionOf(res.headers)}`);
      expect(JSON.parse(me.text)).toMatchObject({ username: user.username, has_password: true });
    }
    // No `next`, or one a browser would follow off the site (tests/hardening/sign-in-abuse.test.ts
    // runs the whole table): the person's profile.
    for (const next of [
      '',
      'https://evil.example/',
      '//evil.example/x',
      '/..//evil.example/phish',
      '/%2e%2e//evil.example/',
      '/a/../..//evil.example/',
      '/%5c%5cevil.example/',
    ]) {
      const res = await signIn({ username: user.username, password: PASSWORD, next });
      expect(res.headers.get('location'), next).toBe(`/~${user.username}/`);
    }
    // A `next` is normalized as a browser reads it, and that is where the redirect goes.
    expect((await signIn({ username: user.username, password: PASSWORD, next: '/a/%2e%2e/feed' })).headers.get('location')).toBe('/feed');
  });

  it('sign-out clears the session cookie with the flags sign-in set it with, Secure over https (behind a proxy saying so)', async () => {
    const user = await account();
    const base = open[0].url;
    for (const https of [false, true]) {
      const opts = https ? { origin: base.replace(/^http:/, 'https:'), headers: { 'X-Forwarded-Proto': 'https' } } : {};
      const signedIn = await post(base, '/signin/submit', { username: user.username, password: PASSWORD }, opts);
      expect(signedIn.status).toBe(303);
      const set = signedIn.headers.get('set-cookie');
      expect(cookieFlags(set), `https: ${https}`).toEqual(['httponly', 'path=/', 'samesite=lax', ...(https ? ['secure'] : [])]);
      const signedOut = await post(base, '/signout', {}, { ...opts, cookie: `pf_session=${sessionOf(signedIn.headers)}` });
      expect(signedOut.status).toBe(303);
      const cleared = signedOut.headers.get('set-cookie');
      expect(cleared).toMatch(/^pf_session=;/);
      expect(cleared).toMatch(/; Max-Age=0(;|$)/);
      expect(cookieFlags(cleared), `https: ${https}`).toEqual(cookieFlags(set));
    }
  });

  it('/signin carries only a `next` it would follow', async () => {
    const hidden = (html: string) => /<input type="hidden" name="next" value="([^"]*)"/.exec(html)?.[1];
    expect(hidden((await get(open[0].url, `/signin?next=${encodeURIComponent('/~ann/3/?x=1')}`)).text)).toBe('/~ann/3/?x=1');
    for (const next of ['/..//evil.example/phish', '//evil.example/', '/%5C%5Cevil.example/']) {
      const page = await get(open[0].url, `/signin?next=${encodeURIComponent(next)}`);
      expect(page.status).toBe(200);
      expect(hidden(page.text), next).toBe('');
    }
  });

  it('wrong credentials go back to /signin with an error code, which the page words (and nothing else is echoed)', async () => {
    const user = await account();
    const wrong = await signIn({ username: user.username, password: 'not the password', next: '/feed' });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe('/signin?error=wrong&next=%2Ffeed');
    // No session; only the name typed, kept for the sign-in page alone (never the secret).
    const draft = wrong.headers.get('set-cookie') ?? '';
    expect(sessionOf(wrong.headers)).toBeUndefined();
    expect(draft).toMatch(/^pf_signin=[^;]+; Path=\/signin; Max-Age=600; HttpOnly; SameSite=Lax/);
    expect(Buffer.from(/^pf_signin=([^;]+)/.exec(draft)![1], 'base64url').toString()).not.toContain('not the password');
    const missing = await signIn({ username: user.username });
    expect(missing.headers.get('location')).toBe('/signin?error=missing');
    const page = await get(open[0].url, '/signin?error=wrong&next=%2Ffeed', draft.split(';')[0]);
    expect(page.text).toContain('do not match');
    // A wrong password keeps the username in its field.
    expect(page.text).toMatch(new RegExp(`name="username"[^>]*value="${user.username}"`));
    // Only after a refusal: a later visit starts empty.
    expect((await get(open[0].url, '/signin', draft.split(';')[0])).text).not.toMatch(/name="username"[^>]*value="[^"]/);
    const hostile = await get(open[0].url, `/signin?error=${encodeURIComponent('<b>pwned</b>')}`);
    expect(hostile.status).toBe(200);
    // (The address itself is in Next's flight data, escaped; the page's content never shows it.)
    const main = /<main\b[\s\S]*?<\/main>/.exec(hostile.text)![0];
    expect(main).not.toContain('pwned');
    expect(main).not.toContain('role="alert"');
  });

  it('refuses a sign-in or sign-up posted from another site (login CSRF)', async () => {
    const user = await account();
    for (const origin of ['https://evil.example', null]) {
      const res = await signIn({ username: user.username, password: PASSWORD }, { origin });
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(
        (await post(open[0].url, '/signup/submit', { username: name(), email: `${name()}@x.org`, password: PASSWORD, password2: PASSWORD }, { origin })).status,
      ).toBe(403);
    }
  });

  it('slows a guesser down on its address, while the person signs in from theirs: 429 with a Retry-After of seconds', async () => {
    const user = await account();
    const stranger = address();
    for (let i = 0; i < BEFORE_DELAY; i++)
      expect((await signIn({ username: user.username, password: `guess ${i}` }, { from: stranger, app: i % 2 })).status).toBe(303);
    // The next guess at once, by any name of the account, even the right password or key: wait a second.
    for (const [login, secret] of [
      [user.email, 'guess again'],
      [user.username, PASSWORD],
      [user.username, user.apiKey],
    ]) {
      const res = await signIn({ username: login, password: secret, next: '/feed' }, { from: stranger, app: 1 });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toMatch(/Try again in 1 second \(at \d\d:\d\d UTC\)/);
      expect(res.text).toContain('href="/signin?error=throttled&amp;next=%2Ffeed"');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect((await get(open[0].url, '/signin?error=throttled')).text).toContain('the last one was not checked');
    // Meanwhile the person, from their own address, by password and by key.
    const home = address();
    expect((await signIn({ username: user.username, password: PASSWORD }, { from: home })).status).toBe(303);
    expect((await signIn({ username: user.email, password: user.apiKey }, { from: home, app: 1 })).headers.get('set-cookie')).toMatch(/^pf_session=/);
    // The guesser, once it waited, is checked again: one more failure, and a longer wait. (Its second
    // passes without sleeping: the pair's last failure is moved a second into the past.)
    await database.db.execute(
      sql`UPDATE rate_limits SET window_start = window_start - interval '1 second' WHERE key LIKE 'signin:pair:%' AND key LIKE ${`%:${stranger}`}`,
    );
    expect((await signIn({ username: user.username, password: 'guess after waiting' }, { from: stranger })).headers.get('location')).toBe(
      '/signin?error=wrong',
    );
    expect((await signIn({ username: user.username, password: PASSWORD }, { from: stranger })).headers.get('retry-after')).toBe('2');
  });

  it("throttles failures on one account from many addresses at a ceiling (either process): 429 even for the right password, but not from the person's known address", async () => {
    const user = await account();
    const home = address();
    expect((await signIn({ username: user.username, password: PASSWORD }, { from: home })).status).toBe(303);
    for (let i = 0; i < PER_ACCOUNT; i++) {
      expect((await signIn({ username: user.username, password: `wrong ${i}` }, { app: i % 2 })).status).toBe(303);
    }
    const res = await signIn({ username: user.email, password: PASSWORD }, { app: 1 });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.text).toMatch(/Try again in \d+ (seconds?|minutes?|hours?|days?) \(at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)/);
    expect(res.headers.get('set-cookie')).toBeNull();
    // From home, by either process, the person signs in.
    for (const app of [0, 1]) expect((await signIn({ username: user.username, password: PASSWORD }, { from: home, app })).status).toBe(303);
    // Another account from the same addresses is not affected.
    const other = await account();
    expect((await signIn({ username: other.username, password: PASSWORD })).status).toBe(303);
  });

  it('answers a name that is no account exactly as a wrong password', async () => {
    const user = await account();
    const answers = await Promise.all(
      [user.username, user.email, name(), `${name()}@example.org`].map((login) => signIn({ username: login, password: 'not the password', next: '/feed' })),
    );
    for (const a of answers) {
      expect(a.status).toBe(303);
      expect(a.headers.get('location')).toBe('/signin?error=wrong&next=%2Ffeed');
      // No session for either; the same draft of the name typed for both.
      expect(sessionOf(a.headers)).toBeUndefined();
      expect(a.headers.get('set-cookie')).toMatch(/^pf_signin=[^;]+; Path=\/signin; Max-Age=600; HttpOnly; SameSite=Lax$/);
      expect(a.text).toBe('');
    }
  });

  it('throttles failures from one address across accounts; right answers do not count', async () => {
    const here = address();
    const user = await account();
    for (let i = 0; i < PER_ADDRESS + 2; i++) expect((await signIn({ username: user.username, password: PASSWORD }, { from: here })).status).toBe(303);
    for (let i = 0; i < PER_ADDRESS; i++) expect((await signIn({ username: name(), password: 'guess guess' }, { from: here, app: i % 2 })).status).toBe(303);
    const res = await signIn({ username: user.username, password: PASSWORD }, { from: here });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn({ username: user.username, password: PASSWORD }, { from: address() })).status).toBe(303);
  });

  it('sign-up is closed by default: /signup is a 404, and so is a post', async () => {
    expect((await get(closed.url, '/signup')).status).toBe(404);
    const res = await post(closed.url, '/signup/submit', { username: name(), email: `${name()}@x.org`, password: PASSWORD, password2: PASSWORD });
    expect(res.status).toBe(404);
    expect(res.text).toContain('Sign-up is closed');
    const signin = await get(closed.url, '/signin');
    expect(signin.text).not.toContain('href="/signup"');
    expect((await get(open[0].url, '/signin')).text).toContain('href="/signup"');
  });

  it('open sign-up makes the account, signs it in and goes to /settings; refused fields come back as codes', async () => {
    expect((await get(open[0].url, '/signup')).status).toBe(200);
    const username = name();
    const email = `${username}@Example.org`;
    const from = address();
    const made = await post(open[0].url, '/signup/submit', { username, email, password: PASSWORD, password2: PASSWORD }, { from });
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe('/settings?welcome=1');
    expect(made.headers.get('set-cookie')).toContain('pf_signup=; Path=/signup; Max-Age=0');
    const cookie = `pf_session=${sessionOf(made.headers)}`;
    expect(JSON.parse((await get(open[1].url, '/v2/users/current', cookie)).text)).toMatchObject({ username, email, has_password: true });
    const settings = await get(open[1].url, '/settings?welcome=1', cookie);
    expect(settings.status).toBe(200);
    expect(settings.text).toMatch(new RegExp(`Welcome, (<!-- -->)?${username}`));
    expect((await signIn({ username: email.toLowerCase(), password: PASSWORD })).status).toBe(303);

    const cases: [Record<string, string>, string][] = [
      [{ username: username.toUpperCase(), email: `${name()}@x.org` }, 'username-taken'],
      [{ username: name(), email: email.toUpperCase() }, 'email-taken'],
      [{ username: '-bad name', email: `${name()}@x.org` }, 'username'],
      [{ username: name(), email: 'not-an-address' }, 'email'],
      [{ username: name(), email: `${name()}@x.org`, password: 'short', password2: 'short' }, 'password'],
      [{ username: name(), email: `${name()}@x.org`, password2: `${PASSWORD}!` }, 'mismatch'],
    ];
    for (const [fields, code] of cases) {
      const res = await post(open[1].url, '/signup/submit', { password: PASSWORD, password2: PASSWORD, ...fields }, { from: address() });
      expect(res.status, code).toBe(303);
      expect(res.headers.get('location')).toBe(`/signup?error=${code}`);
      // No session; what was typed, but never a password, comes back to the form at /signup only.
      const draft = res.headers.get('set-cookie') ?? '';
      expect(draft).toMatch(/^pf_signup=[A-Za-z0-9_-]+; Path=\/signup; Max-Age=600; HttpOnly; SameSite=Lax$/);
      const kept = JSON.parse(Buffer.from(draft.split(/[=;]/)[1], 'base64url').toString());
      expect(kept).toEqual({ username: fields.username, email: fields.email });
      const again = await get(open[0].url, `/signup?error=${code}`, draft.split(';')[0]);
      const field = { 'username-taken': 'username', username: 'username', 'email-taken': 'email', email: 'email', password: 'password', mismatch: 'password2' }[
        code
      ];
      const input = new RegExp(`<input\\b[^>]*\\bname="${field}"[^>]*>`).exec(again.text)?.[0];
      expect(input).toContain('aria-invalid="true"');
      expect(input).toMatch(new RegExp(`aria-describedby="[^"]*${field}-error"`));
      expect(again.text).toContain(`id="${field}-error"`);
      expect(again.text).toContain(`value="${fields.username}"`);
      expect(again.text).toContain(`value="${fields.email}"`);
      expect(again.text).not.toContain(PASSWORD);
    }
    // A fresh visit starts empty, even with the cookie; a sign-up that works clears it.
    expect((await get(open[0].url, '/signup', 'pf_signup=eyJ1c2VybmFtZSI6ImtlcHQiLCJlbWFpbCI6IiJ9')).text).not.toContain('value="kept"');
    expect((await get(open[0].url, '/signup?error=email-taken')).text).toContain('An account with that email address already exists');
  });

  it('asking whether an address has an account (sign-up says so) is throttled per address with every other sign-up attempt', async () => {
    const taken = await account();
    const from = address();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(
        open[i % 2].url,
        '/signup/submit',
        { username: name(), email: taken.email.toUpperCase(), password: PASSWORD, password2: PASSWORD },
        { from },
      );
      statuses.push(res.status === 303 ? res.headers.get('location') : res.status);
    }
    expect(statuses).toEqual(['/signup?error=email-taken', '/signup?error=email-taken', '/signup?error=email-taken', 429]);
  });

  it('sign-ups from one address are throttled', async () => {
    const from = address();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await post(open[i % 2].url, '/signup/submit', { username: name(), email: `${name()}@x.org`, password: PASSWORD, password2: PASSWORD }, { from }))
          .status,
      );
    }
    expect(statuses).toEqual([303, 303, 303, 429]);
  });

  it('an invitation works once, on a server with sign-up closed; a used or expired one is refused', async () => {
    const email = `${name()}@invited.example`;
    const { token } = await createInvitation(database.db, email);
    const page = await get(closed.url, `/signup?invite=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(email);
    const username = name();
    const made = await post(closed.url, '/signup/submit', { invite: token, username, password: PASSWORD, password2: PASSWORD });
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe('/settings?welcome=1');
    expect((await getUserByUsername(database.db, username))?.email).toBe(email);
    expect(sessionOf(made.headers)).toBeTruthy();

    const again = await post(closed.url, '/signup/submit', { invite: token, username: name(), password: PASSWORD, password2: PASSWORD });
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect((await get(closed.url, `/signup?invite=${token}`)).text).toContain('This invitation no longer works');

    const old = await createInvitation(database.db, `${name()}@invited.example`);
    await database.db.execute(sql`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE used_at IS NULL`);
    const expired = await post(closed.url, '/signup/submit', { invite: old.token, username: name(), password: PASSWORD, password2: PASSWORD });
    expect(expired.status).toBe(410);
    const forged = await post(closed.url, '/signup/submit', { invite: 'A'.repeat(43), username: name(), password: PASSWORD, password2: PASSWORD });
    expect(forged.status).toBe(410);
  });

  it('/settings sends anonymous visitors to sign in', async () => {
    const res = await get(open[0].url, '/settings');
    expect([303, 307, 308]).toContain(res.status);
    expect(res.headers.get('location')).toMatch(/\/signin\?next=%2Fsettings$|\/signin\?next=\/settings$/);
  });

  describe('settings forms (no JavaScript: the server action posted as a plain form)', () => {
    /** The hidden fields of the page's form whose submit button says `button`. */
    function formFields(html: string, button: string): [string, string][] {
      const form = [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)].find((m) => m[1].includes(`>${button}</button>`));
      if (!form) throw new Error(`no form with a "${button}" button`);
      const unescapeHtml = (s: string) =>
        s
          .replace(/&quot;/g, '"')
          .replace(/&#x27;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&');
      return [...form[1].matchAll(/<input\b[^>]*>/g)]
        .map((m) => m[0])
        .filter((tag) => /type="hidden"/.test(tag))
        .map((tag) => [unescapeHtml(/name="([^"]*)"/.exec(tag)![1]), unescapeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? '')]);
    }

    async function submit(base: string, cookie: string, button: string, fields: Record<string, string>, csrf: 'keep' | 'drop' | 'wrong' = 'keep') {
      const page = await get(base, '/settings', cookie);
      expect(page.status).toBe(200);
      const body = new FormData();
      for (const [key, value] of formFields(page.text, button)) {
        if (key === 'csrf' && csrf === 'drop') continue;
        body.append(key, key === 'csrf' && csrf === 'wrong' ? `${value.slice(0, -2)}xx` : value);
      }
      for (const [key, value] of Object.entries(fields)) body.append(key, value);
      const res = await fetch(`${base}/settings`, { method: 'POST', headers: { Cookie: cookie, Origin: base }, body, redirect: 'manual' });
      return { status: res.status, headers: res.headers, text: await res.text() };
    }

    it('refuse a missing or wrong anti-forgery token, and change nothing', async () => {
      const user = await account();
      const cookie = `pf_session=${sessionOf((await signIn({ username: user.username, password: PASSWORD })).headers)}`;
      for (const csrf of ['drop', 'wrong'] as const) {
        const profile = await submit(open[0].url, cookie, 'Save profile', { nickname: 'Forged', bio: '', website: '' }, csrf);
        expect(profile.text).toContain('This form has expired or came from another site');
        const key = await submit(open[0].url, cookie, 'Make a new API key', { confirm: 'yes' }, csrf);
        expect(key.text).toContain('This form has expired or came from another site');
        const pw = await submit(
          open[0].url,
          cookie,
          'Change password',
          { current: PASSWORD, password: 'a brand new password', password2: 'a brand new password' },
          csrf,
        );
        expect(pw.text).toContain('This form has expired or came from another site');
      }
      const now = await getUserByUsername(database.db, user.username);
      expect(now?.nickname).toBe('');
      // The old key and password still work.
      expect(
        (
          await get(open[0].url, '/v2/users/current', undefined).then(() =>
            fetch(`${open[0].url}/v2/users/current`, { headers: { Authorization: basic(user.username, user.apiKey) } }),
          )
        ).status,
      ).toBe(200);
      expect((await signIn({ username: user.username, password: PASSWORD })).status).toBe(303);
    });

    it('save the profile (shown on the profile page, website as an http(s) link only)', async () => {
      const user = await account();
      const cookie = `pf_session=${sessionOf((await signIn({ username: user.username, password: PASSWORD })).headers)}`;
      const saved = await submit(open[0].url, cookie, 'Save profile', {
        nickname: 'Ann Example',
        bio: 'Charts of rivers.',
        website: 'https://ann.example/rivers',
      });
      expect(saved.status).toBe(200);
      expect(saved.text).toContain('Profile saved.');
      const profile = await get(open[1].url, `/~${user.username}/`);
      expect(profile.text).toContain('Ann Example');
      expect(profile.text).toContain('Charts of rivers.');
      expect(profile.text).toMatch(/<a href="https:\/\/ann\.example\/rivers" rel="nofollow ugc noopener noreferrer">/);
      const refused = await submit(open[0].url, cookie, 'Save profile', { nickname: 'Ann', bio: '', website: 'javascript:alert(1)' });
      expect(refused.text).toContain('Must be an http:// or https:// address.');
      expect((await getUserByUsername(database.db, user.username))?.website).toBe('https://ann.example/rivers');
    });

    it('change the password with the current one or the API key; an account without one sets it directly', async () => {
      const user = await account({ password: false });
      const cookie = `pf_session=${sessionOf((await signIn({ username: user.username, password: user.apiKey })).headers)}`;
      const set = await submit(open[0].url, cookie, 'Set password', { password: PASSWORD, password2: PASSWORD });
      expect(set.text).toContain('Password set');
      // The old session ended; this browser got a new one, its cookie as sign-in sets it.
      const renewed = sessionOf(set.headers);
      expect(renewed).toBeTruthy();
      expect(cookieFlags(set.headers.get('set-cookie'))).toEqual(['httponly', 'path=/', 'samesite=lax']);
      expect((await get(open[0].url, '/v2/users/current', cookie)).status).toBe(401);
      const fresh = `pf_session=${renewed}`;
      expect((await get(open[0].url, '/v2/users/current', fresh)).status).toBe(200);
      expect((await signIn({ username: user.username, password: PASSWORD })).status).toBe(303);

      const wrong = await submit(open[0].url, fresh, 'Change password', {
        current: 'not it at all',
        password: 'another new password',
        password2: 'another new password',
      });
      expect(wrong.text).toContain('That is not your current password or API key.');
      const viaKey = await submit(open[0].url, fresh, 'Change password', {
        current: user.apiKey,
        password: 'another new password',
        password2: 'another new password',
      });
      expect(viaKey.text).toContain('Password changed');
      expect((await signIn({ username: user.username, password: 'another new password' })).status).toBe(303);
      expect((await signIn({ username: user.username, password: PASSWORD })).headers.get('location')).toContain('error=wrong');
    });

    it('make a new API key: shown once with the clients’ lines for this server; other sessions end, this one goes on', async () => {
      const user = await account();
      const mine = `pf_session=${sessionOf((await signIn({ username: user.username, password: PASSWORD })).headers)}`;
      const other = `pf_session=${sessionOf((await signIn({ username: user.username, password: PASSWORD })).headers)}`;
      // Not confirmed: refused, nothing changes.
      const unconfirmed = await submit(open[0].url, mine, 'Make a new API key', {});
      expect(unconfirmed.text).toContain('Nothing changed: tick “I understand”');
      expect((await fetch(`${open[0].url}/v2/users/current`, { headers: { Authorization: basic(user.username, user.apiKey) } })).status).toBe(200);
      expect(unconfirmed.text).toContain('stops working');

      const res = await submit(open[0].url, mine, 'Make a new API key', { confirm: 'yes' });
      const key = /id="new-api-key"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="new-api-key"/.exec(res.text);
      const apiKey = key?.[1] ?? key?.[2];
      expect(apiKey, 'the new key on the page').toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(res.text).toContain(`tls.set_credentials_file(username=&quot;${user.username}&quot;, api_key=&quot;${apiKey}&quot;)`);
      expect(res.text).toContain(`plotly_api_domain=&quot;${open[0].url}&quot;`);
      expect(res.text).toContain(`&quot;plotly_api_key&quot; = &quot;${apiKey}&quot;`);
      // plotly for R connects only over https: its lines name the https origin, and say so.
      const https = open[0].url.replace(/^http:/, 'https:');
      expect(res.text).toContain(`&quot;plotly_api_domain&quot; = &quot;${https}&quot;`);
      expect(res.text).toContain('plotly for R needs https');
      // Over TLS (a proxy saying so), the page names the https origin it was reached at.
      const tls = await fetch(`${open[0].url}/settings`, { headers: { Cookie: `pf_session=${sessionOf(res.headers)}`, 'X-Forwarded-Proto': 'https' } });
      const tlsPage = await tls.text();
      expect(tlsPage).toContain(`plotly_api_domain=&quot;${https}&quot;`);
      expect(tlsPage).toContain('This site is served over https');
      expect((await fetch(`${open[0].url}/v2/users/current`, { headers: { Authorization: basic(user.username, apiKey!) } })).status).toBe(200);
      expect((await fetch(`${open[0].url}/v2/users/current`, { headers: { Authorization: basic(user.username, user.apiKey) } })).status).toBe(401);
      expect((await get(open[0].url, '/v2/users/current', other)).status).toBe(401);
      expect((await get(open[0].url, '/v2/users/current', mine)).status).toBe(401);
      expect((await get(open[0].url, '/v2/users/current', `pf_session=${sessionOf(res.headers)}`)).status).toBe(200);
      // The page itself was rendered for the new session: still signed in, with its own token.
      expect(res.text).toContain('Signed in as');
    });
  });
});
