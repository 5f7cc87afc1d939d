// Accounts: password hashing (argon2id, off the event loop, a dummy hash for missing accounts),
// sign-in checks throttled in Postgres (two connections standing for two app processes count
// together): a pair of address and account slows down, an address and an account each have a ceiling,
// and nobody else's failures stop a person from their own address. Invitations used once, profiles
// and has_password.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { checkSignIn } from '@/lib/core/accounts/credentials';
import { acceptInvitation, createInvitation, InvitationClosed, openInvitation } from '@/lib/core/accounts/invitations';
import { hashPassword, verifyPassword } from '@/lib/core/accounts/passwords';
import type { SignInLimitConfig } from '@/lib/core/accounts/rate-limit';
import { createSession, sessionViewer } from '@/lib/core/accounts/sessions';
import { createUser, getUserById, giveFirstApiKey, rotateApiKey, setPassword, updateProfile, userRecord } from '@/lib/core/accounts/users';
import { expectApiError, ORIGIN } from './_helpers';
import { manualClock } from '../support/clock';
import { createMigratedDatabase } from '../support/postgres';

const name = () => `a${randomBytes(4).toString('hex')}`;
const from = (address: string) => new Headers({ 'x-forwarded-for': address });
const address = () => `10.${randomBytes(3).join('.')}`;
const PASSWORD = 'a long enough password';

// Every argon2 verification the code under test makes, by the hash it checks (the real function runs).
const verified = vi.hoisted(() => [] as string[]);
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (hashed: string, ...rest: [string]) => {
      verified.push(hashed);
      return real.verify(hashed, ...rest);
    },
  };
});
/** What an argon2 hash costs to check: its algorithm, version, memory, passes and lanes, and length. */
const argon2Cost = (hashed: string) => {
  const [, algorithm, version, params, , digest] = hashed.split('$');
  return `${algorithm} ${version} ${params} ${digest?.length}`;
};

describe('password hashing', () => {
  it('is argon2id, salted per hash, and verifies only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, PASSWORD)).toBe(true);
    expect(await verifyPassword(a, `${PASSWORD}x`)).toBe(false);
    expect(await verifyPassword('not a hash', PASSWORD)).toBe(false);
  });

  it('does the same work when there is no hash (no account, no password), and answers false', async () => {
    const real = await hashPassword(PASSWORD);
    verified.length = 0;
    expect(await verifyPassword(real, 'wrong password!')).toBe(false);
    expect(await verifyPassword(null, 'no account has this password')).toBe(false);
    expect(await verifyPassword(undefined, 'no account has this password')).toBe(false);
    // One argon2 verification each, of a hash with the real one's cost: the same work, by count.
    expect(verified.map(argon2Cost)).toEqual([real, real, real].map(argon2Cost));
  });

  it('hashes off the event loop: timers keep firing while hashes run', async () => {
    // By order, not by clock: a blocking hash would finish (its promise settled in the same turn)
    // before a timer set as it began could fire; one on the thread pool lets the timer run first.
    const events: string[] = [];
    const timer = setTimeout(() => events.push('timer'), 0);
    await Promise.all(Array.from({ length: 4 }, () => hashPassword(PASSWORD)));
    events.push('hashed');
    clearTimeout(timer);
    expect(events).toEqual(['timer', 'hashed']);
  });
});

