// Stars and comments through the library, on PostgreSQL and on PGlite: the counters the records and
// the -stars order read stay exact under concurrent stars and unstars, when a stargazer's or an
// author's account is deleted, and concurrent comments never pass a plot's cap.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import { COMMENTS_PER_PLOT, createComment } from '@/lib/core/plots/comments';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { starPlot, unstarPlot } from '@/lib/core/plots/stars';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { newViewer, ORIGIN } from './_helpers';

describe.each(SQL_DRIVER)('stars and comments (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;

  beforeAll(async () => {
    db = database.db;
  });

  const counters = async (fileId: number) =>
    (await queryRows<{ stars: string; comment_count: number }>(db, sql`SELECT stars, comment_count FROM plots WHERE file_id = ${fileId}`))[0];
  const rowCounts = async (fileId: number) =>
    (
      await queryRows<{ stars: number; comments: number }>(
        db,
        sql`SELECT (SELECT count(*)::int FROM stars WHERE file_id = ${fileId}) AS stars, (SELECT count(*)::int FROM comments WHERE file_id = ${fileId}) AS comments`,
      )
    )[0];
  const newPlot = async (owner: Awaited<ReturnType<typeof newViewer>>) => {
    const fid = parseFid(JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'scatter' }] } }, ORIGIN)).file.fid)!;
    const [row] = await queryRows<{ id: number }>(db, sql`SELECT id FROM files WHERE owner_id = ${owner.id} AND n = ${fid.n}`);
    return { fid, id: Number(row.id) };
  };

  it('concurrent stars and unstars by many people leave the counter equal to the rows; a deleted account takes its star and comments along', async () => {
    const owner = await newViewer(db, 'owner');
    const fans = await Promise.all(Array.from({ length: 12 }, (_, i) => newViewer(db, `fan${i}`)));
    const plot = await newPlot(owner);
    // Each fan stars twice and some unstar, all at once.
    await Promise.all(fans.flatMap((fan) => [starPlot(db, fan, plot.fid), starPlot(db, fan, plot.fid)]));
    await Promise.all(fans.filter((_, i) => i % 3 === 0).map((fan) => unstarPlot(db, fan, plot.fid)));
    expect(Number((await counters(plot.id)).stars)).toBe(8);
    expect((await rowCounts(plot.id)).stars).toBe(8);

    await createComment(db, fans[1], plot.fid, { text: 'hello' });
    await createComment(db, fans[1], plot.fid, { text: 'again' });
    expect((await counters(plot.id)).comment_count).toBe(2);
    await db.execute(sql`DELETE FROM users WHERE id = ${fans[1].id}`);
    expect(Number((await counters(plot.id)).stars)).toBe(7);
    expect((await counters(plot.id)).comment_count).toBe(0);
    expect(await rowCounts(plot.id)).toEqual({ stars: 7, comments: 0 });
  });

  it('concurrent comments on a plot at its cap: none pass it', async () => {
    const owner = await newViewer(db, 'capowner');
    const plot = await newPlot(owner);
    // One below the cap (the counter is what the cap reads), then several writers at once.
    await db.execute(sql`UPDATE plots SET comment_count = ${COMMENTS_PER_PLOT - 1} WHERE file_id = ${plot.id}`);
    const writers = await Promise.all(Array.from({ length: 5 }, (_, i) => newViewer(db, `writer${i}`)));
    const results = await Promise.allSettled(writers.map((w) => createComment(db, w, plot.fid, { text: 'race' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toContain('the most it can hold');
    expect((await counters(plot.id)).comment_count).toBe(COMMENTS_PER_PLOT);
    expect((await rowCounts(plot.id)).comments).toBe(1);
  });
});
