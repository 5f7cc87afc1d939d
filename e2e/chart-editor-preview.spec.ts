// The chart editor's preview draws what Save stores (issue 37 point 1): after each kind of edit
// (titles, axes, legend, colours, theme, undo, redo) the preview's drawn axis ranges equal those of a
// fresh drawing of the same figure at the same size, and after Save those of the saved chart. A
// screenshot of the editor after each edit is kept with the test's output.
import type { Page, TestInfo } from '@playwright/test';
import { createRequire } from 'node:module';
import { basicAuth, createGrid, E2E_USER, expect, expectChartDrawn, signIn, test, unique } from './support';

// The fresh drawing is made by a second copy of plotly.js added to the page, beside the app's own.
test.use({ bypassCSP: true });

const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const preview = (page: Page) => page.getByRole('figure', { name: 'Chart preview' });
const PLOTLY = createRequire(import.meta.url).resolve('plotly.js-dist-min');

interface Drawn {
  x: number[] | string[];
  y: number[] | string[];
  size: [number, number];
}

/** The preview's drawn x and y ranges and its size, once `ready` holds of its layout. */
async function previewAxes(page: Page, ready: string): Promise<Drawn> {
  const chart = preview(page).locator('.js-plotly-plot');
  await expect
    .poll(() => chart.evaluate((gd, test) => new Function('layout', `return ${test}`)((gd as unknown as { layout: unknown }).layout) === true, ready))
    .toBe(true);
  // The debounced redraw of the change has landed once the layout says so; plotly's own state is then read.
  return chart.evaluate((gd) => {
    const full = (gd as unknown as { _fullLayout: { xaxis: { range: [] }; yaxis: { range: [] }; width: number; height: number } })._fullLayout;
    return { x: [...full.xaxis.range], y: [...full.yaxis.range], size: [full.width, full.height] as [number, number] };
  });
}

/** A fresh drawing's ranges of `figure` at `size`, by a plotly of its own in a box off the page. */
async function freshAxes(page: Page, figure: { data: unknown[]; layout: Record<string, unknown> }, size: [number, number]) {
  if (!(await page.evaluate(() => 'Plotly' in window))) await page.addScriptTag({ path: PLOTLY });
  return page.evaluate(
    async ({ figure, size }) => {
      const box = document.createElement('div');
      box.style.cssText = 'position:absolute;left:-10000px;top:0';
      document.body.append(box);
      const P = (window as unknown as { Plotly: { newPlot: (...a: unknown[]) => Promise<unknown>; purge: (el: HTMLElement) => void } }).Plotly;
      await P.newPlot(box, figure.data, { ...figure.layout, autosize: false, width: size[0], height: size[1] });
      const full = (box as unknown as { _fullLayout: { xaxis: { range: [] }; yaxis: { range: [] } } })._fullLayout;
      const out = { x: [...full.xaxis.range], y: [...full.yaxis.range] };
      P.purge(box);
      box.remove();
      return out;
    },
    { figure, size },
  );
}

/** The preview's figure as a fresh drawing would take it: its data with values, its layout with autoranged axes' ranges left to plotly. */
function previewFigure(page: Page) {
  return preview(page)
    .locator('.js-plotly-plot')
    .evaluate((gd) => {
      const g = gd as unknown as { data: unknown[]; layout: Record<string, Record<string, unknown>> };
      const layout = structuredClone(g.layout);
      for (const key of Object.keys(layout)) {
        if (/^[xy]axis\d*$/.test(key) && layout[key]?.autorange !== false) delete layout[key].range;
      }
      delete (layout as Record<string, unknown>).datarevision;
      return { data: structuredClone(g.data), layout };
    });
}

async function expectPreviewTrue(page: Page, testInfo: TestInfo, step: string, ready: string): Promise<Drawn> {
  const drawn = await previewAxes(page, ready);
  const fresh = await freshAxes(page, await previewFigure(page), drawn.size);
  await page.screenshot({ path: testInfo.outputPath(`editor-after-${step}.png`) });
  expect({ x: drawn.x, y: drawn.y }, `the preview after ${step} draws what a fresh drawing does`).toEqual(fresh);
  // The empty axes plotly falls back to when it draws no data: never what this chart draws.
  expect(drawn.y, `the preview after ${step}`).not.toEqual([-1, 4]);
  return drawn;
}

test('the preview draws what Save stores after every kind of edit, undo and redo', async ({ page, request }, testInfo) => {
  const grid = await createGrid(
    request,
    { day: ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01'], sales: [30, 90, 45, 70] },
    { filename: `preview grid ${unique()}`, worldReadable: false },
  );
  await signIn(page);
  await page.goto(`/create/chart?grid=${grid.fid}`);
  await byLabel(page, 'Chart type').selectOption({ label: 'Line' });
  await byLabel(page, 'X').selectOption({ label: 'day' });
  await byLabel(page, 'Y').selectOption({ label: 'sales' });
  await expectChartDrawn(preview(page));
  const first = await expectPreviewTrue(page, testInfo, 'columns', 'true');
  expect(first.x[0]).toMatch(/^2024-01-01/);
  expect(first.y[0]).toBeLessThanOrEqual(30);

  const title = `Sales ${unique()}`;
  await byLabel(page, 'Chart title').fill(title);
  await expectPreviewTrue(page, testInfo, 'chart-title', `(layout.title?.text ?? layout.title) === ${JSON.stringify(title)}`);

  await byLabel(page, 'X axis title').fill('Month');
  await expectPreviewTrue(page, testInfo, 'axis-title', `layout.xaxis?.title?.text === 'Month'`);

  await byLabel(page, 'Y axis type').selectOption({ label: 'Log' });
  await expectPreviewTrue(page, testInfo, 'axis-type', `layout.yaxis?.type === 'log'`);

  await page.locator('summary', { hasText: /^Legend$/ }).click();
  await byLabel(page, 'Legend position').selectOption({ label: 'Top' });
  await expectPreviewTrue(page, testInfo, 'legend', `layout.legend?.orientation === 'h'`);

  await page.locator('summary', { hasText: /^Colours$/ }).click();
  await byLabel(page, 'Palette').selectOption({ label: 'Okabe-Ito (colour-blind safe)' });
  await expectPreviewTrue(page, testInfo, 'colours', `layout.colorway?.[0] === '#e69f00'`);

  await page.locator('summary', { hasText: /^Theme$/ }).click();
  await byLabel(page, 'Theme').selectOption({ label: 'Simple white' });
  await expectPreviewTrue(page, testInfo, 'theme', 'layout.template?.layout?.xaxis?.showgrid === false');

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expectPreviewTrue(page, testInfo, 'undo', 'layout.template?.layout?.xaxis?.showgrid !== false');
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  const last = await expectPreviewTrue(page, testInfo, 'redo', 'layout.template?.layout?.xaxis?.showgrid === false');

  // Saved: the stored figure, drawn fresh at the preview's size, has the preview's axes.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=\w+)?$/);
  const n = /\/~e2e\/(\d+)\//.exec(new URL(page.url()).pathname)![1];
  const content = await request.get(`/v2/plots/e2e:${n}/content?inline_data=true`, { headers: { Authorization: basicAuth(E2E_USER) } });
  expect(content.status()).toBe(200);
  const saved = (await content.json()) as { data: unknown[]; layout: Record<string, unknown> };
  expect(saved.layout).not.toHaveProperty('datarevision');
  expect(await freshAxes(page, saved, last.size)).toEqual({ x: last.x, y: last.y });
});
