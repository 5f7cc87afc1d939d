// The data handling Chart Studio's editor had (issue 37 point 3): rows aggregated by a category
// (1,000 pasted rows of sales by city draw one summed bar a city), filtered by a column's values or
// range, sorted, and a heatmap of long X, Y, Z columns. The editor's preview and the saved plot's page
// draw the same values (read from what plotly drew), the grid keeps its rows, and the steps are
// stored in the figure as plotly 2's transforms.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { basicAuth, createGrid, E2E_USER, expect, expectChartDrawn, signIn, test, trashPlot, unique } from './support';

const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const preview = (page: Page) => page.getByRole('figure', { name: 'Chart preview' });
const auth = { Authorization: basicAuth(E2E_USER) };

/** What plotly drew of the first trace in `figure` (its full data, or a heatmap's cells). */
function drawn(figure: Locator) {
  return figure.locator('.js-plotly-plot').evaluate((gd) => {
    const g = gd as unknown as { _fullData: { x?: unknown[]; y?: unknown[] }[]; calcdata: { z?: unknown[][] }[][] };
    const t = g._fullData[0];
    return { x: Array.from(t.x ?? []), y: Array.from(t.y ?? []), z: g.calcdata[0][0].z?.map((row) => Array.from(row)) };
  });
}

/** Waits for the preview to draw `expected` (it redraws a moment after each change). */
async function previewDraws(page: Page, expected: { x: unknown[]; y: unknown[] }) {
  await expect
    .poll(async () => {
      const d = await drawn(preview(page)).catch(() => null);
      return d && { x: d.x, y: d.y };
    })
    .toEqual(expected);
}

/** Saves and lands on the plot's page; answers its fid. */
async function save(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=followed)?$/);
  const m = /\/~(e2e)\/(\d+)\/$/.exec(new URL(page.url()).pathname)!;
  return `${m[1]}:${m[2]}`;
}

const CITIES = ['Oslo', 'Lima', 'Pune', 'Rome', 'Kyiv'];