describe('accounts on PostgreSQL', () => {
  const dbName = createDatabaseName('accounts');
  // Two connection pools on one database: two app processes, as far as the counters can tell.
  let one: Database;
  let two: Database;
  // The counters' time: a clock the tests move (a wait passes without sleeping), at the start of a day
  // so that no window ends under them.
  const clock = manualClock();
  const config: SignInLimitConfig = { freeFailures: 2, perAccount: 3, perAddress: 5, signUpsPerAddress: 0, windowSeconds: 3600, trustedProxies: 0, clock };
  /** With the ceilings out of the way (by default far above what a person's typos reach). */
  const roomy: SignInLimitConfig = { ...config, perAccount: 100, perAddress: 100 };

  beforeAll(async () => {
    await createMigratedDatabase(dbName);
    one = await openDatabase(adminUrl(dbName));
    two = await openDatabase(adminUrl(dbName));
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await dropDatabase(dbName);
  });

  it('signs in by username or email (any case) with the password or the API key', async () => {
    const username = name();
    const { apiKey } = await createUser(one.db, { username, email: `${username}@Example.org`, password: PASSWORD });
    for (const login of [username, username.toUpperCase(), `${username}@example.org`, `${username.toUpperCase()}@EXAMPLE.ORG`]) {
      for (const secret of [PASSWORD, apiKey]) {
        const check = await checkSignIn(one.db, from(address()), login, secret, config);
        expect('user' in check && check.user.username, `${login} / ${secret === apiKey ? 'key' : 'password'}`).toBe(username);
      }
    }
    expect(await checkSignIn(one.db, from(address()), username, 'wrong password', config)).toEqual({ wrong: true });
    expect(await checkSignIn(one.db, from(address()), 'nobody-here', PASSWORD, config)).toEqual({ wrong: true });
  });

  it('a person who mistypes slows down, never locks: a few tries free, then a wait of seconds that grows', async () => {
    const username = name();
    const { apiKey } = await createUser(one.db, { username, password: PASSWORD });
    const home = address();
    for (let i = 0; i < roomy.freeFailures; i++)
      expect(await checkSignIn([one.db, two.db][i % 2], from(home), username, `typo ${i} password`, roomy)).toEqual({ wrong: true });
    // The next try, at once, even with the right password (or the API key): wait a second.
    expect(await checkSignIn(two.db, from(home), username, PASSWORD, roomy)).toEqual({ retryAfter: 1 });
    expect(await checkSignIn(one.db, from(home), username, apiKey, roomy)).toEqual({ retryAfter: 1 });
    clock.advance(1);
    expect(await checkSignIn(one.db, from(home), username, 'typo again password', roomy)).toEqual({ wrong: true });
    expect(await checkSignIn(two.db, from(home), username, PASSWORD, roomy)).toEqual({ retryAfter: 2 });
    clock.advance(2);
    expect('user' in (await checkSignIn(two.db, from(home), username, PASSWORD, roomy))).toBe(true);
    // Success forgets the failures: the few free tries again.
    for (let i = 0; i < roomy.freeFailures; i++) expect(await checkSignIn(one.db, from(home), username, `typo ${i} password`, roomy)).toEqual({ wrong: true });
    clock.advance(1);
    expect('user' in (await checkSignIn(one.db, from(home), username, apiKey, roomy))).toBe(true);
  });

  it("a stranger's failures, however many, never make the person's own address wait", async () => {
    const username = name();
    const { apiKey } = await createUser(one.db, { username, email: `${username}@x.org`, password: PASSWORD });
    const stranger = address();
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await checkSignIn([one.db, two.db][i % 2], from(stranger), username, `guess ${i} password`, config));
    expect(answers.filter((a) => 'wrong' in a)).toHaveLength(config.freeFailures);
    expect(answers.slice(config.freeFailures).every((a) => 'retryAfter' in a)).toBe(true);
    // The stranger is slowed down on this account, from any of its names; the person is not.
    expect('retryAfter' in (await checkSignIn(one.db, from(stranger), `${username}@x.org`, PASSWORD, config))).toBe(true);
    expect('user' in (await checkSignIn(two.db, from(address()), username, PASSWORD, config))).toBe(true);
    expect('user' in (await checkSignIn(one.db, from(address()), `${username}@X.org`, apiKey, config))).toBe(true);
  });

  it("throttles failures per account at a ceiling, whatever the address and whichever process counts; the person's known address goes on", async () => {
    const username = name();
    const { apiKey } = await createUser(one.db, { username, email: `${username}@x.org`, password: PASSWORD });
    const home = address();
    expect('user' in (await checkSignIn(one.db, from(home), username, PASSWORD, config))).toBe(true);
    const dbs = [one.db, two.db];
    for (let i = 0; i < config.perAccount; i++) {
      expect(await checkSignIn(dbs[i % 2], from(address()), username, `wrong ${i} password`, config)).toEqual({ wrong: true });
    }
    // Now even the right password waits from an address the account never signed in from, through either process.
    const blocked = await checkSignIn(two.db, from(address()), username, PASSWORD, config);
    expect('retryAfter' in blocked && blocked.retryAfter).toBeGreaterThan(0);
    // By email too: the account is counted, not the name it was given by.
    expect('retryAfter' in (await checkSignIn(one.db, from(address()), `${username}@x.org`, PASSWORD, config))).toBe(true);
    // From home the person signs in, by password or key, and a typo there is only their own.
    expect('user' in (await checkSignIn(two.db, from(home), `${username}@x.org`, PASSWORD, config))).toBe(true);
    expect(await checkSignIn(one.db, from(home), username, 'typo at home', config)).toEqual({ wrong: true });
    expect('user' in (await checkSignIn(one.db, from(home), username, apiKey, config))).toBe(true);
    // A stranger cannot make its address known by failing from it.
    const stranger = address();
    expect('retryAfter' in (await checkSignIn(one.db, from(stranger), username, 'still guessing', config))).toBe(true);
    expect('retryAfter' in (await checkSignIn(one.db, from(stranger), username, PASSWORD, config))).toBe(true);
  });

  it('answers a name that is no account as it answers a wrong password, in as long', async () => {
    const username = name();
    await createUser(one.db, { username, password: PASSWORD });
    const wrong = () => checkSignIn(one.db, from(address()), username, 'wrong password!', roomy);
    const nobody = () => checkSignIn(one.db, from(address()), name(), 'wrong password!', roomy);
    verified.length = 0;
    expect(await wrong()).toEqual(await nobody());
    // Both verify one argon2 hash of one cost (a dummy one without an account), which is most of the
    // time either takes: counted, not timed.
    expect(verified).toHaveLength(2);
    expect(argon2Cost(verified[1])).toBe(argon2Cost(verified[0]));
  });

  it('throttles a name that is no account the same way (throttling does not reveal accounts)', async () => {
    const ghost = name();
    for (let i = 0; i < config.perAccount; i++) expect(await checkSignIn(one.db, from(address()), ghost, 'whatever pass', config)).toEqual({ wrong: true });
    expect('retryAfter' in (await checkSignIn(two.db, from(address()), ghost, 'whatever pass', config))).toBe(true);
  });

  it('throttles failures per address across accounts and processes; successes do not count', async () => {
    const here = address();
    const username = name();
    await createUser(one.db, { username, password: PASSWORD });
    // Right passwords are given back: any number of them leaves the allowance whole.
    for (let i = 0; i < config.perAddress + 2; i++) expect('user' in (await checkSignIn(one.db, from(here), username, PASSWORD, config))).toBe(true);
    for (let i = 0; i < config.perAddress; i++) {
      expect(await checkSignIn([one.db, two.db][i % 2], from(here), name(), 'wrong password', config)).toEqual({ wrong: true });
    }
    expect('retryAfter' in (await checkSignIn(two.db, from(here), username, PASSWORD, config))).toBe(true);
    // Another address is not affected.
    expect('user' in (await checkSignIn(one.db, from(address()), username, PASSWORD, config))).toBe(true);
  });

  it('simultaneous guesses cannot slip past the limit', async () => {
    const username = name();
    await createUser(one.db, { username, password: PASSWORD });
    const checks = await Promise.all(
      Array.from({ length: 12 }, (_, i) => checkSignIn([one.db, two.db][i % 2], from(address()), username, `guess ${i} wrong`, config)),
    );
    expect(checks.filter((c) => 'wrong' in c)).toHaveLength(config.perAccount);
    expect(checks.filter((c) => 'retryAfter' in c)).toHaveLength(12 - config.perAccount);
    // From one address: the free tries, and the rest wait.
    const other = name();
    await createUser(one.db, { username: other, password: PASSWORD });
    const here = address();
    const paired = await Promise.all(Array.from({ length: 12 }, (_, i) => checkSignIn([one.db, two.db][i % 2], from(here), other, `guess ${i} wrong`, config)));
    expect(paired.filter((c) => 'wrong' in c)).toHaveLength(config.freeFailures);
    expect(paired.filter((c) => 'retryAfter' in c)).toHaveLength(12 - config.freeFailures);
  });

  it('a new password replaces the old, ends every session, and shows in has_password', async () => {
    const { user } = await createUser(one.db, { username: name() });
    expect(userRecord(ORIGIN, user, true).has_password).toBe(false);
    expect(userRecord(ORIGIN, user, false).has_password).toBe(null);
    const token = await createSession(one.db, user.id);
    await setPassword(one.db, user.id, PASSWORD);
    expect(await sessionViewer(one.db, token)).toBe(null);
    const updated = (await getUserById(one.db, user.id))!;
    expect(userRecord(ORIGIN, updated, true).has_password).toBe(true);
    expect('user' in (await checkSignIn(one.db, from(address()), user.username, PASSWORD, config))).toBe(true);
    await expectApiError(setPassword(one.db, user.id, 'short'), 400, /at least 10/);
    await expectApiError(setPassword(one.db, user.id, 'x'.repeat(1025)), 400, /at most 1024/);
    // A rotated key signs in; the old one does not.
    const key = await rotateApiKey(one.db, user.id);
    expect('user' in (await checkSignIn(one.db, from(address()), user.username, key, config))).toBe(true);
  });

  it('a first key is made without question only for a person never given one, and once', async () => {
    const { user: printed } = await createUser(one.db, { username: name() });
    expect(await giveFirstApiKey(one.db, printed.id)).toBe(null);
    const { user } = await createUser(one.db, { username: name(), keyGiven: false });
    const [first, again] = await Promise.all([giveFirstApiKey(one.db, user.id), giveFirstApiKey(one.db, user.id)]);
    const key = first ?? again;
    expect([first, again].filter((k) => k !== null)).toHaveLength(1);
    expect('user' in (await checkSignIn(one.db, from(address()), user.username, key!, config))).toBe(true);
  });

  it('usernames and email addresses are unique regardless of case', async () => {
    const username = name();
    await createUser(one.db, { username, email: `${username}@x.org` });
    await expectApiError(createUser(one.db, { username: username.toUpperCase() }), 400, /already exists/);
    await expectApiError(createUser(one.db, { username: name(), email: `${username.toUpperCase()}@X.ORG` }), 400, /email.*already exists/);
    await expectApiError(createUser(one.db, { username: name(), email: 'not an address' }), 400, /email/);
    // Accounts without an address do not collide.
    await createUser(one.db, { username: name() });
    await createUser(one.db, { username: name() });
  });

  it('profiles take http(s) websites only and bounded text', async () => {
    const { user } = await createUser(one.db, { username: name() });
    expect(await updateProfile(one.db, user.id, { nickname: ' Ann ', bio: 'Plots.', website: 'https://ann.example/' })).toEqual({
      nickname: 'Ann',
      bio: 'Plots.',
      website: 'https://ann.example/',
    });
    for (const website of ['javascript:alert(1)', 'data:text/html,x', 'ftp://x.example', 'not a url']) {
      await expectApiError(updateProfile(one.db, user.id, { nickname: '', bio: '', website }), 400, /website/);
    }
    await expectApiError(updateProfile(one.db, user.id, { nickname: 'x'.repeat(101), bio: '', website: '' }), 400, /nickname/);
    expect((await getUserById(one.db, user.id))!.website).toBe('https://ann.example/');
  });

  it('an invitation makes one account with its address, once; an expired one none', async () => {
    const email = `${name()}@invited.example`;
    const { token } = await createInvitation(one.db, email);
    expect(await openInvitation(one.db, token)).toEqual({ email });
    // A refused account (name taken) leaves the link usable.
    const taken = name();
    await createUser(one.db, { username: taken });
    await expectApiError(acceptInvitation(one.db, token, { username: taken, password: PASSWORD }), 400, /already exists/);
    const [first, second] = await Promise.allSettled([
      acceptInvitation(one.db, token, { username: name(), password: PASSWORD }),
      acceptInvitation(two.db, token, { username: name(), password: PASSWORD }),
    ]);
    const made = [first, second].filter((r) => r.status === 'fulfilled');
    expect(made).toHaveLength(1);
    expect([first, second].find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(InvitationClosed);
    expect(made[0].status === 'fulfilled' && made[0].value.user.email).toBe(email);
    expect(await openInvitation(one.db, token)).toBe(null);

    const old = await createInvitation(one.db, `${name()}@invited.example`);
    await one.db.execute(sql`UPDATE invitations SET expires_at = now() - interval '1 second'`);
    expect(await openInvitation(one.db, old.token)).toBe(null);
    await expect(acceptInvitation(one.db, old.token, { username: name(), password: PASSWORD })).rejects.toBeInstanceOf(InvitationClosed);
    await expect(acceptInvitation(one.db, 'not-a-token', { username: name(), password: PASSWORD })).rejects.toBeInstanceOf(InvitationClosed);
    await expectApiError(createInvitation(one.db, 'nope'), 400, /email/);
  });
});
