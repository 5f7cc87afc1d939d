// The chart editor (issue 24 points 2 and 3): a new chart of every type from a grid, saved through the
// API and drawn on its page; a plot made by a client edited and read back; "Edit a copy"; the expert
// view's checks; undo and redo; keyboard-only use; axe on every editor view; and others' editors 404.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import {
  basicAuth,
  createGrid,
  createPlot,
  E2E_USER,
  expect,
  expectChartDrawn,
  getPlotRecord,
  OTHER_USER,
  plotPath,
  signIn,
  test,
  unique,
  type FileRecord,
} from './support';

const editorPath = (fid: string) => `${plotPath(fid)}edit`;
const newChartPath = (fid: string) => `/create/chart?grid=${fid}`;
const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** Every column a chart type here needs: numbers, words, places and dates. */
async function dataGrid(request: APIRequestContext, opts: { worldReadable?: boolean } = {}) {
  return createGrid(
    request,
    {
      day: ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'],
      fruit: ['apple', 'pear', 'fig', 'kiwi'],
      sales: [3, 1, 4, 1],
      costs: [2, 7, 1, 8],
      size: [10, 20, 30, 40],
      lat: [59.9, -12.0, 18.5, 35.7],
      lon: [10.7, -77.0, 73.9, 139.7],
      country: ['NOR', 'PER', 'IND', 'JPN'],
      open: [10, 11, 12, 11],
      high: [12, 13, 13, 12],
      low: [9, 10, 11, 10],
      close: [11, 12, 11, 11],
    },
    { filename: `editor grid ${unique()}`, worldReadable: opts.worldReadable ?? false },
  );
}

/** Waits for the editor's preview to be drawn. */
async function previewDrawn(page: Page) {
  await expectChartDrawn(page.getByRole('figure', { name: 'Chart preview' }));
}

/** Saves and lands on the plot's page; answers its fid. */
async function save(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/$/);
  const m = /\/~(e2e)\/(\d+)\/$/.exec(new URL(page.url()).pathname)!;
  return `${m[1]}:${m[2]}`;
}

async function axe(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name}`, { path: file, contentType: 'image/png' });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(summary, `axe violations on ${name}`).toEqual([]);
}

const apiGet = async (request: APIRequestContext, fid: string) =>
  (await (await request.get(`/v2/plots/${fid}`, { headers: { Authorization: basicAuth(E2E_USER) } })).json()) as FileRecord & {
    figure: { data: Record<string, unknown>[]; layout: Record<string, unknown>; frames?: unknown[] };
  };

test('a new chart: type, X and Y, title and sharing, saved with srcs only and drawn on its page', async ({ page, request }) => {
  const grid = await dataGrid(request);
  await signIn(page);
  await page.goto(newChartPath(grid.fid));
  await previewDrawn(page);
  await byLabel(page, 'Chart type').selectOption({ label: 'Bar' });
  await byLabel(page, 'X').selectOption({ label: 'fruit' });
  await byLabel(page, 'Y').selectOption({ label: 'sales' });
  await byLabel(page, 'Chart title').fill('Fruit sales');
  await expect(byLabel(page, 'Sharing')).toHaveValue('private');
  await byLabel(page, 'Sharing').selectOption({ label: 'Public' });
  await previewDrawn(page);
  const fid = await save(page);
  await expect(page.locator('h1')).toHaveText('Fruit sales');
  await expectChartDrawn(page.locator('.plot-chart .plot-figure'));
  const record = await apiGet(request, fid);
  expect(record.world_readable).toBe(true);
  expect(record.title).toBe('Fruit sales');
  expect(record.figure.layout).toEqual({ title: { text: 'Fruit sales' }, barmode: 'group' });
  expect(record.figure.data).toEqual([{ type: 'bar', xsrc: grid.src('fruit'), ysrc: grid.src('sales') }]);
});
