// What one person stores is bounded (STORAGE_PER_PERSON_MB, docs/limits.md): an app of its own with a
// 10 KB bound refuses an upload past it with the 413 and its sentence, stores nothing of it, and
// another person still uploads; /settings shows what a person holds.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createSession } from '@/lib/core/accounts/sessions';
import { createUser } from '@/lib/core/accounts/users';
import { basic, callAt, expectError, type TestUser } from '../support/api';
import { createMigratedDatabase } from '../support/postgres';

describe('storage a person may use', () => {
  const name = createDatabaseName('storage');
  let database: Database;
  let app: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    await createMigratedDatabase(name);
    database = await openDatabase(adminUrl(name));
    app = await startServer({ DATABASE_URL: adminUrl(name), DEMO_SEED: 'false', IMAGE_WORKER: 'false', STORAGE_PER_PERSON_MB: '0.01' });
  });
  afterAll(async () => {
    await app?.stop();
    await database?.close();
    await dropDatabase(name);
  });

  const person = async (): Promise<TestUser & { id: number }> => {
    const { user, apiKey } = await createUser(database.db, { username: `s${randomBytes(4).toString('hex')}` });
    return { id: user.id, username: user.username, apiKey, auth: basic(user.username, apiKey) };
  };
  const grid = (values: number) => ({ data: { cols: { x: { data: Array.from({ length: values }, (_, i) => i * 1000), order: 0 } } } });
  const files = async (id: number) => Number((await queryRows<{ n: string }>(database.db, sql`SELECT count(*) AS n FROM files WHERE owner_id = ${id}`))[0].n);

  it('an upload past the bound is a 413 with the sentence and stores nothing; another person still uploads', async () => {
    const carol = await person();
    const dave = await person();
    const first = await callAt(app.url, 'POST', '/v2/grids', { user: carol, body: grid(100) });
    expect(first.status).toBe(201);

    const big = await callAt(app.url, 'POST', '/v2/grids', { user: carol, body: grid(2000) });
    expectError(big, 413, /^Your files hold [\d.]+ (bytes|KB) of your 10.2 KB of storage; this change needs [\d.]+ KB more\. Delete files or empty the trash/);
    expect(await files(carol.id)).toBe(1);
    const appended = await callAt(app.url, 'POST', `/v2/grids/${first.json.file.fid}/col`, {
      user: carol,
      body: { cols: [{ name: 'y', data: grid(2000).data.cols.x.data }] },
    });
    expectError(appended, 413, 'Your files hold');
    const stored = await callAt(app.url, 'GET', `/v2/grids/${first.json.file.fid}`, { user: carol });
    expect(stored.json.cols.map((c: { name: string }) => c.name)).toEqual(['x']);

    expect((await callAt(app.url, 'POST', '/v2/grids', { user: dave, body: grid(100) })).status).toBe(201);
    // What carol holds, on her settings page.
    const settings = await callAt(app.url, 'GET', '/settings', { headers: { cookie: `pf_session=${await createSession(database.db, carol.id)}` } });
    expect(settings.text.replaceAll('<!-- -->', '')).toMatch(/Storage: [\d.]+ bytes of 10.2 KB used/);
  });
});
