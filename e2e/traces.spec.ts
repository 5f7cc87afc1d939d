// Every trace type in the demo gallery's plotly mocks (fixtures/plotly-mocks) draws offline: for each type,
// a public demo plot holding it is opened as an embed, with every non-local request blocked (the
// offline guard fails the test if any is attempted: map outlines, fonts, tiles, CDNs).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, type Page } from '@playwright/test';
import { allPublicPlots, embedPath, expect, expectChartDrawn, offlineGuard, watchCsp, type FileRecord } from './support';

// One page per worker for all the trace types: plotly.js is downloaded and compiled once (browser
// cache), not 38 times. Each test still gets its own lists of blocked requests, page errors and
// Content-Security-Policy violations (every trace type draws within the pages' CSP).
interface Embed {
  page: Page;
  external: string[];
  errors: string[];
  csp: string[];
}
const test = base.extend<{ embed: Embed }, { shared: Embed }>({
  shared: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL, viewport: { width: 1280, height: 900 } });
      const external = await offlineGuard(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e.stack ?? e)));
      await use({ page, external, errors, csp: await watchCsp(page) });
      await context.close();
    },
    { scope: 'worker' },
  ],
  embed: async ({ shared }, use, testInfo) => {
    shared.external.length = 0;
    shared.errors.length = 0;
    shared.csp.length = 0;
    await use(shared);
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('screenshot', { body: await shared.page.screenshot(), contentType: 'image/png' });
    }
    expect(shared.external, 'the page must not reach for other hosts (it has to work offline)').toEqual([]);
    expect(shared.csp, 'Content-Security-Policy violations').toEqual([]);
  },
});

const MOCKS = fileURLToPath(new URL('../fixtures/plotly-mocks/', import.meta.url));
const traceTypes = new Set<string>();
for (const file of readdirSync(MOCKS).filter((f) => f.endsWith('.json'))) {
  const mock = JSON.parse(readFileSync(path.join(MOCKS, file), 'utf8')) as { data: { type?: string }[] };
  for (const trace of mock.data) traceTypes.add(trace.type ?? 'scatter');
}

const WEBGL = new Set([
  'scatter3d',
  'surface',
  'mesh3d',
  'cone',
  'streamtube',
  'isosurface',
  'volume',
  'scattergl',
  'splom',
  'parcoords',
  'scatterpolargl',
  'heatmapgl',
  'pointcloud',
]);
const GEO = new Set(['choropleth', 'scattergeo']);

const typesOf = (p: FileRecord) => new Set((p.figure?.data ?? []).map((t) => String(t.type ?? 'scatter')));

test.describe('every trace type renders offline', () => {
  let plots: FileRecord[] = [];
  test.beforeAll(async ({ request }) => {
    plots = (await allPublicPlots(request)).filter((p) => ['ada', 'grace', 'linus', 'mae'].includes(p.fid.split(':')[0]));
  });

  for (const type of [...traceTypes].sort()) {
    test(`trace type ${type}`, async ({ embed: { page, errors: pageErrors } }) => {
      // The demo plot with this type and the fewest other types, to see this one draw.
      const candidates = plots.filter((p) => typesOf(p).has(type)).sort((a, b) => typesOf(a).size - typesOf(b).size);
      expect(candidates.length, `a public demo plot with a ${type} trace`).toBeGreaterThan(0);
      const plot = candidates[0];
      test.info().annotations.push({ type: 'plot', description: `${plot.fid} (${plot.filename})` });

      const res = await page.goto(embedPath(plot.fid));
      expect(res?.status()).toBe(200);
      const figure = page.locator('.plot-figure').first();
      await expectChartDrawn(figure);
      await expect(figure.locator('.chart-failed')).toHaveCount(0);
      await expect(figure, 'plotly could not get a WebGL context').not.toContainText('WebGL is not supported');

      if (WEBGL.has(type)) {
        const canvas = figure.locator('canvas').first();
        await expect(canvas).toBeAttached();
        const box = await canvas.boundingBox();
        expect(box && box.width > 40 && box.height > 40, `WebGL canvas with a size (${JSON.stringify(box)})`).toBe(true);
      }
      if (GEO.has(type)) {
        // Map outlines come from the app's own /assets/plotly-geo-assets.js, not from a CDN.
        await expect.poll(() => figure.locator('.geolayer path, .geo .layer path').count(), { message: 'map outlines drawn' }).toBeGreaterThan(0);
      }
      // Something was drawn for the traces (not only axes and grid lines): plotly's trace groups,
      // heatmap/image/contour groups, sankey/table/parcats groups, or (WebGL) the canvas above.
      if (!WEBGL.has(type)) {
        const marks = figure.locator('svg.main-svg').locator('.trace, .hm, .im, .contour, .sankey, .table, .parcats');
        expect(await marks.count(), `${type}: plotly drew no traces (only the axes)`).toBeGreaterThan(0);
      }
      expect(pageErrors).toEqual([]);
    });
  }
});
