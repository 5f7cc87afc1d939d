// `npm start` with PostgreSQL serves with several processes on one port (scripts/start.mjs, Node's
// cluster). They must behave as one: rate limits count together, a session made through one is good
// on all, and a process that dies is replaced while the others go on serving.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createSession } from '@/lib/core/accounts/sessions';
import { createUser } from '@/lib/core/accounts/users';
import { basic } from '../support/api';
import { createMigratedDatabase } from '../support/postgres';

const PER_ADDRESS = 6;

/** The app processes under the cluster's primary (its node children). */
function appProcesses(primary: number): number[] {
  const out = execFileSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' }).trim();
  return out ? out.split('\n').map(Number) : [];
}

describe('npm start with PostgreSQL: several processes behave as one', () => {
  const name = createDatabaseName('processes');
  let database: Database;
  let app: Awaited<ReturnType<typeof startServer>>;
  // A new connection per request (no agent), so the primary hands requests to every process in turn.
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(new URL(path, app.url), { method, headers, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
      req.on('error', reject).end(body);
    });
  const get = (path: string, headers: Record<string, string> = {}) => send('GET', path, headers);

  beforeAll(async () => {
    await createMigratedDatabase(name);
    database = await openDatabase(adminUrl(name));
    app = await startServer({
      DATABASE_URL: adminUrl(name),
      WEB_CONCURRENCY: '2',
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      RATE_LIMIT_WRITES_PER_ADDRESS: String(PER_ADDRESS),
      RATE_LIMIT_WRITES_PER_KEY: '0',
      // Windows are fixed (aligned to the epoch): with the default minute, the run of writes below
      // crossed a window's end now and then and counted afresh. A year's window is not crossed.
      RATE_LIMIT_WINDOW_SECONDS: String(365 * 86_400),
      TRUST_PROXY: '1',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await database?.close();
    await dropDatabase(name);
  });

  it('runs two app processes on the one port', async () => {
    await expect.poll(() => appProcesses(app.process.pid!).length, { timeout: 30_000 }).toBe(2);
    // Both answer: every one of a run of fresh connections is served.
    const statuses = await Promise.all(Array.from({ length: 8 }, () => get('/v2/plots?page_size=1').then((r) => r.status)));
    expect(statuses).toEqual(Array(8).fill(200));
  });

  it('counts writes from one address together across the processes', async () => {
    const from = `10.${randomBytes(3).join('.')}`;
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 4; i++) {
      const res = await send('POST', '/v2/folders', { 'X-Forwarded-For': from, 'Content-Type': 'application/json' }, JSON.stringify({ path: `f${i}` }));
      statuses.push(res.status);
    }
    // Anonymous writes: 401 while the address has allowance, then 429, whichever process answered.
    expect(statuses.filter((s) => s === 401)).toHaveLength(PER_ADDRESS);
    expect(statuses.slice(PER_ADDRESS)).toEqual(Array(4).fill(429));
  });

  it('a session and an API key are good on every process', async () => {
    const { user, apiKey } = await createUser(database.db, { username: `p${randomBytes(4).toString('hex')}` });
    const token = await createSession(database.db, user.id);
    for (let i = 0; i < 6; i++) {
      const bySession = await get('/v2/users/current', { Cookie: `pf_session=${token}` });
      expect(bySession.status).toBe(200);
      expect(JSON.parse(bySession.text).username).toBe(user.username);
      const byKey = await get('/v2/users/current', { Authorization: basic(user.username, apiKey) });
      expect(JSON.parse(byKey.text).username).toBe(user.username);
    }
  });

  it('replaces a process that dies, and the other serves meanwhile', { timeout: 120_000 }, async () => {
    const [victim, survivor] = appProcesses(app.process.pid!);
    process.kill(victim, 'SIGKILL');
    // Once the primary has seen it go (a connection handed over in that instant is lost with it):
    await expect.poll(() => appProcesses(app.process.pid!).includes(victim), { timeout: 10_000, interval: 100 }).toBe(false);
    const during = await Promise.all(Array.from({ length: 4 }, () => get('/v2/plots?page_size=1').then((r) => r.status)));
    expect(during).toEqual(Array(4).fill(200));
    await expect.poll(() => appProcesses(app.process.pid!).filter((pid) => pid !== victim), { timeout: 60_000, interval: 500 }).toHaveLength(2);
    expect(appProcesses(app.process.pid!)).toContain(survivor);
    // The new process serves too (it may still be starting: give it a moment).
    await expect
      .poll(async () => (await Promise.all(Array.from({ length: 6 }, () => get('/v2/plots?page_size=1').then((r) => r.status)))).every((s) => s === 200), {
        timeout: 60_000,
        interval: 1000,
      })
      .toBe(true);
  });
});
