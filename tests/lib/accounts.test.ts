// Accounts: password hashing (argon2id, off the event loop, a dummy hash for missing accounts),
// sign-in checks throttled per account and per address in Postgres (two connections standing for two
// app processes count together), invitations used once, profiles and has_password.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { adminUrl, createDatabase, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { checkSignIn } from '@/lib/core/credentials';
import { acceptInvitation, createInvitation, InvitationClosed, openInvitation } from '@/lib/core/invitations';
import { hashPassword, verifyPassword } from '@/lib/core/passwords';
import type { SignInLimitConfig } from '@/lib/core/rate-limit';
import { createSession, sessionViewer } from '@/lib/core/sessions';
import { createUser, getUserById, rotateApiKey, setPassword, updateProfile, userRecord } from '@/lib/core/users';
import { expectApiError, ORIGIN } from './_helpers';

const name = () => `a${randomBytes(4).toString('hex')}`;
const from = (address: string) => new Headers({ 'x-forwarded-for': address });
const address = () => `10.${randomBytes(3).join('.')}`;
const PASSWORD = 'a long enough password';

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
    await verifyPassword(null, 'warm up the dummy');
    const withHash: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < 5; i++) {
      withHash.push(await timed(() => verifyPassword(real, 'wrong password!')));
      without.push(await timed(() => verifyPassword(null, 'wrong password!')));
    }
    expect(await verifyPassword(null, 'no account has this password')).toBe(false);
    expect(await verifyPassword(undefined, 'no account has this password')).toBe(false);
    const ratio = median(without) / median(withHash);
    expect(ratio, `dummy ${median(without).toFixed(1)} ms vs real ${median(withHash).toFixed(1)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('hashes off the event loop: timers keep firing while hashes run', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const took = await timed(() => Promise.all(Array.from({ length: 4 }, () => hashPassword(PASSWORD))));
    clearInterval(timer);
    // A blocking hash would let no timer run until it finished.
    expect(ticks, `${ticks} ticks in ${took.toFixed(0)} ms`).toBeGreaterThan(Math.min(10, took / 10));
  });
});

describe('accounts on PostgreSQL', () => {
  const dbName = createDatabaseName('accounts');
  // Two connection pools on one database: two app processes, as far as the counters can tell.
  let one: Database;
  let two: Database;
  const config: SignInLimitConfig = { perAccount: 3, perAddress: 5, signUpsPerAddress: 0, windowSeconds: 3600, trustedProxies: 0 };

  beforeAll(async () => {
    await createDatabase(dbName);
    one = await openDatabase(adminUrl(dbName));
    await migrateDatabase(one);
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

  it('throttles failures per account, whatever the address and whichever process counts', async () => {
    const username = name();
    await createUser(one.db, { username, email: `${username}@x.org`, password: PASSWORD });
    const dbs = [one.db, two.db];
    for (let i = 0; i < config.perAccount; i++) {
      expect(await checkSignIn(dbs[i % 2], from(address()), username, `wrong ${i} password`, config)).toEqual({ wrong: true });
    }
    // Now even the right password waits, from a fresh address, through the other process.
    const blocked = await checkSignIn(two.db, from(address()), username, PASSWORD, config);
    expect('retryAfter' in blocked && blocked.retryAfter).toBeGreaterThan(0);
    // By email too: the account is counted, not the name it was given by.
    expect('retryAfter' in (await checkSignIn(one.db, from(address()), `${username}@x.org`, PASSWORD, config))).toBe(true);
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
