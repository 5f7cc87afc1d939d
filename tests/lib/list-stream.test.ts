// List answers stream: records of large figures are read one at a time while the page is written,
// and the page is the same JSON as ever (both databases).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createGrid } from '@/lib/core/grids/grids';
import { createPlot } from '@/lib/core/plots/plots';
import { listPlots } from '@/lib/core/plots/plot-lists';
import { listQuerySchema } from '@/lib/http/request/queries';
import { DRIVERS, useDatabase } from '../support/postgres';
import { newViewer, ORIGIN, textOf } from './_helpers';
import { pageLinks } from '@/lib/http/responses';

describe.each(DRIVERS)('list answers with large figures (%s)', (driver) => {
  const database = useDatabase(driver);
  let owner: Viewer;
  const titles: string[] = [];

  beforeAll(async () => {
    owner = await newViewer(database.db, 'streamer');
    const { file } = await createGrid(database.db, owner, { data: { cols: { y: { data: [1, 2, 3] } } } }, ORIGIN);
    const ysrc = `${file.fid}:${file.cols[0].uid}`;
    for (const [i, size] of [10, 300_000, 20, 900_000, 30].entries()) {
      titles.push(`p${i}`);
      await createPlot(database.db, owner, { title: `p${i}`, figure: { data: [{ type: 'bar', ysrc }], layout: { meta: 'm'.repeat(size) } } }, ORIGIN);
    }
  });

  it('pages hold every record, large ones whole, in order', async () => {
    const seen: { title: string; meta: number }[] = [];
    let url: string | null = new URL('/v2/plots?page_size=2', ORIGIN).toString();
    while (url) {
      const u: URL = new URL(url);
      const page = await listPlots(database.db, null, listQuerySchema.parse(Object.fromEntries(u.searchParams)), ORIGIN, pageLinks(ORIGIN, u));
      const pieces: string[] = [];
      if (typeof page === 'string') pieces.push(page);
      else for await (const piece of page) pieces.push(piece);
      const body = JSON.parse(pieces.join(''));
      // A page with a large record comes in several pieces, none much larger than the largest record.
      expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(1_000_000);
      for (const r of body.results) seen.push({ title: r.title, meta: r.figure.layout.meta.length });
      url = body.next;
    }
    expect(seen).toEqual([...titles].reverse().map((title, i) => ({ title, meta: [30, 900_000, 20, 300_000, 10][i] })));
    expect(JSON.parse(await textOf(await listPlots(database.db, null, {}, ORIGIN, pageLinks(ORIGIN, new URL('/v2/plots', ORIGIN))))).results).toHaveLength(5);
  });
});
