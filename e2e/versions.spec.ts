// A plot's history (issue 25 point 1): a plot made through the API and changed by a client's PATCH;
// its owner opens History from the plot's page (by keyboard), views the first version drawn, restores
// it, and the plot's page shows the original again. After the Python client's overwrite an old
// version still draws its own data and restores whole (issue 38 point 1). A grid's the same from its
// page, each version looked at before Restore. Axe and screenshots at desktop and phone sizes.
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { basicAuth, createGrid, createPlot, E2E_USER, expect, expectChartDrawn, getPlotRecord, pathOf, plotPath, signIn, test, unique } from './support';

async function axe(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(summary, `axe violations on ${name}`).toEqual([]);
}

/** Tabs from the top of the page until `name` has the focus (keyboard only), at most 60 stops. */
async function tabTo(page: Page, name: string) {
  await page.locator('body').focus();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === name) return;
  }
  throw new Error(`no focusable "${name}" reached by Tab`);
}

test("restore a version made by a client's PATCH: History on the plot page, the first version drawn, Restore, the original back", async ({
  page,
  request,
}, testInfo) => {
  // Six axe passes and four drawn charts: well over the default minute on a loaded machine.
  test.setTimeout(180_000);
  const original = `Original ${unique()}`;
  const plot = await createPlot(request, { title: original });
  const first = await getPlotRecord(request, plot.fid);
  // As the Python client does: PATCH /v2/plots/{fid} with a new figure and title.
  const changed = `Changed by Python ${unique()}`;
  const patched = await request.patch(`/v2/plots/${plot.fid}`, {
    headers: { Authorization: basicAuth(E2E_USER), 'Plotly-Client-Platform': 'python 5.24.1' },
    data: { title: changed, figure: { data: [first.figure!.data[0]], layout: { title: { text: changed } } } },
  });
  expect(patched.ok(), await patched.text()).toBe(true);

  await signIn(page);
  await page.goto(plotPath(plot.fid));
  await expect(page.locator('h1')).toHaveText(changed);
  await axe(page, testInfo, 'plot page with History (desktop)');
  await tabTo(page, 'History');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${plotPath(plot.fid)}history`);
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();

  const items = page.locator('li.version-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('Version 2');
  await expect(items.nth(0)).toContainText('Current');
  await expect(items.nth(0)).toContainText('with Python');
  await expect(items.nth(0)).toContainText(`by ${E2E_USER.username}`);
  await expect(items.nth(0)).toContainText(changed);
  await expect(items.nth(1)).toContainText('Version 1');
  await expect(items.nth(1)).toContainText(original);
  await expect(items.nth(1).getByRole('button', { name: 'Restore' })).toBeVisible();
  await axe(page, testInfo, 'history (desktop)');

  // The first version drawn.
  await items.nth(1).getByRole('link', { name: 'Version 1' }).click();
  await expect(page.locator('h1')).toHaveText(`Version 1: ${original}`);
  const chart = page.getByRole('figure', { name: `Chart: ${original}, version 1` });
  await expectChartDrawn(chart);
  await expect(chart.locator('.legendtext').first()).toHaveText('bars');
  await axe(page, testInfo, 'version (desktop)');
  await page.getByRole('link', { name: 'Back to the history' }).click();

  // Restore it, by keyboard: the plot's page then shows the original.
  await page.locator('li.version-item').nth(1).getByRole('button', { name: 'Restore' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`${plotPath(plot.fid)}\\?notice=reverted$`));
  await expect(page.locator('h1')).toHaveText(original);
  // Seen where the page opens, without scrolling (issue 37 point 9).
  await expect(page.getByText('An earlier version is current again')).toBeInViewport();
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  const now = await getPlotRecord(request, plot.fid);
  expect(now.title).toBe(original);
  expect(now.figure).toEqual(first.figure);

  await page.goto(`${plotPath(plot.fid)}history`);
  await expect(page.locator('li.version-item')).toHaveCount(3);
  await expect(page.locator('li.version-item').nth(0)).toContainText('Version 3');
  await expect(page.locator('li.version-item').nth(0)).toContainText('with the web');

  await page.setViewportSize({ width: 390, height: 844 });
  await axe(page, testInfo, 'history (phone)');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no sideways scrolling on a phone').toBeLessThanOrEqual(0);
  await page.goto(`${plotPath(plot.fid)}history/2`);
  await expectChartDrawn(page.getByRole('figure', { name: `Chart: ${changed}, version 2` }));
  await axe(page, testInfo, 'version (phone)');
  await page.goto(`${plotPath(plot.fid)}history/3`);
  await expect(page.getByText('This is the current version.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Restore' })).toHaveCount(0);
  await page.goto(plotPath(plot.fid));
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  await axe(page, testInfo, 'plot page with History (phone)');
});

test("after the Python client's overwrite (its grid deleted, a new one), the old version draws its own data, and its Restore brings the chart back whole", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const python = { Authorization: basicAuth(E2E_USER), 'Plotly-Client-Platform': 'python 5.24.1' };
  const figure = (grid: { src: (name: string) => string }, title: string) => ({
    data: [{ type: 'bar', name: 'sales', xsrc: grid.src('x'), ysrc: grid.src('y') }],
    layout: { title: { text: title } },
  });
  const old = await createGrid(request, { x: ['north', 'south', 'east'], y: [3, 1, 4] });
  const made = await request.post('/v2/plots', { headers: python, data: { filename: `sales ${unique()}`, figure: figure(old, 'Sales by region') } });
  expect(made.ok(), await made.text()).toBe(true);
  const { fid } = ((await made.json()) as { file: { fid: string } }).file;
  // py.plot(fig, filename=..., fileopt='overwrite'): the old grid deleted for good, a new one, the plot updated.
  expect((await request.delete(`/v2/grids/${old.fid}`, { headers: python })).status()).toBe(204);
  const fresh = await createGrid(request, { x: ['west', 'up'], y: [9, 9] });
  const put = await request.put(`/v2/plots/${fid}`, { headers: python, data: { figure: figure(fresh, 'Sales, new') } });
  expect(put.ok(), await put.text()).toBe(true);

  await signIn(page);
  await page.goto(`${plotPath(fid)}history/1`);
  await expect(page.locator('h1')).toHaveText('Version 1: Sales by region');
  const chart = page.getByRole('figure', { name: 'Chart: Sales by region, version 1' });
  await expectChartDrawn(chart);
  await expect(chart.locator('.xtick text')).toHaveText(['north', 'south', 'east']);
  await expect(page.getByText("This version's data is no longer kept")).toHaveCount(0);
  await axe(page, testInfo, 'version after overwrite (desktop)');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectChartDrawn(chart);
  await axe(page, testInfo, 'version after overwrite (phone)');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Restore' }).click();
  await page.waitForURL(new RegExp(`${plotPath(fid)}\\?notice=reverted$`));
  await expect(page.locator('h1')).toHaveText('Sales by region');
  const live = page.locator('section.plot-chart .plot-figure');
  await expectChartDrawn(live);
  await expect(live.locator('.xtick text')).toHaveText(['north', 'south', 'east']);
  await axe(page, testInfo, 'plot restored after overwrite (desktop)');
  // Whole for the clients: its srcs name real columns, so content with inline data has the values.
  const content = await request.get(`/v2/plots/${fid}/content?inline_data=true`, { headers: python });
  expect(((await content.json()) as { data: { y: number[] }[] }).data[0].y).toEqual([3, 1, 4]);
});

test("a grid's history: a column replaced by a client, History on the grid's page, Restore, the original values back", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const grid = await createGrid(request, { x: [1, 2, 3], y: ['first', 'second', 'third'] });
  const uid = grid.src('y').split(':').pop();
  const replaced = await request.put(`/v2/grids/${grid.fid}/col?uid=${uid}`, {
    headers: { Authorization: basicAuth(E2E_USER), 'Plotly-Client-Platform': 'python 5.24.1' },
    data: { cols: JSON.stringify([{ name: 'y', data: ['changed', 'by', 'python'], uid }]) },
  });
  expect(replaced.ok(), await replaced.text()).toBe(true);

  await signIn(page);
  await page.goto(pathOf(grid.web_url));
  await expect(page.locator('table.grid-table')).toContainText('changed');
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  const items = page.locator('li.version-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('Version 2');
  await expect(items.nth(0)).toContainText('Current');
  await expect(items.nth(0)).toContainText('with Python');
  await expect(items.nth(1)).toContainText('Version 1');
  await axe(page, testInfo, 'grid history (desktop)');

  // Looked at before it is restored: its size and first rows (issue 38 point 1).
  await items.nth(1).getByRole('link', { name: 'Version 1' }).click();
  await expect(page.locator('h1')).toHaveText(`Version 1: ${grid.filename}`);
  await expect(page.getByText('2 columns · 3 rows')).toBeVisible();
  const table = page.getByRole('region', { name: `Data of ${grid.filename}, version 1` });
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table).toContainText('second');
  await expect(table).not.toContainText('changed');
  await axe(page, testInfo, 'grid version (desktop)');
  await page.setViewportSize({ width: 390, height: 844 });
  await axe(page, testInfo, 'grid version (phone)');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('link', { name: 'Back to the history' }).click();

  await items.nth(1).getByRole('button', { name: 'Restore' }).click();
  await page.waitForURL(/\?notice=reverted$/);
  await expect(page.getByText('An earlier version is current again')).toBeVisible();
  await expect(page.locator('table.grid-table')).toContainText('second');
  await expect(page.locator('table.grid-table')).not.toContainText('changed');
  const res = await request.get(`/v2/grids/${grid.fid}/content`, { headers: { Authorization: basicAuth(E2E_USER) } });
  const content = (await res.json()) as { cols: Record<string, { data: unknown[] }> };
  expect(content.cols.y.data).toEqual(['first', 'second', 'third']);

  await page.goto(`${pathOf(grid.web_url)}history`);
  await expect(page.locator('li.version-item')).toHaveCount(3);
  await expect(page.locator('li.version-item').nth(0)).toContainText('with the web');
  await page.setViewportSize({ width: 390, height: 844 });
  await axe(page, testInfo, 'grid history (phone)');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no sideways scrolling on a phone').toBeLessThanOrEqual(0);
});

test("another person gets the 404 of a missing file for a grid's history", async ({ page, request }) => {
  const grid = await createGrid(request, { x: [1, 2] });
  const res = await page.goto(`${pathOf(grid.web_url)}history`);
  expect(res?.status()).toBe(404);
});
