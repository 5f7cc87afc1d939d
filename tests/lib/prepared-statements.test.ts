// What a connection keeps prepared, on Postgres: each named statement holds its parsed query and plan
// (a list page's: 200-350 KB) for the connection's life. Statement texts that vary with the request
// (page sizes, orders, filters, list lengths) must not make that grow without bound: only the usual
// list shapes are prepared, and a process prepares a bounded number of other raw texts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database, type Db } from '@/db/client';
import { listPlots, type ListQuery } from '@/lib/core/plots/plot-lists';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { ORIGIN } from './_helpers';
import { pageLinks } from '@/lib/http/responses';
import { createMigratedDatabase } from '../support/postgres';

describe('prepared statements (postgres)', () => {
  const name = createDatabaseName('prepared');
  let database: Database;
  let db: Db;

  beforeAll(async () => {
    await createMigratedDatabase(name);
    // One connection, so every statement lands on the backend the assertions read.
    const pool = process.env.DB_POOL_MAX;
    process.env.DB_POOL_MAX = '1';
    try {
      database = await openDatabase(adminUrl(name));
    } finally {
      if (pool === undefined) delete process.env.DB_POOL_MAX;
      else process.env.DB_POOL_MAX = pool;
    }
    db = database.db;
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await dropDatabase(name);
  });

  const prepared = async () => (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM pg_prepared_statements`))[0].n;
  const cachedBytes = async () =>
    Number(
      (
        await queryRows<{ bytes: string }>(db, sql`SELECT coalesce(sum(total_bytes), 0) AS bytes FROM pg_backend_memory_contexts WHERE name LIKE 'CachedPlan%'`)
      )[0].bytes,
    );

  // Page sizes spread over the whole allowed range (each a distinct statement text if it were inlined).
  const pageSizes = [1, 2, 3, 5, 8, 13, 19, 20, 21, 34, 50, 55, 89, 99, 100];

  it('prepares the usual list shapes only: 150 shapes a caller can ask for keep a few', async () => {
    const before = await prepared();
    const url = new URL(`${ORIGIN}/v2/plots`);
    for (const order_by of ['-creation_time', '-views', 'views', '-stars', 'stars'] as const) {
      for (const page_size of pageSizes) {
        for (const max_quality of [undefined, 5]) {
          const q = { order_by, page_size, max_quality } as ListQuery;
          // Several runs each: Postgres makes a prepared statement's generic plan on its sixth.
          for (let i = 0; i < 6; i++) expect(JSON.parse((await listPlots(db, null, q, ORIGIN, pageLinks(ORIGIN, url))) as string).results).toEqual([]);
        }
      }
    }
    // The default page size (and the gallery's) in each order, without an upper quality bound.
    expect((await prepared()) - before).toBeLessThanOrEqual(10);
    expect(await cachedBytes()).toBeLessThan(10 * 1024 * 1024);
  }, 120_000);

  // (Statements without parameters are never prepared: postgres.js sends them by the simple protocol.)
  it('prepares a bounded number of distinct raw statement texts; the rest run unnamed, correctly', async () => {
    const before = await prepared();
    for (let i = 0; i < 400; i++) {
      const [row] = await queryRows<{ n: number }>(db, sql`SELECT ${sql.raw(String(i))} + ${1}::int AS n`);
      expect(row.n).toBe(i + 1);
    }
    const added = (await prepared()) - before;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(200);
    // A text prepared before goes on running prepared, and right.
    expect((await queryRows<{ n: number }>(db, sql`SELECT 0 + ${1}::int AS n`))[0].n).toBe(1);
  }, 60_000);
});
