// What the chart editor reads and checks through the core: the viewer's grids and their columns, the
// expert view's figure check (the create rules, nothing written), a type's data attributes from
// plotly's schema, and the plot page's title edit, which changes the chart's drawn title too.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { trashFile } from '@/lib/core/files/file-changes';
import { getFile } from '@/lib/core/files/files';
import { listColumnFacts } from '@/lib/core/grids/column-facts';
import { createGrid, listGridColumns, listOwnGrids } from '@/lib/core/grids/grids';
import { dataAttributePaths } from '@/lib/shared/figures/trace-facts';
import { checkPlotFigure, createPlot, getPlot, retitlePlot } from '@/lib/core/plots/plots';
import { parseFid, type PlotRecord } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, ORIGIN, people } from './_helpers';

describe.each(SQL_DRIVER)('the chart editor through the core (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  let grid: { fid: string; cols: { name: string; uid: string }[] };

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
    ({ file: grid } = await createGrid(
      db,
      alice,
      { filename: 'sales', world_readable: false, data: { cols: { x: { data: [1, 2, 3] }, y: { data: ['a', 'bb', 'c'] } } } },
      ORIGIN,
    ));
  });

  const src = (i: number) => `${grid.fid}:${grid.cols[i].uid}`;

  it("lists the viewer's live grids only, newest first, and their columns in order with their sizes", async () => {
    const { file: later } = await createGrid(db, alice, { filename: 'later', data: { cols: { only: { data: [1] } } } }, ORIGIN);
    const { file: trashed } = await createGrid(db, alice, { filename: 'gone', data: { cols: { z: { data: [1] } } } }, ORIGIN);
    await trashFile(db, alice, parseFid(trashed.fid)!);
    const names = (await listOwnGrids(db, alice)).map((g) => g.filename);
    expect(names).toEqual(['later', 'sales']);
    expect(await listOwnGrids(db, bob)).toEqual([]);
    const file = (await getFile(db, parseFid(grid.fid)!, null))!;
    const other = (await getFile(db, parseFid(later.fid)!, null))!;
    const cols = await listGridColumns(db, [file.id, other.id]);
    expect(cols.get(file.id)!.map((c) => [c.name, c.uid, c.length])).toEqual([
      ['x', grid.cols[0].uid, 3],
      ['y', grid.cols[1].uid, 3],
    ]);
    expect(cols.get(file.id)![1].bytes).toBeGreaterThan(cols.get(file.id)![0].bytes);
    expect(cols.get(other.id)!.map((c) => c.name)).toEqual(['only']);
  });

  it('knows a small grid from all its values: a city that first comes at row 25 is one of its two', async () => {
    const city = [...Array(24).fill('Oslo'), ...Array(6).fill('Lima')];
    const { file } = await createGrid(
      db,
      alice,
      { filename: 'long rows', data: { cols: { city: { data: city }, n: { data: city.map((_, i) => i) } } } },
      ORIGIN,
    );
    const id = (await getFile(db, parseFid(file.fid)!, null))!.id;
    const facts = (await listColumnFacts(db, [id])).get(id)!;
    expect(facts[file.cols[0].uid]).toMatchObject({ kind: 'category', distinct: 2, values: ['Oslo', 'Lima'] });
    expect(facts[file.cols[1].uid]).toMatchObject({ kind: 'number', distinct: 30 });
  });

  it('checks a figure by the create rules without writing: raw arrays, unreadable grids, missing columns', async () => {
    const before = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM plots`);
    await checkPlotFigure(db, alice, { data: [{ type: 'bar', xsrc: src(0), ysrc: src(1) }], layout: {} });
    await expectApiError(checkPlotFigure(db, alice, { data: [{ x: [1, 2] }] }), 400, /raw data arrays are not allowed/);
    await expectApiError(checkPlotFigure(db, bob, { data: [{ xsrc: src(0) }] }), 400, /does not exist or which you cannot read/);
    await expectApiError(checkPlotFigure(db, alice, { data: [{ xsrc: `${grid.fid}:nope` }] }), 400, /has no column 'nope'/);
    expect(await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM plots`)).toEqual(before);
  });

  it("names a type's data attributes from plotly's schema, nested ones as dotted paths", () => {
    const violin = dataAttributePaths('violin');
    expect(violin).toEqual(expect.arrayContaining(['x', 'y', 'customdata', 'ids']));
    expect(dataAttributePaths('sankey')).toEqual(expect.arrayContaining(['node.label', 'link.source', 'link.value']));
    // Settings that may take one value per point (hover label fonts, marker colours) are not offered as columns.
    expect(violin.filter((p) => p.startsWith('hoverlabel') || p === 'text')).toEqual([]);
  });

  it("the page's title edit changes the record's title and the chart's drawn title (its font kept), and the caption", async () => {
    const created = JSON.parse(
      await createPlot(db, alice, { figure: { data: [{ xsrc: src(0) }], layout: { title: { text: 'Old', font: { size: 20 } } } } }, ORIGIN),
    ) as { file: { fid: string } };
    const fid = parseFid(created.file.fid)!;
    const version = async () =>
      (
        await queryRows<{ v: number }>(
          db,
          sql`SELECT p.version AS v FROM plots p JOIN files f ON f.id = p.file_id WHERE f.n = ${fid.n} AND f.owner_id = ${alice.id}`,
        )
      )[0].v;
    const v0 = await version();
    await retitlePlot(db, alice, fid, { title: 'New', caption: 'words' });
    const record = JSON.parse(await getPlot(db, alice, fid, ORIGIN)) as PlotRecord;
    expect(record.title).toBe('New');
    expect(record.caption).toBe('words');
    expect(record.figure.layout).toEqual({ title: { text: 'New', font: { size: 20 } } });
    expect(await version()).toBe(v0 + 1);
    // The same title again redraws nothing; a caption alone neither.
    await retitlePlot(db, alice, fid, { title: 'New', caption: 'other words' });
    expect(await version()).toBe(v0 + 1);
    // Others: the update rules (a reader is refused; the plot is public).
    await expectApiError(retitlePlot(db, bob, fid, { title: 'Mine', caption: '' }), 403);
  });
});
