// Rate limits on writes (docs/configuration.md "Rate limits": 429 with Retry-After and RateLimit-* headers): per user and
// per address, counted in Postgres so that two app processes on one database count together. Its
// own app processes, with small limits and TRUST_PROXY=1 so each test can speak from an address of its own.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { basic, expectError, type Answer } from '../support/api';
import { createMigratedDatabase } from '../support/postgres';

const PER_KEY = 5;
const PER_ADDRESS = 8;
// The longest window the counters take (theirs is an int4 of seconds): windows are aligned to the
// clock, and this one, from 1970 to 2038, never ends under a burst (the app's clock is the database's,
// out of the test's reach); the test passes windows itself (windowsPass) rather than sleeping.
const WINDOW = 2 ** 31 - 1;

describe('rate limits on writes', () => {
  const name = createDatabaseName('ratelimit');
  let database: Database;
  let apps: Awaited<ReturnType<typeof startServer>>[] = [];

  beforeAll(async () => {
    await createMigratedDatabase(name);
    database = await openDatabase(adminUrl(name));
    const env = {
      DATABASE_URL: adminUrl(name),
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      RATE_LIMIT_WRITES_PER_KEY: String(PER_KEY),
      RATE_LIMIT_WRITES_PER_ADDRESS: String(PER_ADDRESS),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
      TRUST_PROXY: '1',
    };
    // The third process trusts no proxy: what a client writes in X-Forwarded-For counts for nothing.
    apps = await Promise.all([startServer(env), startServer(env), startServer({ ...env, TRUST_PROXY: '0' })]);
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await database?.close();
    await dropDatabase(name);
  });

  const user = async () => {
    const { user: u, apiKey } = await createUser(database.db, { username: `r${randomBytes(4).toString('hex')}` });
    return { id: u.id, username: u.username, auth: basic(u.username, apiKey) };
  };
  const address = () => `10.${randomBytes(3).join('.')}`;

  async function send(method: string, path: string, opts: { auth?: string; from: string; body?: unknown; app?: number }): Promise<Answer> {
    const headers: Record<string, string> = { 'X-Forwarded-For': opts.from };
    if (opts.auth) headers.Authorization = opts.auth;
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${apps[opts.app ?? 0].url}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
  }
  const folder = (auth: string, from: string, app = 0) =>
    send('POST', '/v2/folders', { auth, from, app, body: { path: `f${randomBytes(6).toString('hex')}` } });
  const filesOf = async (ownerId: number) =>
    (await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM files WHERE owner_id = ${ownerId}`))[0].n;

  /** A window passing, without the wait: every counter's window moved a window into the past. */
  const windowsPass = () => database.db.execute(sql`UPDATE rate_limits SET window_start = window_start - make_interval(secs => ${WINDOW}::int)`);

  it('the write past the per-key limit is 429 with Retry-After, RateLimit headers and the error body, and changes nothing', async () => {
    const u = await user();
    const from = address();
    for (let i = 0; i < PER_KEY; i++) {
      const res = await folder(u.auth, from);
      expect(res.status).toBe(201);
      expect(res.headers.get('ratelimit-limit')).toBe(String(PER_KEY));
      expect(res.headers.get('ratelimit-remaining')).toBe(String(PER_KEY - 1 - i));
    }
    const before = await filesOf(u.id);
    const res = await folder(u.auth, from);
    expectError(res, 429, 'throttled');
    expect(res.json.errors[0].code).toBe('THROTTLED');
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(WINDOW);
    expect(res.headers.get('ratelimit-limit')).toBe(String(PER_KEY));
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('ratelimit-reset'))).toBe(retry);
    expect(await filesOf(u.id)).toBe(before);

    // Reads are never limited.
    for (let i = 0; i < 20; i++) expect((await send('GET', '/v2/users/current', { auth: u.auth, from })).status).toBe(200);

    // Once the window has passed, writes go through again.
    await windowsPass();
    expect((await folder(u.auth, from)).status).toBe(201);
  });

  it('another user is not limited by the first one', async () => {
    const [a, b] = [await user(), await user()];
    for (let i = 0; i <= PER_KEY; i++) await folder(a.auth, address());
    expect((await folder(a.auth, address())).status).toBe(429);
    expect((await folder(b.auth, address())).status).toBe(201);
  });

  it('every write from an address counts against it: anonymous and wrong-key attempts too, then any user from there', async () => {
    const from = address();
    const u = await user();
    const attempts = [
      ...Array.from({ length: 4 }, () => folder(basic(u.username, 'not-the-key'), from)),
      ...Array.from({ length: 4 }, () => send('POST', '/v2/plots', { from, body: { figure: { data: [] } } })),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(401);
    const res = await folder(u.auth, from);
    expectError(res, 429);
    expect(res.headers.get('ratelimit-limit')).toBe(String(PER_ADDRESS));
    expect(await filesOf(u.id)).toBe(0);
    // The same user from elsewhere is fine: the address was used up, not the key.
    expect((await folder(u.auth, address())).status).toBe(201);
  });

  it('wrong keys on reads count against the address too: key guessing through GETs meets the 429', async () => {
    const from = address();
    const u = await user();
    const statuses: number[] = [];
    for (let i = 0; i <= PER_ADDRESS; i++) statuses.push((await send('GET', '/v2/users/current', { auth: basic(u.username, `guess-${i}`), from })).status);
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(401), 429]);
    // Pages with a wrong key are browsed anonymously, but count as well.
    expect((await send('GET', '/v2/plots', { auth: basic(u.username, 'guess'), from })).status).toBe(429);
    // Right keys on reads are never limited.
    expect((await send('GET', '/v2/users/current', { auth: u.auth, from: address() })).status).toBe(200);
  });

  it('with no trusted proxy, forged X-Forwarded-For values all count against the real address', async () => {
    await windowsPass(); // the real address's writes of earlier runs of this test, if any, are in the past
    const statuses: number[] = [];
    for (let i = 0; i <= PER_ADDRESS; i++) statuses.push((await send('POST', '/v2/plots', { from: address(), app: 2, body: { figure: { data: [] } } })).status);
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(401), 429]);
  });

  it('two app processes on one database count together', async () => {
    const u = await user();
    const statuses: number[] = [];
    for (let i = 0; i <= PER_KEY; i++) statuses.push((await folder(u.auth, address(), i % 2)).status);
    expect(statuses).toEqual([...Array(PER_KEY).fill(201), 429]);
  });

  it('concurrent writes by one user admit exactly the limit', async () => {
    const u = await user();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => folder(u.auth, address(), i % 2)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(PER_KEY);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20 - PER_KEY);
    expect(await filesOf(u.id)).toBe(PER_KEY);
  });
});
