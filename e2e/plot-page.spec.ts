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

test('a chart of many values not drawn by the view shows its image until the visitor asks for the interactive chart', async ({ page, request }) => {
  const grid = await createGrid(request, { y: Array.from({ length: 250_000 }, (_, i) => (i * 7919) % 1000) }, { filename: `Many values ${Date.now()}` });
  const res = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: { filename: `Many ${Date.now()}`, figure: { data: [{ type: 'histogram', ysrc: grid.src('y') }] } },
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

// Issue 39: a chart of a million rows a trace is drawn by the view (a reduction of the rows in view),
// and zoomed to about a thousand rows draws every one of them, fetched for that window.
test('a chart of 1,000,000 rows is drawn reduced, and a zoom to about 1,000 rows draws them all', async ({ page, request, pageErrors }) => {
  test.setTimeout(180_000);
  const ROWS = 1_000_000;
  const T0 = Date.UTC(2024, 0, 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = (i: number) => {
    const d = new Date(T0 + i * 1000);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  };
  const series = [(i: number) => (i * 7919) % 1000, (i: number) => i % 97, (i: number) => Math.round(1000 * Math.sin(i / 5000))];
  const grid = await createGrid(
    request,
    {
      time: Array.from({ length: ROWS }, (_, i) => stamp(i)),
      ...Object.fromEntries(series.map((f, k) => [`v${k}`, Array.from({ length: ROWS }, (_, i) => f(i))])),
    },
    { filename: `Million rows ${unique()}` },
  );
  const res = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: {
      filename: `Million ${unique()}`,
      figure: {
        data: series.map((_, k) => ({
          type: k === 2 ? 'scattergl' : 'scatter',
          mode: 'lines',
          name: `v${k}`,
          xsrc: grid.src('time'),
          ysrc: grid.src(`v${k}`),
        })),
      },
    },
  });
  expect(res.status()).toBe(200);
  const plot = (await res.json()).file as FileRecord;
  await page.goto(pathOf(plot.web_url));
  const figure = page.locator('section.plot-chart .plot-figure');
  await expectChartDrawn(figure, 60_000);
  const note = figure.locator('.chart-view-note');
  await expect(note).toHaveText(/^Showing [\d,]+ of 3,000,000 points; zoom for detail\.$/);
  const drawn = () =>
    figure.locator('.js-plotly-plot').evaluate((gd) => {
      const el = gd as unknown as { data: { x: number[]; y: number[] }[]; _fullLayout: Record<string, { _offset: number; _length: number; type: string }> };
      const box = gd.getBoundingClientRect();
      const { xaxis, yaxis } = el._fullLayout;
      return {
        traces: el.data.map((t) => ({ x: Array.from(t.x), y: Array.from(t.y) })),
        xType: xaxis.type,
        plotArea: { left: box.left + xaxis._offset, width: xaxis._length, middle: box.top + yaxis._offset + yaxis._length / 2 },
      };
    });
  const first = await drawn();
  expect(first.xType).toBe('date');
  for (const t of first.traces) expect(t.x.length).toBeLessThanOrEqual(2 * 4000 + 2);
  // A trace reduced keeps each stretch's extremes: v1 (0..96 repeating) still reaches both.
  expect(Math.min(...first.traces[1].y)).toBe(0);
  expect(Math.max(...first.traces[1].y)).toBe(96);
  // Two horizontal drags (plotly's zoom box along x): about 1.5% of the rows, then about 7% of those.
  const drag = async (from: number, to: number) => {
    const { plotArea } = await drawn();
    const at = (f: number) => plotArea.left + f * plotArea.width;
    await page.mouse.move(at(from), plotArea.middle);
    await page.mouse.down();
    await page.mouse.move(at((from + to) / 2), plotArea.middle, { steps: 4 });
    await page.mouse.move(at(to), plotArea.middle, { steps: 4 });
    await page.mouse.up();
  };
  await drag(0.5, 0.515);
  await expect(note).toHaveText(/^Showing [\d,]+ of 3,000,000 points/);
  // Redrawn for the new range (about 15,000 seconds of rows), still reduced.
  await expect
    .poll(async () => {
      const { x } = (await drawn()).traces[0];
      return x[x.length - 1] - x[0];
    })
    .toBeLessThan(30_000 * 1000);
  await drag(0.45, 0.52);
  await expect(note).toHaveCount(0, { timeout: 30_000 });
  const zoomed = await drawn();
  for (const [k, t] of zoomed.traces.entries()) {
    expect(t.x.length, 'a window of about 1,000 rows').toBeGreaterThan(500);
    expect(t.x.length).toBeLessThan(2_500);
    // Every row of the window, each with its stored value: x one second apart, y the row's own.
    const row0 = (t.x[0] - T0) / 1000;
    expect(t.x).toEqual(t.x.map((_, j) => T0 + (row0 + j) * 1000));
    expect(t.y).toEqual(t.x.map((_, j) => series[k](row0 + j)));
  }
  expect(pageErrors).toEqual([]);
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
