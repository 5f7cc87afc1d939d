// The plot page (/~owner/n/), its embed (/~owner/n.embed) and a grid's page.
import {
  E2E_USER,
  allPublicPlots,
  basicAuth,
  countOf,
  createGrid,
  createPlot,
  embedPath,
  expect,
  expectChartDrawn,
  pathOf,
  plotPath,
  signIn,
  test,
  unique,
  type FileRecord,
} from './support';
import type { Locator } from '@playwright/test';

const shownTitle = (p: FileRecord) => p.title || p.filename;
const fieldValue = (el: Locator) => el.evaluate((e) => ('value' in e ? String((e as HTMLInputElement).value) : (e.textContent ?? '')));

test('plot page: title, chart, views, visibility, share and embed code, downloads', async ({ page, request, pageErrors }) => {
  // A public demo plot with a plain 2D chart (bar), so the PNG/SVG downloads are plotly's own.
  const plot = (await allPublicPlots(request)).find((p) => p.figure?.data.every((t) => t.type === 'bar'))!;
  expect(plot, 'a public demo bar chart').toBeTruthy();
  const res = await page.goto(plotPath(plot.fid));
  expect(res?.status()).toBe(200);
  await expect(page.locator('h1')).toHaveText(shownTitle(plot));
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  expect(countOf(await page.locator('.views-count').textContent())).toBeGreaterThanOrEqual(plot.views!);
  await expect(page.locator('.badge[data-visibility="public"]')).toBeVisible();
  await expect(page.locator('.badge[data-visibility="private"], .badge[data-visibility="secret"]')).toHaveCount(0);

  expect(await fieldValue(page.locator('#share-url'))).toContain(plotPath(plot.fid).replace(/\/$/, ''));
  const embed = await fieldValue(page.locator('#embed-code'));
  expect(embed).toContain('<iframe');
  expect(embed).toContain(embedPath(plot.fid));

  // Data downloads: the figure as JSON, the data as CSV.
  const json = page.locator('a[download][href$=".json"]');
  const csv = page.locator('a[download][href$=".csv"]');
  await expect(json).toHaveCount(1);
  await expect(csv).toHaveCount(1);
  const figure = await (await request.get(new URL((await json.getAttribute('href'))!, page.url()).toString())).json();
  expect(Array.isArray(figure.data) && figure.data.length > 0, 'the JSON download holds the figure').toBe(true);
  const csvRes = await request.get(new URL((await csv.getAttribute('href'))!, page.url()).toString());
  expect(csvRes.status()).toBe(200);
  expect((await csvRes.text()).split('\n').length, 'the CSV has a header and rows').toBeGreaterThan(2);
  const [download] = await Promise.all([page.waitForEvent('download'), json.click()]);
  expect(download.suggestedFilename()).toMatch(/\.json$/);

  // Image downloads come from the drawn chart.
  for (const format of ['png', 'svg'] as const) {
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`button[data-download="${format}"]`).click()]);
    expect(file.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
  }
  expect(pageErrors).toEqual([]);
});

test('plot page: a visitor counts once a day however often they reload; another visitor counts too', async ({ page, request }) => {
  const plot = await createPlot(request, { title: `Counting views ${Date.now()}` });
  await page.goto(pathOf(plot.web_url));
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  // The count as stored: this view counts once the page is sent.
  const first = countOf(await page.locator('.views-count').textContent());
  const reloaded = async () => {
    await page.reload();
    return countOf(await page.locator('.views-count').textContent());
  };
  await expect.poll(reloaded, { message: `views after a reload (was ${first})` }).toBe(first + 1);
  expect(await reloaded(), 'reloads by the same visitor count nothing').toBe(first + 1);
  // Signed in: another visitor (a person, wherever they are), counted once too.
  await signIn(page);
  await page.goto(pathOf(plot.web_url));
  await expect.poll(reloaded).toBe(first + 2);
  expect(await reloaded()).toBe(first + 2);
});

test('embed page renders the chart', async ({ page, request, pageErrors }) => {
  const plot = (await allPublicPlots(request)).find((p) => p.figure?.data.some((t) => t.type === 'scatter'))!;
  const res = await page.goto(embedPath(plot.fid));
  expect(res?.status()).toBe(200);
  const figure = page.locator('.plot-figure');
  await expect(figure).toHaveCount(1);
  await expectChartDrawn(figure);
  // The chart fills the frame it is embedded in.
  const box = (await figure.boundingBox())!;
  expect(box.width, 'chart width in a 1280px frame').toBeGreaterThan(600);
  expect(pageErrors).toEqual([]);
});

