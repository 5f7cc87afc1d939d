// How the plot page draws a chart (chartView): its mode, and the plotly.js bundle the database picks
// from the stored figure, which must be the bundle the browser's own rule picks from the figure it
// fetches (lib/shared/figures/plotly-bundles.ts), for every demo mock and for odd figures.
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createPlotFromRawFigure } from '@/lib/core/plots/raw-figure';
import { chartView } from '@/lib/core/images/images';
import { figureBundle } from '@/lib/shared/figures/plotly-bundles';
import { createPlot } from '@/lib/core/plots/plots';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { fileIds, newViewer, ORIGIN } from './_helpers';

describe.each(SQL_DRIVER)('chart view (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let owner: Viewer;

  beforeAll(async () => {
    db = database.db;
    owner = await newViewer(db, 'charts');
  });

  const idOf = async (fid: string) => (await fileIds(db)).get(fid)!;

  it('picks the bundle the browser would, for every demo mock', async () => {
    const files = readdirSync('fixtures/plotly-mocks').filter((f) => f.endsWith('.json'));
    for (const file of files) {
      const raw = JSON.parse(readFileSync(`fixtures/plotly-mocks/${file}`, 'utf8')) as { data: unknown; layout?: unknown; frames?: unknown };
      const fid = await createPlotFromRawFigure(db, owner, raw, { filename: file });
      expect((await chartView(db, await idOf(fid))).bundle, file).toBe(figureBundle(raw));
    }
  }, 120_000);

  it('frames’ typed traces and layout subplots count; untyped and malformed parts do not', async () => {
    // Figures without data values (the API takes values only through grids).
    const cases: [Record<string, unknown>, string][] = [
      [{ data: [{ name: 'a' }, { type: '', name: 'b' }] }, 'basic'],
      [{ data: [{ type: 'bar' }], frames: [{ data: [{ name: 'c' }] }, { data: [{ type: 'violin' }] }] }, 'cartesian'],
      [{ data: [{ type: 'bar' }], layout: { ternary: {} } }, 'cartesian'],
      [{ data: [{ name: 'a' }], layout: { scene2: {} } }, 'full'],
      [{ data: [{ type: 'scattergl' }] }, 'full'],
    ];
    for (const [figure, want] of cases) {
      const fid = (JSON.parse(await createPlot(db, owner, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid;
      const view = await chartView(db, await idOf(fid));
      expect(view, JSON.stringify(figure)).toEqual({ mode: 'live', bundle: want });
      expect(figureBundle(figure)).toBe(want);
    }
  });
});
