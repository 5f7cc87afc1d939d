// Charts of any size (issue 39): a long line trace's view (lib/core/plots/plot-views.ts), reduced or
// whole, decided with the plot's reader rule, and the page's mode and the image's figure from it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createGrid } from '@/lib/core/grids/grids';
import { arraySeries } from '@/lib/core/grids/json-series';
import { describePlotChart } from '@/lib/core/plots/chart-data';
import { figureToRender } from '@/lib/core/plots/plot-content';
import { pageChart as chartView, readPlotView } from '@/lib/core/plots/plot-views';
import { createPlot, getPlotFile } from '@/lib/core/plots/plots';
import { readableAs, VISIBILITY_FIELDS, type Visibility } from '@/lib/core/permissions';
import { parseFid } from '@/lib/core/records';
import { dateMs } from '@/lib/shared/figures/column-facts';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { fileIds, ORIGIN, people } from './_helpers';

const ROWS = 110_000;
const T0 = Date.UTC(2024, 0, 1);
const stamp = (i: number) => new Date(T0 + i * 60_000).toISOString().replace('T', ' ').slice(0, 19);
const wave = (i: number) => (i * 7919) % 1000;

describe('series from stored JSON', () => {
  it('reads numbers, numeric text and dates (UTC, as plotly reads them), blanks as NaN; knows whether it is sorted', async () => {
    expect(dateMs('2024-01-02 03:04:05.5')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 500));
    expect(dateMs('2024-01-02T03:04+02:00')).toBe(Date.UTC(2024, 0, 2, 3, 4));
    expect(dateMs('yesterday')).toBeNaN();
    // The common forms' fast path gives Date's answer (a day past a month's end rolls over as Date.UTC's does).
    for (const text of ['0001-01-01', '1900-02-28 12:00:00', '1969-12-31T23:59:59', '2024-02-29 23:59:59', '2024-02-30', '9999-12-31 23:59:59']) {
      const [y, mo, d, h = 0, mi = 0, sec = 0] = text.split(/[- T:]/).map(Number);
      const want = new Date(0);
      want.setUTCFullYear(y, mo - 1, d);
      want.setUTCHours(h, mi, sec);
      expect(dateMs(text), text).toBe(want.getTime());
    }
    const dates = arraySeries(['2024-01-01', null, '2024-01-03', '']);
    expect(dates.kind).toBe('date');
    expect(Array.from(await dates.rows(0, 4))).toEqual([T0, Number.NaN, T0 + 2 * 86_400_000, Number.NaN]);
    expect(dates.sorted).toBe(true);
    // A blank goes with the value after it.
    expect(await dates.rowAtOrAfter(T0 + 1)).toBe(1);
    const numbers = arraySeries([3, '1.5', '', 9, 2]);
    expect([numbers.kind, numbers.sorted]).toEqual(['number', false]);
    // The one number rule (the blocks' too): a column with words in it is not drawn as numbers.
    expect(Array.from(await arraySeries([3, 'x']).rows(0, 2))).toEqual([Number.NaN, Number.NaN]);
    const ext = await numbers.extremes(0, 5, 2);
    expect(Array.from(ext.bounds)).toEqual([0, 2, 5]);
    expect([Array.from(ext.minRow), Array.from(ext.maxRow)]).toEqual([
      [1, 4],
      [0, 3],
    ]);
  });
});