test('embed page inside an iframe on another page', async ({ page, request }) => {
  const plot = (await allPublicPlots(request))[0];
  await page.goto('/signin'); // any page of ours, to have the origin
  await page.setContent(`<iframe title="chart" src="${embedPath(plot.fid)}" width="640" height="480"></iframe>`);
  const frame = page.frameLocator('iframe');
  await expectChartDrawn(frame.locator('.plot-figure'));
});

test('grid page shows the grid', async ({ page, request }) => {
  const grid = await createGrid(request, { month: ['Jan', 'Feb', 'Mar'], rainfall: [71, 48, 55] }, { filename: `Rainfall grid ${Date.now()}` });
  const res = await page.goto(pathOf(grid.web_url));
  expect(res?.status()).toBe(200);
  await expect(page.locator('h1')).toContainText(grid.filename);
  await expect(page.locator('main')).toContainText('rainfall');
  await expect(page.locator('main')).toContainText('Feb');
});

test('a chart of many values shows its image until the visitor asks for the interactive chart', async ({ page, request }) => {
  const grid = await createGrid(request, { y: Array.from({ length: 250_000 }, (_, i) => (i * 7919) % 1000) }, { filename: `Many values ${Date.now()}` });
  const res = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: { filename: `Many ${Date.now()}`, figure: { data: [{ type: 'scattergl', mode: 'markers', ysrc: grid.src('y') }] } },
  });
  expect(res.status()).toBe(200);
  const plot = (await res.json()).file;
  await page.goto(pathOf(plot.web_url));
  const chart = page.locator('section.plot-chart');
  await expect(chart.locator('img.plot-static')).toBeVisible();
  await expect(chart.locator('.plot-figure')).toHaveCount(0);
  await chart.getByRole('button', { name: /Draw the interactive chart/ }).click();
  await expectChartDrawn(chart.locator('.plot-figure'), 60_000);
});

test('a plot page links the grids it draws from and a grid page the plots drawing from it, naming only what the visitor may read', async ({
  page,
  request,
}) => {
  const open = await createGrid(request, { x: [1, 2, 3] }, { filename: `Open data ${unique()}` });
  const closed = await createGrid(request, { y: [4, 5, 6] }, { filename: `Closed data ${unique()}`, worldReadable: false });
  const figure = { data: [{ type: 'scatter', xsrc: open.src('x'), ysrc: closed.src('y') }] };
  const make = async (filename: string, worldReadable: boolean) =>
    (
      await (
        await request.post('/v2/plots', { headers: { Authorization: basicAuth(E2E_USER) }, data: { figure, filename, world_readable: worldReadable } })
      ).json()
    ).file as FileRecord;
  const shown = await make(`Shown plot ${unique()}`, true);
  const hidden = await make(`Hidden plot ${unique()}`, false);

  // Anonymous: the public grid by name, the private one counted.
  await page.goto(pathOf(shown.web_url));
  const data = page.locator('.file-meta .file-data');
  await expect(data).toContainText('Data from');
  await expect(data.getByRole('link', { name: open.filename })).toHaveAttribute('href', pathOf(open.web_url));
  await expect(data).toContainText('and 1 other grid');
  await expect(page.locator('main')).not.toContainText(closed.filename);

  await page.goto(pathOf(open.web_url));
  const usedBy = page.locator('.file-meta .file-used-by');
  await expect(usedBy.getByRole('link', { name: shown.filename })).toBeVisible();
  await expect(usedBy).toContainText('and 1 other plot');
  await expect(page.locator('main')).not.toContainText(hidden.filename);

  // The owner: every file named.
  await signIn(page);
  await page.goto(pathOf(shown.web_url));
  await expect(page.locator('.file-meta .file-data').getByRole('link', { name: closed.filename })).toBeVisible();
  await page.goto(pathOf(open.web_url));
  await expect(page.locator('.file-meta .file-used-by').getByRole('link', { name: hidden.filename })).toBeVisible();
  await expect(page.locator('.file-meta .file-used-by')).not.toContainText('other plot');
});