test('1,000 pasted rows of sales by city draw one summed bar a city, in the preview and on the saved page', async ({ page, request }, testInfo) => {
  test.setTimeout(60_000);
  const rows = Array.from({ length: 1000 }, (_, i) => [CITIES[(i * 7) % 5], (i % 13) + 1] as const);
  // One bar a city, in the order they first come in the rows.
  const cities = [...new Set(rows.map((r) => r[0]))];
  const sums = cities.map((c) => rows.filter((r) => r[0] === c).reduce((a, r) => a + r[1], 0));
  await signIn(page);
  await page.goto('/create');
  await page.getByLabel('Paste data').fill(['city\tsales', ...rows.map((r) => r.join('\t'))].join('\n'));
  await page.getByLabel('Name').fill(`sales ${unique()}`);
  await page.getByRole('button', { name: 'Import and make a chart' }).click();
  await page.waitForURL(/\/create\/chart\?grid=/);

  // Rows of repeated cities start as bars of their sums, grouped by X (city).
  await expect(byLabel(page, 'Chart type')).toHaveValue('bar');
  const aggregate = page.getByRole('group', { name: 'Aggregate' });
  await expect(aggregate.getByLabel('Aggregate function')).toHaveValue('sum');
  await expect(aggregate).toContainText('The sum of Y (sales) for each X (city).');
  await previewDraws(page, { x: cities, y: sums });

  // None draws every row; Sum again (chosen as a person would) one bar a city; Count the rows of each.
  await aggregate.getByLabel('Aggregate function').selectOption({ label: 'None' });
  await expect.poll(async () => (await drawn(preview(page))).x.length).toBe(1000);
  await aggregate.getByLabel('Aggregate function').selectOption({ label: 'Count' });
  await previewDraws(page, { x: cities, y: [200, 200, 200, 200, 200] });
  await aggregate.getByLabel('Aggregate function').selectOption({ label: 'Sum' });
  await previewDraws(page, { x: cities, y: sums });

  // Looked at as a person would, and checked by axe, desktop and phone.
  for (const [name, width] of [
    ['desktop', 1280],
    ['phone', 390],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    const file = testInfo.outputPath(`data-steps-${name}.png`);
    await page.locator('.trace-panel').screenshot({ path: file });
    await testInfo.attach(`data-steps-${name}`, { path: file, contentType: 'image/png' });
  }
  const results = await new AxeBuilder({ page }).include('.trace-panel').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  await byLabel(page, 'Chart title').fill('Sales by city');
  const fid = await save(page);
  const chart = page.locator('.plot-chart .plot-figure');
  await expectChartDrawn(chart);
  expect(await drawn(chart)).toMatchObject({ x: cities, y: sums });
  // The data table and the text alternative tell what is drawn; the grid keeps its 1,000 rows.
  await expect(page.locator('#chart-description')).toContainText(': 5 points');
  await expect(page.locator('#chart-description')).toContainText('(y summed for each x)');
  const record = await (await request.get(`/v2/plots/${fid}`, { headers: auth })).json();
  expect(record.figure.data[0].transforms).toEqual([{ type: 'aggregate', groups: 'x', aggregations: [{ target: 'y', func: 'sum', enabled: true }] }]);
  const gridFid = String(record.figure.data[0].xsrc).split(':').slice(0, 2).join(':');
  const grid = await (await request.get(`/v2/grids/${gridFid}/content`, { headers: auth })).json();
  expect(grid.cols.city.data).toHaveLength(1000);
  await trashPlot(request, fid);
});

test('filter by a list of values and by a range, sort, undo; the saved page draws the same', async ({ page, request }, testInfo) => {
  const grid = await createGrid(request, { city: ['Oslo', 'Lima', 'Rome', 'Lima', 'Oslo', 'Pune'], sales: [5, 40, 20, 60, 30, 10] }, { worldReadable: false });
  await signIn(page);
  await page.goto(`/create/chart?grid=${grid.fid}`);
  await expect(byLabel(page, 'Chart type')).toHaveValue('bar');
  await previewDraws(page, { x: ['Oslo', 'Lima', 'Rome', 'Pune'], y: [35, 100, 20, 10] });

  // Values: the city column's, ticked; unticking Rome and Pune drops their rows.
  const filter = page.getByRole('group', { name: 'Filter' });
  await filter.getByLabel('Filter by').selectOption({ label: 'city' });
  const keep = filter.getByRole('group', { name: 'Rows to keep' });
  await expect(keep.getByRole('checkbox')).toHaveCount(4);
  await keep.getByRole('checkbox', { name: 'Rome' }).uncheck();
  await keep.getByRole('checkbox', { name: 'Pune' }).press('Space');
  await previewDraws(page, { x: ['Oslo', 'Lima'], y: [35, 100] });
  await page.setViewportSize({ width: 390, height: 900 });
  await filter.screenshot({ path: testInfo.outputPath('filter-values-phone.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
  await keep.getByRole('button', { name: 'Untick all' }).click();
  await expect(filter).toContainText('No value is ticked, so the chart draws nothing');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(keep.getByRole('checkbox', { name: 'Oslo' })).toBeChecked();

  // A range of numbers: a reversed or unreadable one is said at the field, a good one drawn.
  await filter.getByLabel('Filter by').selectOption({ label: 'sales' });
  await filter.getByLabel('From').fill('25');
  await filter.getByLabel('To').fill('abc');
  await expect(filter).toContainText('This is not a number, such as 12.5.');
  await filter.getByLabel('To').fill('1');
  await expect(filter).toContainText('To comes before From, so no row is kept: swap them.');
  await filter.screenshot({ path: testInfo.outputPath('filter-range-desktop.png') });
  await filter.getByLabel('To').fill('60');
  await previewDraws(page, { x: ['Lima', 'Oslo'], y: [100, 30] });

  // Sorted by the summed value, largest first, then smallest first.
  const sort = page.getByRole('group', { name: 'Sort' });
  await sort.getByLabel('Sort by').selectOption({ label: 'Y (sales)' });
  await sort.getByLabel('Order').selectOption({ label: 'Smallest first' });
  await previewDraws(page, { x: ['Oslo', 'Lima'], y: [30, 100] });

  const fid = await save(page);
  const chart = page.locator('.plot-chart .plot-figure');
  await expectChartDrawn(chart);
  expect(await drawn(chart)).toMatchObject({ x: ['Oslo', 'Lima'], y: [30, 100] });
  const record = await (await request.get(`/v2/plots/${fid}`, { headers: auth })).json();
  expect(record.figure.data[0].transforms).toEqual([
    { type: 'filter', targetsrc: grid.src('sales'), operation: '[]', value: [25, 60] },
    { type: 'aggregate', groups: 'x', aggregations: [{ target: 'y', func: 'sum', enabled: true }] },
    { type: 'sort', target: 'y', order: 'ascending' },
  ]);
  await trashPlot(request, fid);
});

test('a heatmap from long data: one Z column placed by X and Y', async ({ page, request }) => {
  const grid = await createGrid(
    request,
    { day: ['Mon', 'Mon', 'Tue', 'Tue'], hour: ['am', 'pm', 'am', 'pm'], visits: [1, 2, 3, 4] },
    { worldReadable: false, filename: `long ${unique()}` },
  );
  await signIn(page);
  await page.goto(`/create/chart?grid=${grid.fid}`);
  await byLabel(page, 'Chart type').selectOption({ label: 'Heatmap' });
  await byLabel(page, 'Z').selectOption({ label: 'visits' });
  await expect(page.locator('.trace-roles')).toContainText('One Z column is long data, each row a cell at its X and Y');
  await page.getByRole('button', { name: 'More columns' }).click();
  await byLabel(page, 'X').selectOption({ label: 'day' });
  await byLabel(page, 'Y').selectOption({ label: 'hour' });
  await expect(page.locator('.trace-roles')).not.toContainText('One Z column is long data');
  await expect
    .poll(async () => (await drawn(preview(page)).catch(() => null))?.z)
    .toEqual([
      [1, 3],
      [2, 4],
    ]);
  const fid = await save(page);
  const chart = page.locator('.plot-chart .plot-figure');
  await expectChartDrawn(chart);
  expect((await drawn(chart)).z).toEqual([
    [1, 3],
    [2, 4],
  ]);
  await trashPlot(request, fid);
});
