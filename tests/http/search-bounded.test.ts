// A search whose words are common but missing from the newest plots, over HTTP on a server of its
// own (its database holds SEARCH_WALK + 5,000 newer plots, which the shared one must not): the API
// answers an empty page whose `next` resumes past the bounded walk, the next page finds the newest
// matches, and the web page says that nothing matched so far instead of "No plots match".
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { SEARCH_WALK } from '@/lib/core/plots/search';
import { createUser } from '@/lib/core/accounts/users';
import { createMigratedDatabase } from '../support/postgres';

describe('search past a bounded walk (HTTP, own server)', () => {
  const dbName = createDatabaseName('search_walk');
  let database: Database;
  let app: Awaited<ReturnType<typeof startServer>>;
  // More old matches than a walk reads, so the page is not completed through the index.
  const OLD = SEARCH_WALK + 10;

  beforeAll(async () => {
    await createMigratedDatabase(dbName);
    database = await openDatabase(adminUrl(dbName));
    const { user } = await createUser(database.db, { username: 'walker' });
    // OLD public plots titled "heron" a year back, then a walk's worth and more of newer ones without it.
    const fresh = SEARCH_WALK + 100;
    await database.db.execute(sql`
      WITH f AS (INSERT INTO files (owner_id, n, filetype, filename, created_at)
                 SELECT ${user.id}::int, g, 'plot', 'old ' || g, now() - interval '1 year' + g * interval '1 second' FROM generate_series(1, ${OLD}::int) g RETURNING id, n)
      INSERT INTO plots (file_id, figure, title) SELECT id, '{"data":[]}'::jsonb, 'heron ' || n FROM f`);
    await database.db.execute(sql`
      WITH f AS (INSERT INTO files (owner_id, n, filetype, filename) SELECT ${user.id}::int, ${OLD}::int + g, 'plot', 'new ' || g FROM generate_series(1, ${fresh}::int) g RETURNING id, n)
      INSERT INTO plots (file_id, figure, title) SELECT id, '{"data":[]}'::jsonb, 'recent ' || n FROM f`);
    await database.db.execute(sql`UPDATE users SET file_counter = ${OLD + fresh}::int WHERE id = ${user.id}`);
    await database.db.execute(sql`ANALYZE plots`);
    const [{ n }] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM plots WHERE listed`);
    expect(n).toBe(OLD + fresh);
    app = await startServer({ DATABASE_URL: adminUrl(dbName), DEMO_SEED: 'false', IMAGE_WORKER: 'false' });
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await database?.close();
    await dropDatabase(dbName);
  });

  type Page = { results: { fid: string; title: string }[]; next: string | null; previous: string | null };
  const newestHerons = (from: number, count: number) => Array.from({ length: count }, (_, i) => `walker:${from - i}`);

  it('the API: an empty first page whose next resumes past the walk and finds the newest matches', async () => {
    const res = await fetch(`${app.url}/v2/search?q=heron&page_size=5`);
    expect(res.status).toBe(200);
    const first = (await res.json()) as Page;
    expect(first.results).toEqual([]);
    expect(first.previous).toBeNull();
    expect(new URL(first.next!).searchParams.get('q')).toBe('heron');
    const second = (await (await fetch(first.next!)).json()) as Page;
    expect(second.results.map((r) => r.fid)).toEqual(newestHerons(OLD, 5));
    const third = (await (await fetch(second.next!)).json()) as Page;
    expect(third.results.map((r) => r.fid)).toEqual(newestHerons(OLD - 5, 5));
  });

  it('the web page says nothing matched so far, not that nothing matches, and its next page shows the plots', async () => {
    // (React separates adjacent text with <!-- -->.)
    const html = (await (await fetch(`${app.url}/search?q=heron`)).text()).replaceAll('<!-- -->', '');
    expect(html).toContain('No matches among the 20,000 plots searched so far');
    expect(html).not.toContain('No plots match');
    expect(html).not.toContain('class="plot-card');
    const next = /<a rel="next" href="([^"]+)"/.exec(html)?.[1];
    expect(next, 'a next page link').toBeTruthy();
    const more = (await (await fetch(new URL(next!.replace(/&amp;/g, '&'), app.url))).text()).replaceAll('<!-- -->', '');
    expect(more).toContain(`heron ${OLD}`);
    expect(more).not.toContain('No matches among');
  });
});