describe.each(SQL_DRIVER)('plot views (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let long: (name: string) => string;

  beforeAll(async () => {
    db = database.db;
    ({ alice } = await people(db));
    long = await grid('private', {
      t: Array.from({ length: ROWS }, (_, i) => stamp(i)),
      y: Array.from({ length: ROWS }, (_, i) => wave(i)),
      shuffled: Array.from({ length: ROWS }, (_, i) => (i * 7) % ROWS),
    });
  });

  let count = 0;
  async function grid(sharing: Visibility, cols: Record<string, unknown[]>) {
    const data = { cols: Object.fromEntries(Object.entries(cols).map(([name, values]) => [name, { data: values }])) };
    const { file } = await createGrid(db, alice, { filename: `g${++count}`, ...VISIBILITY_FIELDS[sharing], data }, ORIGIN);
    return (name: string) => `${file.fid}:${file.cols[Object.keys(cols).indexOf(name)].uid}`;
  }
  async function plot(figure: Record<string, unknown>) {
    const rec = JSON.parse(await createPlot(db, alice, { filename: `p${++count}`, ...VISIBILITY_FIELDS.public, figure }, ORIGIN)) as { file: { fid: string } };
    const id = (await fileIds(db)).get(rec.file.fid)!;
    const file = readableAs(await getPlotFile(db, parseFid(rec.file.fid)!, null), null)!;
    return { id, file };
  }

  it('a public plot of a private grid: every reader sees the view it publishes, reduced to its extremes or whole when few rows', async () => {
    const { id, file } = await plot({ data: [{ type: 'scattergl', mode: 'lines', xsrc: long('t'), ysrc: long('y') }] });
    // Drawn as SVG, so the smallest bundle does.
    expect(await chartView(db, id)).toEqual({ mode: 'reduced', bundle: 'basic' });
    const all = await readPlotView(db, file, null, { px: 500 });
    const [t] = all.traces;
    expect(t).toMatchObject({ index: 0, xDate: true, rows: ROWS, total: ROWS, whole: false });
    expect(t.x.length).toBeLessThanOrEqual(1002);
    expect([Math.min(...(t.y as number[])), Math.max(...(t.y as number[]))]).toEqual([0, 999]);
    // Read from the columns' blocks (110,000 rows), x placed within its stretch: on a column of even steps, each point is a row as stored.
    const off = (t.x as number[]).map((x, i) => [(x - T0) / 60_000, t.y[i]]).filter(([k, y]) => !Number.isInteger(k) || y !== wave(k as number));
    expect(off).toEqual([]);
    // 100 rows from row 5,000 (and one either side): every one, as stored.
    const window = await readPlotView(db, file, null, { x0: T0 + 5_000 * 60_000, x1: T0 + 5_099 * 60_000, px: 500 });
    const w = window.traces[0];
    expect(w.whole).toBe(true);
    expect(w.x).toEqual(Array.from({ length: 102 }, (_, j) => T0 + (4_999 + j) * 60_000));
    expect(w.y).toEqual(Array.from({ length: 102 }, (_, j) => wave(4_999 + j)));
    expect(window.etag).not.toBe(all.etag);
    expect((await readPlotView(db, file, null, { px: 500 })).etag).toBe(all.etag);
    // Its image draws the same reduction, not the rows.
    const drawn = JSON.parse((await figureToRender(db, id))!.text) as { data: { x: number[] }[]; layout: { xaxis: { type: string } } };
    expect(drawn.data[0].x.length).toBeLessThanOrEqual(2_002);
    expect(drawn.layout.xaxis.type).toBe('date');
  });

  it('a plot too large to read whole is told in words from its overview: every row counted, its ranges exact', async () => {
    const { file } = await plot({
      data: [
        { type: 'scatter', mode: 'lines', xsrc: long('t'), ysrc: long('y') },
        { type: 'scatter', mode: 'lines', xsrc: long('t'), ysrc: long('shuffled') },
      ],
    });
    const words = await describePlotChart(db, file, null, { title: 'Long', caption: '' });
    expect(words).toContain('"trace 0": 110,000 points, y from 0 to 999');
    // 109,999, in four significant digits as the words give numbers.
    expect(words).toContain('"trace 1": 110,000 points, y from 0 to 110,000');
    expect(words).toContain('2024-01-01 00:00:00');
    expect(words).not.toContain('too large');
  });

  it('without an x, by row number; an unsorted x or another src keeps the live-drawing rule', async () => {
    const byRow = await plot({
      data: [
        { type: 'scatter', ysrc: long('y') },
        { type: 'scatter', ysrc: long('shuffled') },
      ],
    });
    expect((await chartView(db, byRow.id)).mode).toBe('reduced');
    const view = await readPlotView(db, byRow.file, null, { traces: [1], x0: 10, x1: 19, px: 100 });
    expect(view.traces.map((t) => [t.index, t.x, t.y])).toEqual([
      [1, Array.from({ length: 12 }, (_, j) => 9 + j), Array.from({ length: 12 }, (_, j) => ((9 + j) * 7) % ROWS)],
    ]);
    const unsorted = await plot({ data: [{ type: 'scatter', xsrc: long('shuffled'), ysrc: long('y') }] });
    expect((await chartView(db, unsorted.id)).mode).toBe('on-request');
    expect((await readPlotView(db, unsorted.file, null, { px: 100 })).traces).toEqual([]);
    const colored = await plot({ data: [{ type: 'scatter', ysrc: long('y'), marker: { colorsrc: long('y') } }] });
    expect((await chartView(db, colored.id)).mode).toBe('on-request');
  });
});
