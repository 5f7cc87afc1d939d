// Titles are data, never markup: `<script>` and `<img onerror>` titles show as literal text on the
// gallery card, the plot page and the embed, and run nothing. Figure text loads nothing: a chart
// whose title, annotation, tick labels and bar text style themselves with `url(...)` makes no
// visitor's browser request that address, on the card, the plot page or the embed.
import {
  E2E_USER,
  HOSTILE_TITLES,
  basicAuth,
  createGrid,
  createPlot,
  embedPath,
  expect,
  expectCardDrawn,
  expectChartDrawn,
  pathOf,
  test,
  unique,
  type FileRecord,
} from './support';
import type { Page } from '@playwright/test';

async function expectInert(page: Page, title: string, injected: string[]): Promise<void> {
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), 'window.__pwned').toBeUndefined();
  expect(await page.locator('img[src="x"]').count(), 'an injected <img>').toBe(0);
  const scripts = await page.locator('script').evaluateAll((els) => els.map((e) => e.textContent?.trim()));
  expect(
    scripts.filter((s) => s === 'window.__pwned=1'),
    'an injected <script>',
  ).toEqual([]);
  expect(injected, `requests made by injected markup of ${title}`).toEqual([]);
}

for (const [i, title] of HOSTILE_TITLES.entries()) {
  test(`hostile title ${i + 1} is shown as text and runs nothing: ${title}`, async ({ page, request }) => {
    const plot: FileRecord = await createPlot(request, { title, filename: `hostile ${i + 1} ${Date.now()}` });
    const injected: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/x') injected.push(r.url());
    });
    page.on('dialog', (d) => {
      injected.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });

    // Gallery: the newest public plot is on the first page.
    await page.goto('/');
    const card = page.locator(`article.plot-card[data-fid="${plot.fid}"]`);
    await expect(card.locator('h2.plot-card-title')).toHaveText(title);
    await expectCardDrawn(card);
    await expectInert(page, title, injected);

    // Plot page.
    await page.goto(pathOf(plot.web_url));
    await expect(page.locator('h1')).toHaveText(title);
    await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
    await expectInert(page, title, injected);

    // Embed: the chart draws; wherever the title shows, it is literal text.
    await page.goto(embedPath(plot.fid));
    await expectChartDrawn(page.locator('.plot-figure'));
    const text = await page.locator('body').innerText();
    if (text.includes('__pwned')) expect(text).toContain(title);
    await expectInert(page, title, injected);
  });
}

test('figure text styled with url(...) makes no visitor request its address', async ({ page, request }) => {
  const styled = (what: string) => `<span style="background:url(/x?${what})">${what}</span>`;
  const grid = await createGrid(
    request,
    { x: ['a', 'b'], y: [1, 2], t: [styled('bar'), `<b style='fill:url("/x?fill")'>b</b>`] },
    { user: E2E_USER, worldReadable: true },
  );
  const res = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: {
      filename: `styled text ${unique()}`,
      world_readable: true,
      figure: {
        data: [
          {
            type: 'bar',
            xsrc: grid.src('x'),
            ysrc: grid.src('y'),
            textsrc: grid.src('t'),
            textposition: 'inside',
            name: styled('legend'),
            hovertemplate: '<span %{text}>%{y}</span>',
          },
        ],
        layout: {
          title: { text: styled('title') },
          showlegend: true,
          annotations: [{ text: `<span style="background:&#117;rl(/x?entity)">note</span>`, x: 0, y: 1, xref: 'paper', yref: 'paper' }],
          xaxis: { title: { text: `<SPAN STYLE="BACKGROUND:URL(/x?upper)">axis</SPAN>` } },
        },
      },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const plot = ((await res.json()) as { file: FileRecord }).file;
  const injected: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/x') injected.push(r.url());
  });

  await page.goto('/');
  await expectCardDrawn(page.locator(`article.plot-card[data-fid="${plot.fid}"]`));
  await page.goto(pathOf(plot.web_url));
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  await expect(page.locator('section.plot-chart .gtitle')).toHaveText('title');
  await page.goto(embedPath(plot.fid));
  await expectChartDrawn(page.locator('.plot-figure'));
  // Requests the drawing started have been made by the time a later one is answered.
  await page.evaluate(() => fetch('/').then((r) => r.text()));
  expect(injected).toEqual([]);
});
