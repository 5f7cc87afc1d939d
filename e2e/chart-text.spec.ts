// Charts for everyone: every chart has a text alternative (its accessible description) on the plot
// page, the embed and a history version page, and a "Data table" link opens the figure's data as a
// real table, a page of rows at a time, with and without JavaScript, with the plot's permissions.
// (axe and the phone check of the data table page: e2e/a11y.spec.ts; the version page's axe: here.)
import AxeBuilder from '@axe-core/playwright';
import { basicAuth, createGrid, createPlot, E2E_USER, embedPath, expect, expectChartDrawn, plotPath, signIn, test, unique, type FileRecord } from './support';
import type { APIRequestContext, Page } from '@playwright/test';

/** A public bar chart of 120 rows (three pages of the data table), named traces, axis titles. */
async function longPlot(request: APIRequestContext, visibility: 'public' | 'secret' | 'private' = 'public'): Promise<FileRecord> {
  const rows = 120;
  const grid = await createGrid(
    request,
    { day: Array.from({ length: rows }, (_, i) => `d${i + 1}`), sold: Array.from({ length: rows }, (_, i) => i * 2) },
    { worldReadable: visibility === 'public' },
  );
  const res = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: {
      filename: `chart text ${unique()}`,
      title: 'Daily sales',
      world_readable: visibility === 'public',
      share_key_enabled: visibility === 'secret',
      figure: {
        data: [{ type: 'bar', name: 'Sold', xsrc: grid.src('day'), ysrc: grid.src('sold') }],
        layout: { xaxis: { title: { text: 'Day' } }, yaxis: { title: { text: 'Units' } } },
      },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { file: FileRecord }).file;
}

const DESCRIPTION =
  /^Bar chart: Daily sales\. X axis "Day": 120 categories: d1, d2, d3 and 117 more\. Y axis "Units": from 0 to 238\. Series "Sold": 120 points, y from 0 to 238\.$/;

async function expectDescribedChart(page: Page, name: RegExp) {
  const chart = page.getByRole('figure', { name });
  await expect(chart).toHaveAccessibleDescription(DESCRIPTION);
}

/** The data table: its caption, headers (scope col, the trace's name) and the rows of `page`. */
async function expectTablePage(page: Page, n: number) {
  const table = page.getByRole('table', { name: /Daily sales: rows/ });
  const first = (n - 1) * 50 + 1;
  const last = Math.min(120, n * 50);
  await expect(table.locator('caption')).toContainText(`rows ${first}–${last} of 120 rows`);
  await expect(table.locator('thead th[scope="col"]')).toHaveText(['Row', 'Sold x', 'Sold y']);
  await expect(table.locator('tbody tr')).toHaveCount(last - first + 1);
  await expect(table.locator('tbody tr').first().locator('th[scope="row"]')).toHaveText(String(first));
  await expect(table.locator('tbody tr').first().locator('td')).toHaveText([`d${first}`, String((first - 1) * 2)]);
}

async function walkPages(page: Page) {
  await expectTablePage(page, 1);
  await page.getByRole('link', { name: 'Next rows' }).click();
  await expectTablePage(page, 2);
  await page.getByRole('link', { name: 'Next rows' }).click();
  await expectTablePage(page, 3);
  await expect(page.getByRole('link', { name: 'Next rows' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Previous rows' }).click();
  await expectTablePage(page, 2);
}

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`plot page (${size.name}): the chart is described, and "Data table" pages through its data`, async ({ page, request }) => {
    await page.setViewportSize(size.viewport);
    const plot = await longPlot(request);
    await page.goto(plotPath(plot.fid));
    await expectChartDrawn(page.locator('.plot-figure'));
    await expectDescribedChart(page, /^Chart: Daily sales$/);
    // The drawing's own text is hidden from screen readers; the words and the table stand for it.
    await expect(page.locator('.plot-figure svg.main-svg').first()).toHaveAttribute('aria-hidden', 'true');
    await page.getByRole('link', { name: 'Data table' }).click();
    await expect(page).toHaveURL(/\/data-table$/);
    await walkPages(page);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(wide, 'the data table page scrolls sideways').toBe(false);
  });

  test(`plot page (${size.name}) without JavaScript: described, and "Data table" pages through its data @no-js`, async ({ page, request }) => {
    await page.setViewportSize(size.viewport);
    const plot = await longPlot(request);
    await page.goto(plotPath(plot.fid));
    await expectDescribedChart(page, /^Chart: Daily sales$/);
    await page.getByRole('link', { name: 'Data table' }).click();
    await walkPages(page);
  });
}

test('the embed keeps the text alternative and a "Data table" link that opens in a tab of its own', async ({ page, request, context }) => {
  const plot = await longPlot(request, 'secret');
  const key = plot.share_key as string;
  await page.goto(`${embedPath(plot.fid)}?share_key=${key}`);
  await expectChartDrawn(page.locator('.plot-figure'));
  await expectDescribedChart(page, /^Chart: Daily sales$/);
  const link = page.getByRole('link', { name: 'Data table' });
  await expect(link).toHaveAttribute('target', '_blank');
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).searchParams.get('share_key')).toBe(key);
  await expectTablePage(tab, 1);
});

test('a history version page describes the version drawn (axe clean)', async ({ page, request }) => {
  const plot = await createPlot(request, { title: 'Versioned' });
  const changed = await request.patch(`/v2/plots/${plot.fid}`, { headers: { Authorization: basicAuth(E2E_USER) }, data: { title: 'Versioned again' } });
  expect(changed.ok(), await changed.text()).toBe(true);
  await signIn(page);
  await page.goto(`${plotPath(plot.fid)}history/1`);
  await expectChartDrawn(page.locator('.plot-figure'));
  await expect(page.getByRole('figure', { name: 'Chart: Versioned, version 1' })).toHaveAccessibleDescription(
    /^Chart combining bar chart and line chart: Versioned\. X axis "letter": 4 categories: a, b, c and 1 more\. Y axis "value": from 1 to 8\. Series "bars": 4 points, y from 1 to 4; "line": 4 points, y from 1 to 8\.$/,
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('a private plot’s data table is the 404 of a missing plot; a secret one opens with its key', async ({ request, page }) => {
  const priv = await createPlot(request, { visibility: 'private' });
  const secret = await createPlot(request, { visibility: 'secret' });
  const [owner, n] = priv.fid.split(':');
  const refused = await request.get(`/~${owner}/${n}/data-table`, { headers: { Authorization: '' } });
  const missing = await request.get(`/~${owner}/999998/data-table`);
  expect(refused.status()).toBe(404);
  expect(missing.status()).toBe(404);
  const [sOwner, sN] = secret.fid.split(':');
  expect((await request.get(`/~${sOwner}/${sN}/data-table`)).status()).toBe(404);
  await page.goto(`/~${sOwner}/${sN}/data-table?share_key=${secret.share_key}`);
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.locator('thead th[scope="col"]')).toHaveText(['Row', 'bars x', 'bars y', 'line x', 'line y']);
  // Its links carry the key: back to the chart, and the download.
  await expect(page.getByRole('link', { name: 'Back to the chart' })).toHaveAttribute('href', new RegExp(`share_key=${secret.share_key}`));
});
