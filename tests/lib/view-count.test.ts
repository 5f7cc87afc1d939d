// The plot page's view counter, on both drivers: a view counts once per visitor per day (concurrent
// views of many visitors each once, of one visitor once), what is stored of a visitor is a salted hash,
// earlier days are pruned, and its commit mode (no wait for the WAL flush) ends with its own statement.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createPlot } from '@/lib/core/plots/plots';
import { countView, visitorOf } from '@/lib/core/plots/view-counts';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { fileIds, newViewer, ORIGIN } from './_helpers';

describe.each(SQL_DRIVER)('view count (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;

  beforeAll(async () => {
    db = database.db;
  });

  const newPlot = async (owner: Viewer) => {
    const { file } = JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'bar' }] } }, ORIGIN)) as { file: { fid: string } };
    return (await fileIds(db)).get(file.fid)!;
  };
  const viewsOf = async (id: number) => Number((await queryRows<{ views: string }>(db, sql`SELECT views FROM plots WHERE file_id = ${id}`))[0].views);
  const address = (i: number) => visitorOf(null, `10.0.${Math.floor(i / 256)}.${i % 256}`);

  it('counts each of many concurrent visitors once, and one visitor viewing again and again once', async () => {
    const owner = await newViewer(db, 'viewed');
    const id = await newPlot(owner);
    const counted = await Promise.all(Array.from({ length: 40 }, (_, i) => countView(db, id, address(i))));
    expect(counted.filter(Boolean)).toHaveLength(40);
    expect(await viewsOf(id)).toBe(40);
    const again = await Promise.all(Array.from({ length: 40 }, () => countView(db, id, address(0))));
    expect(again.filter(Boolean)).toEqual([]);
    expect(await viewsOf(id)).toBe(40);
    // A signed-in person is one visitor wherever they are; not the same visitor as an address.
    expect(await countView(db, id, visitorOf(owner, '10.0.0.0'))).toBe(true);
    expect(await countView(db, id, visitorOf(owner, '10.9.9.9'))).toBe(false);
    expect(await viewsOf(id)).toBe(41);
  });

  it('counts a visitor again on another day, stores no visitor as given, and keeps only the latest day', async () => {
    const owner = await newViewer(db, 'daily');
    const id = await newPlot(owner);
    const day1 = new Date('2030-01-01T23:59:00Z');
    const day2 = new Date('2030-01-02T00:01:00Z');
    expect(await countView(db, id, address(7), day1)).toBe(true);
    expect(await countView(db, id, address(7), day1)).toBe(false);
    expect(await countView(db, id, address(7), day2)).toBe(true);
    expect(await viewsOf(id)).toBe(2);
    const rows = await queryRows<{ day: string; visitor: string }>(db, sql`SELECT day::text AS day, visitor FROM plot_views WHERE file_id = ${id}`);
    expect(rows.map((r) => r.day)).toEqual(['2030-01-02']);
    expect(rows[0].visitor).not.toContain('10.0.0.7');
    expect(rows[0].visitor).toMatch(/^[\w-]{22}$/);
    const salts = await queryRows<{ day: string }>(db, sql`SELECT day::text AS day FROM view_salts`);
    expect(salts.map((s) => s.day)).toEqual(['2030-01-02']);
  });

  it('leaves synchronous_commit on for every later statement of every connection', async () => {
    const owner = await newViewer(db, 'viewed2');
    const id = await newPlot(owner);
    await Promise.all(Array.from({ length: 40 }, (_, i) => countView(db, id, address(i))));
    const modes = await Promise.all(
      Array.from({ length: 40 }, () => queryRows<{ mode: string }>(db, sql`SELECT current_setting('synchronous_commit') AS mode`)),
    );
    expect(new Set(modes.map(([r]) => r.mode))).toEqual(new Set(['on']));
  });

  it('a missing plot counts nothing and keeps nothing', async () => {
    expect(await countView(db, 987_654_321, address(1))).toBe(false);
    expect(await queryRows(db, sql`SELECT 1 FROM plot_views WHERE file_id = 987654321`)).toEqual([]);
  });
});
