// The figure a chart's text alternative and data table read (lib/core/plots/chart-data.ts), of a plot a
// page found readable as it finds it (readableAs: a private plot is unreadable as a missing one is; a
// secret link's key opens it): the data the reader's chart draws (their grids inline, the owner's
// private grids through the plot), and a bound on what one page reads (past it, the figure alone, said to be so).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { describePlotChart, readChartFigure } from '@/lib/core/plots/chart-data';
import { describeChart } from '@/lib/shared/figures/chart-description';
import { chartTable, TABLE_ROWS } from '@/lib/shared/figures/chart-table';
import { rowsBodySchema } from '@/lib/core/grids/grid-input';
import { appendRows } from '@/lib/core/grids/column-verbs';
import { createGrid } from '@/lib/core/grids/grids';
import { LIVE_MAX_BYTES } from '@/lib/shared/figures/live-drawing';
import { readableAs, VISIBILITY_FIELDS, type Visibility } from '@/lib/core/permissions';
import { createPlot, getPlotFile } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { ORIGIN, people } from './_helpers';

describe.each(SQL_DRIVER)('chart figure for words and table (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  let count = 0;
  async function grid(owner: Viewer, sharing: Visibility, cols: Record<string, unknown[]>) {
    const data = { cols: Object.fromEntries(Object.entries(cols).map(([name, values]) => [name, { data: values }])) };
    const { file } = await createGrid(db, owner, { filename: `g${++count}`, ...VISIBILITY_FIELDS[sharing], data }, ORIGIN);
    return (name: string) => `${file.fid}:${file.cols[Object.keys(cols).indexOf(name)].uid}`;
  }
  async function plot(owner: Viewer, sharing: Visibility, figure: Record<string, unknown>): Promise<{ fid: Fid; shareKey: string | null }> {
    const text = await createPlot(db, owner, { filename: `p${++count}`, ...VISIBILITY_FIELDS[sharing], figure }, ORIGIN);
    const rec = JSON.parse(text) as { file: { fid: string; share_key?: string } };
    return { fid: parseFid(rec.file.fid)!, shareKey: rec.file.share_key ?? null };
  }
  /** The plot as a page finds it for `viewer` (with a share key): looked up and checked once. */
  const found = async (viewer: Viewer | null, fid: Fid, shareKey?: string | null) => readableAs(await getPlotFile(db, fid, viewer), viewer, shareKey);
  async function readable(viewer: Viewer | null, fid: Fid, shareKey?: string | null) {
    const file = await found(viewer, fid, shareKey);
    expect(file, `readable to ${viewer?.username ?? 'anonymous'}`).toBeDefined();
    return file!;
  }
  const figureFor = async (viewer: Viewer | null, fid: Fid, shareKey?: string | null) =>
    readChartFigure(db, await readable(viewer, fid, shareKey), viewer, { shareKey });
  const describeFor = async (viewer: Viewer | null, fid: Fid, words: { title: string; caption: string }) =>
    describePlotChart(db, await readable(viewer, fid), viewer, words);

  it('reads the data the chart draws: readable grids inline, the owner’s private grid through a public plot', async () => {
    const pub = await grid(alice, 'public', { x: ['a', 'b', 'c'], y: [1, 2, 3] });
    const priv = await grid(alice, 'private', { y: [7, 8, 9] });
    const { fid } = await plot(alice, 'public', {
      data: [
        { type: 'bar', name: 'Open', xsrc: pub('x'), ysrc: pub('y') },
        { type: 'bar', name: 'Closed', xsrc: pub('x'), ysrc: priv('y') },
      ],
    });
    for (const viewer of [null, bob, alice]) {
      const { figure, dataOmitted } = await figureFor(viewer, fid);
      expect(dataOmitted).toBe(false);
      const table = chartTable(figure, 1);
      expect(table.columns.map((c) => `${c.trace} ${c.field}`)).toEqual(['Open x', 'Open y', 'Closed x', 'Closed y']);
      expect(table.rows).toEqual([
        ['a', '1', 'a', '7'],
        ['b', '2', 'b', '8'],
        ['c', '3', 'c', '9'],
      ]);
      expect(describeChart(figure, { title: 'T', caption: '' })).toContain('"Closed": 3 points, y from 7 to 9');
    }
  });

  it('a private plot is unreadable as a missing one is; a secret plot opens with its key alone', async () => {
    const g = await grid(alice, 'private', { y: [4, 5] });
    const priv = await plot(alice, 'private', { data: [{ ysrc: g('y') }] });
    const secret = await plot(alice, 'secret', { data: [{ ysrc: g('y') }] });
    expect(secret.shareKey).toBeTruthy();
    expect(await found(bob, { owner: 'alice', n: 999_999 })).toBeUndefined();
    for (const viewer of [null, bob]) {
      expect(await found(viewer, priv.fid)).toBeUndefined();
      expect(await found(viewer, secret.fid)).toBeUndefined();
      expect(await found(viewer, secret.fid, 'wrong')).toBeUndefined();
      const opened = await figureFor(viewer, secret.fid, secret.shareKey);
      expect(chartTable(opened.figure, 1).rows).toEqual([['4'], ['5']]);
    }
    expect(chartTable((await figureFor(alice, priv.fid)).figure, 1).rows).toEqual([['4'], ['5']]);
  });

  it('pages a long column', async () => {
    const y = Array.from({ length: TABLE_ROWS * 3 }, (_, i) => i);
    const g = await grid(alice, 'public', { y });
    const { fid } = await plot(alice, 'public', { data: [{ ysrc: g('y') }] });
    const { figure } = await figureFor(null, fid);
    const third = chartTable(figure, 3);
    expect(third.pageCount).toBe(3);
    expect(third.rows[0]).toEqual([String(TABLE_ROWS * 2)]);
  });

  it('past the data a page reads at once, the figure alone, said to be so', async () => {
    // Text cells make the bytes without making many values.
    const big = Array.from({ length: Math.ceil(LIVE_MAX_BYTES / 50_000) + 10 }, () => 'v'.repeat(50_000));
    const g = await grid(alice, 'public', { t: big });
    const { fid } = await plot(alice, 'public', { data: [{ type: 'bar', name: 'Big', ysrc: g('t') }] });
    const { figure, dataOmitted } = await figureFor(null, fid);
    expect(dataOmitted).toBe(true);
    expect(JSON.stringify(figure).length).toBeLessThan(10_000);
    expect(describeChart(figure, { title: 'T', caption: '', dataOmitted })).toContain('Its data is too large to summarise here.');
  });

  it('keeps a text alternative until its figure or data changes', async () => {
    const g = await grid(alice, 'public', { y: [1, 2] });
    const { fid } = await plot(alice, 'public', { data: [{ type: 'bar', name: 'Kept', ysrc: g('y') }] });
    const words = { title: 'Kept', caption: '' };
    const first = await describeFor(null, fid, words);
    expect(first).toContain('"Kept": 2 points, y from 1 to 2');
    expect(await describeFor(bob, fid, words)).toBe(first);
    expect(await describeFor(null, fid, { ...words, caption: 'Now with a caption' })).toContain('Now with a caption.');
    const gridFid = parseFid(g('y').split(':').slice(0, 2).join(':'))!;
    await appendRows(db, alice, gridFid, rowsBodySchema.parse({ rows: [[50]] }), ORIGIN);
    expect(await describeFor(null, fid, words)).toContain('"Kept": 3 points, y from 1 to 50');
  });
});
