// "Bring your charts", stored (lib/core/imports/import-figures.ts): plotly's files made plots on grids
// in folders named after their files; a run again skips what it made; a refused figure leaves nothing;
// Chart Studio's numbers kept when free.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { readFigureFiles, type FigureFile } from '@/lib/core/imports/figure-files';
import { importFigures } from '@/lib/core/imports/import-figures';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { parseFid } from '@/lib/core/records';
import { DRIVERS, useDatabase } from '../support/postgres';
import { joinParts, newViewer, ORIGIN } from './_helpers';

const file = (name: string): FigureFile => ({ name, bytes: readFileSync(`fixtures/bring/${name}`) });

describe.each(DRIVERS)('figure imports (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let owner: Viewer;

  beforeAll(async () => {
    db = database.db;
    owner = await newViewer(db, 'ada');
  });

  const filesOf = () =>
    queryRows<{ n: number; filetype: string; filename: string; parent: number }>(
      db,
      sql`SELECT n, filetype, filename, parent FROM files WHERE owner_id = ${owner.id} ORDER BY n`,
    );

  it('makes each figure a plot on a grid in its file’s folder, keeps free numbers, and skips all of it when run again', async () => {
    const batch = await readFigureFiles([file('charts.zip'), file('growth.html'), file('deep.json')]);
    const lines: string[] = [];
    const first = await importFigures(db, owner, batch, {
      origin: ORIGIN,
      keepNumbers: true,
      onProgress: (done, total, line) => lines.push(`${done}/${total} ${line}`),
    });
    expect(first.refused.map((r) => r.label)).toEqual(['deep.json']);
    expect(first.made.map((p) => [p.fid, p.name, p.folder])).toEqual([
      ['ada:7', 'Monthly sales', 'charts'],
      ['ada:11', 'Fruit counts', 'charts'],
      ['ada:13', 'Temperature', 'charts'],
      ['ada:15', 'Share', 'charts'],
      ['ada:17', 'Heat', 'charts'],
      ['ada:20', 'Growth rate', 'growth'],
    ]);
    expect(lines[0]).toBe('1/6 made ada:7 "Monthly sales" in charts/ from charts.zip: charts/chart-studio/sales-plot.json');
    const sales = JSON.parse(await joinParts((await getPlotContent(db, owner, parseFid('ada:7')!, { inlineData: true, mapUnreadable: false })).parts()));
    expect(sales.data[0]).toMatchObject({ x: ['Jan', 'Feb', 'Mar'], y: [120, 135, 160] });
    const growth = JSON.parse(await joinParts((await getPlotContent(db, owner, parseFid('ada:20')!, { inlineData: false, mapUnreadable: false })).parts()));
    expect(growth.data[0].xsrc).toMatch(/^ada:19:/);
    expect(growth.frames[0].data[0].ysrc).toMatch(/^ada:19:/);
    expect(growth.layout.template.data.bar).toBeTruthy();
    const rows = await filesOf();
    const folders = rows.filter((r) => r.filetype === 'fold').map((r) => r.filename);
    expect(folders).toEqual(['charts', 'growth']);
    expect(rows.filter((r) => r.filetype === 'grid').map((r) => r.filename)).toContain('Monthly sales data');

    const again = await importFigures(db, owner, await readFigureFiles([file('charts.zip'), file('growth.html')]), { origin: ORIGIN, keepNumbers: true });
    expect(again.made).toEqual([]);
    expect(again.skipped.map((s) => s.fid)).toEqual(['ada:7', 'ada:11', 'ada:13', 'ada:15', 'ada:17', 'ada:20']);
    expect(await filesOf()).toEqual(rows);
  });

  it('leaves nothing of a figure the create refuses (no grid, no plot, no folder), and says why', async () => {
    const before = await filesOf();
    const tooMany = { data: Array.from({ length: 1001 }, () => ({ y: [1] })) };
    const batch = await readFigureFiles([{ name: 'many-traces.json', bytes: Buffer.from(JSON.stringify(tooMany)) }]);
    const result = await importFigures(db, owner, batch, { origin: ORIGIN });
    expect(result.made).toEqual([]);
    expect(result.refused).toEqual([{ label: 'many-traces.json', reason: expect.stringMatching(/at most 1000 traces/) }]);
    expect(await filesOf()).toEqual(before);
  });
});
