// Sign-in and sign-up against someone who means harm (issue 22, points 6 to 8), on an app process of
// its own (TRUST_PROXY=1, so each request can come from an address of its own; open sign-up):
// - every `next` of the hostile corpus's redirect block (HOSTILE_NEXT) signs in to the profile;
// - guessing from one address, however hard, never stops the person from theirs, and guessers on many
//   addresses meet the account's ceiling while the person's known address goes on;
// - sign-in never tells whether an account exists; sign-up does, throttled per address.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { HOSTILE_NEXT } from './hostile-corpus';
import { createMigratedDatabase } from '../support/postgres';

const PASSWORD = 'a long enough password';
const PER_ACCOUNT = 20;
const BEFORE_DELAY = 5;
const SIGNUPS = 4;

const name = () => `x${randomBytes(4).toString('hex')}`;
const address = () => `10.${randomBytes(3).join('.')}`;

describe('sign-in abuse', () => {
  const dbName = createDatabaseName('signinabuse');
  let database: Database;
  let app: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    await createMigratedDatabase(dbName);
    database = await openDatabase(adminUrl(dbName));
    app = await startServer({
      DATABASE_URL: adminUrl(dbName),
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      TRUST_PROXY: '1',
      SIGNUP: 'open',
      SIGNIN_FAILURES_BEFORE_DELAY: String(BEFORE_DELAY),
      SIGNIN_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
      SIGNUPS_PER_ADDRESS: String(SIGNUPS),
      // Windows are fixed (aligned to the epoch): a run of attempts must not cross one's end and count afresh.
      SIGNIN_WINDOW_SECONDS: String(365 * 86_400),
    });
  });
  afterAll(async () => {
    await app?.stop();
    await database?.close();
    await dropDatabase(dbName);
  });

  async function post(path: string, fields: Record<string, string>, from = address()) {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': from, Origin: app.url },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location'), cookie: res.headers.get('set-cookie'), text: await res.text() };
  }
  const signIn = (username: string, password: string, opts: { next?: string; from?: string } = {}) =>
    post('/signin/submit', { username, password, ...(opts.next === undefined ? {} : { next: opts.next }) }, opts.from);

  async function account() {
    const username = name();
    const { apiKey } = await createUser(database.db, { username, email: `${username}@example.org`, password: PASSWORD });
    return { username, apiKey, email: `${username}@example.org` };
  }

  describe('no `next` of the redirect block leaves the site', () => {
    let user: Awaited<ReturnType<typeof account>>;
    beforeAll(async () => {
      user = await account();
    });

    for (const next of HOSTILE_NEXT) {
      it(JSON.stringify(next).slice(0, 80), async () => {
        // Right (by the API key, as a script would): the profile, read by a browser as a page of this site.
        const right = await signIn(user.username, user.apiKey, { next });
        expect(right.status).toBe(303);
        expect(right.location).toBe(`/~${user.username}/`);
        expect(new URL(right.location!, app.url).origin).toBe(app.url);
        // Wrong: back to the form, which carries no `next`.
        const wrong = await signIn(name(), 'not the password', { next });
        expect(wrong.location).toBe('/signin?error=wrong');
        const page = await fetch(`${app.url}/signin?next=${encodeURIComponent(next)}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<input type="hidden" name="next" value=""/>');
      });
    }
  });

  it('one address guessing hard: a few guesses checked, then one per wait, each twice as long; the person signs in from theirs throughout', async () => {
    const user = await account();
    const stranger = address();
    const home = address();
    const answers = [];
    for (let i = 0; i < 60; i++) {
      const sent = performance.now();
      const answer = await signIn(i % 2 ? user.username : user.email, `guess ${i}`, { from: stranger });
      answers.push({ ...answer, sent, received: performance.now() });
      if (i % 20 === 19) expect((await signIn(user.username, PASSWORD, { from: home })).cookie).toMatch(/^pf_session=/);
    }
    expect(answers.slice(0, BEFORE_DELAY).every((a) => a.status === 303)).toBe(true);
    expect(answers.every((a) => a.status === 303 || a.status === 429)).toBe(true);
    // Past the free ones, a guess is checked only once the wait since the checked one before has passed.
    const checked = answers.filter((a) => a.status === 303).slice(BEFORE_DELAY - 1);
    // (The server counted each between the request's sending and its answer.)
    // (A floor the server's rule sets, whatever the machine's speed; how many were checked depends on
    // how long the 60 took, so it is not counted, only that the guesser was refused along the way.)
    for (let k = 1; k < checked.length; k++) expect(checked[k].received - checked[k - 1].sent).toBeGreaterThanOrEqual(1000 * 2 ** (k - 1));
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    // The right password from the guesser's address is not checked while it waits.
    const guessed = await signIn(user.username, PASSWORD, { from: stranger });
    expect(guessed.status).toBe(429);
    expect(guessed.cookie).toBeNull();
    expect((await signIn(user.email, user.apiKey, { from: home })).status).toBe(303);
  });

  it("guessers on many addresses meet the account's ceiling; the person's known address does not", async () => {
    const user = await account();
    const home = address();
    expect((await signIn(user.username, PASSWORD, { from: home })).status).toBe(303);
    const guessers = Array.from({ length: Math.ceil(PER_ACCOUNT / BEFORE_DELAY) }, address);
    for (const from of guessers) for (let i = 0; i < BEFORE_DELAY; i++) expect((await signIn(user.username, `guess ${i}`, { from })).status).toBe(303);
    // Even the right password from an address the account never signed in from waits for the window's end.
    const fresh = await signIn(user.username, PASSWORD);
    expect(fresh.status).toBe(429);
    expect((await signIn(user.email, user.apiKey)).status).toBe(429);
    expect((await signIn(user.email, PASSWORD, { from: home })).status).toBe(303);
    expect((await signIn(user.username, user.apiKey, { from: home })).status).toBe(303);
  });

  it('sign-in does not tell which accounts exist: the same answers, and the same throttling, for a name that is no account', async () => {
    const user = await account();
    const ghost = name();
    for (const login of [user.username, ghost]) {
      const from = address();
      const answers = [];
      for (let i = 0; i < BEFORE_DELAY + 2; i++) {
        const a = await signIn(login, 'not the password', { from, next: '/feed' });
        answers.push([a.status, a.location, a.cookie, a.status === 429 ? a.text.replace(/\(at [^)]*\)/, '') : a.text]);
      }
      expect(answers, login === ghost ? 'no account' : 'an account').toEqual([
        // (The cookie is the sign-in page's draft of the name typed: no session, the same for both.)
        ...Array.from({ length: BEFORE_DELAY }, () => [303, '/signin?error=wrong&next=%2Ffeed', expect.stringMatching(/^pf_signin=[^;]+; Path=\/signin;/), '']),
        ...Array.from({ length: 2 }, () => [429, null, null, expect.stringContaining('Try again in 1 second')]),
      ]);
    }
  });

  it('sign-up says an address has an account, and only so often from one address', async () => {
    const user = await account();
    const from = address();
    const answers = [];
    for (let i = 0; i < SIGNUPS + 2; i++) {
      const res = await post(
        '/signup/submit',
        { username: name(), email: i % 2 ? user.email.toUpperCase() : user.email, password: PASSWORD, password2: PASSWORD },
        from,
      );
      answers.push(res.status === 303 ? res.location : res.status);
    }
    expect(answers).toEqual([...Array(SIGNUPS).fill('/signup?error=email-taken'), 429, 429]);
  });
});
