// Concurrency over HTTP against the running app: page views are counted exactly (once per visitor
// a day: 1,000 visitors at once count 1,000, one visitor's 1,000 reloads count one), one owner's
// concurrent creates get distinct gap-free numbers and lose nothing, and concurrent updates of one
// plot leave one of the written figures whole, never a mix.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { adminUrl, createDatabase, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { appDatabase, basic, baseUrl, call, createPlot, newUser } from '../support/api';

/**
 * GETs `path` `count` times at once through one keep-alive agent (at most `sockets` connections), the
 * i-th with `headersOf(i)`.
 */
async function burst(
  path: string,
  count: number,
  sockets = 64,
  at = baseUrl(),
  headersOf: (i: number) => Record<string, string> = () => ({}),
): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  try {
    return await Promise.all(
      Array.from(
        { length: count },
        (_, i) =>
          new Promise<number>((resolve, reject) => {
            http
              .get(`${at}${path}`, { agent, headers: headersOf(i) }, (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode!));
              })
              .on('error', reject);
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

const nOf = (fid: string) => Number(fid.split(':')[1]);

/** The plot's views as its owner's API answers them, once the counts of the pages already sent have landed (they count after the page is sent). */
async function settledViews(at: string, fid: string, auth: string, expected: number): Promise<number> {
  const views = async () => ((await (await fetch(`${at}/v2/plots/${fid}`, { headers: { Authorization: auth } })).json()) as { views: number }).views;
  await expect.poll(views, { timeout: 60_000, interval: 200 }).toBe(expected);
  return views();
}

describe('view counts over HTTP (an app of its own, TRUST_PROXY=1: each visitor speaks from an address of its own)', () => {
  const dbName = createDatabaseName('viewcounts');
  let database: Database;
  let app: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    await createDatabase(dbName);
    database = await openDatabase(adminUrl(dbName));
    await migrateDatabase(database);
    app = await startServer({
      DATABASE_URL: adminUrl(dbName),
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      TRUST_PROXY: '1',
      RATE_LIMIT_WRITES_PER_KEY: '0',
      RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await database?.close();
    await dropDatabase(dbName);
  });

  it('1,000 concurrent visitors of a plot page count exactly 1,000; one visitor reloading 300 times counts 1', { timeout: 600_000 }, async () => {
    const username = `views${randomBytes(4).toString('hex')}`;
    const { apiKey } = await createUser(database.db, { username });
    const auth = basic(username, apiKey);
    const created = await fetch(`${app.url}/v2/plots`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ figure: { data: [{ type: 'bar', name: 'v' }] }, filename: 'viewed' }),
    });
    const { file } = (await created.json()) as { file: { fid: string } };
    const page = `/~${username}/${nOf(file.fid)}/`;
    const visitor = (i: number) => ({ 'X-Forwarded-For': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
    const statuses = await burst(page, 1000, 64, app.url, visitor);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(await settledViews(app.url, file.fid, auth, 1000)).toBe(1000);

    // One visitor (one address) reloading: their first view counted above; none of these does.
    await burst(page, 300, 64, app.url, () => visitor(0));
    // A visitor who had not come yet, after them: counted once their page is sent, so everything before it has landed too.
    await burst(page, 1, 1, app.url, () => visitor(5000));
    expect(await settledViews(app.url, file.fid, auth, 1001)).toBe(1001);
    // Reads of the API and the figure are not views.
    await burst(`/v2/plots/${file.fid}/content`, 50, 64, app.url, visitor);
    await burst(page, 1, 1, app.url, () => visitor(5001));
    expect(await settledViews(app.url, file.fid, auth, 1002)).toBe(1002);
  });
});

describe('concurrency over HTTP', () => {
  it('200 concurrent creates by one owner get 200 distinct, gap-free fids and all are there', async () => {
    const owner = await newUser('many');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call('POST', '/v2/plots', { user: owner, body: { figure: { data: [{ type: 'scatter', name: `t${i}` }] } } })),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text.slice(0, 200)}`)).toEqual([]);
    const numbers = answers.map((a) => nOf(a.json.file.fid)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // Each answer's plot holds what that request sent.
    const contents = await Promise.all(answers.map((a) => call('GET', `/v2/plots/${a.json.file.fid}/content`, { user: owner })));
    const names = contents.map((c) => c.json.data[0].name as string).sort();
    expect(names).toEqual(Array.from({ length: 200 }, (_, i) => `t${i}`).sort());
    const { db } = await appDatabase();
    const [{ count }] = await queryRows<{ count: number }>(
      db,
      sql`SELECT count(*)::int AS count FROM files f JOIN users u ON u.id = f.owner_id WHERE u.username = ${owner.username}`,
    );
    expect(count).toBe(200);
  });

  it('concurrent updates of one plot leave one of the written figures, whole, with its own title and size', async () => {
    const owner = await newUser('race');
    const plot = await createPlot(owner, { figure: { data: [{ type: 'bar', name: 'v0' }], layout: { title: { text: 'v0' } } }, filename: 'race' });
    const figures = Array.from({ length: 30 }, (_, i) => ({
      data: Array.from({ length: (i % 5) + 1 }, (_, k) => ({ type: i % 2 ? 'bar' : 'scatter', name: `v${i}.${k}` })),
      layout: { title: { text: `v${i}` }, width: 300 + i, height: 200 + i },
    }));
    const answers = await Promise.all(figures.map((figure) => call('PUT', `/v2/plots/${plot.fid}`, { user: owner, body: { figure } })));
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text.slice(0, 200)}`)).toEqual([]);

    const content = (await call('GET', `/v2/plots/${plot.fid}/content`, { user: owner })).json;
    const k = figures.findIndex((f) => isDeepStrictEqual(f, content));
    expect(k, `stored figure ${JSON.stringify(content).slice(0, 300)} is none of the written ones`).toBeGreaterThanOrEqual(0);
    const detail = (await call('GET', `/v2/plots/${plot.fid}`, { user: owner })).json;
    expect(detail.figure).toStrictEqual(figures[k]);
    expect(detail.title).toBe(`v${k}`);
    expect([detail.width, detail.height]).toEqual([300 + k, 200 + k]);
  });
});
