// Load cost, measured and logged (timings not asserted: they depend on the machine): first contentful
// paint, time to the first chart (a card image shown, or a chart drawn), and the JavaScript the page
// downloads. Asserted: plotly.js is not in the gallery's first-load JavaScript nor fetched before a
// card's live chart is asked for, the gallery's JavaScript before interaction stays under 300 KiB over
// the wire, and plotly.js is fetched at most once per bundle.
import { writeFileSync } from 'node:fs';
import { allPublicPlots, expect, plotPath, test } from './support';
import type { APIRequestContext, Page, Response } from '@playwright/test';

/** plotly.js (the dist bundle) by its content: its banner and messages survive bundling. */
const isPlotly = (body: string) => body.length > 1_000_000 && (body.includes('plotly-logomark') || body.includes('WebGL is not supported by your browser'));

interface Measure {
  page: string;
  fcpMs: number | null;
  firstChartMs: number | null;
  jsRequests: number;
  jsBytes: number;
  jsTransferBytes: number;
  plotlyRequests: number;
  /** Bytes of plotly.js fetched (uncompressed). */
  plotlyBytes: number;
}

/** Records when the first chart shows (a card's image loaded, or a chart drawn), from navigation start. */
const observeFirstChart = () => {
  const w = window as unknown as { __firstChart?: number };
  const check = () => {
    const image = [...document.querySelectorAll('img.plot-card-image')].some(
      (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
    );
    if (w.__firstChart === undefined && (image || document.querySelector('.plot-figure[data-chart-state="drawn"]'))) w.__firstChart = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-chart-state'] });
  document.addEventListener('load', check, true);
};

async function measure(page: Page, path: string, name: string, opts: { scroll?: boolean; shown?: string } = {}): Promise<Measure> {
  const scripts: Response[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script' || /\.m?js(\?|$)/.test(new URL(r.url()).pathname)) scripts.push(r);
  });
  await page.addInitScript(observeFirstChart);
  await page.goto(path);
  await page
    .locator(opts.shown ?? '.plot-figure[data-chart-state="drawn"]')
    .first()
    .waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => (window as unknown as { __firstChart?: number }).__firstChart !== undefined, null, { timeout: 30_000 });
  const timing = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    chart: (window as unknown as { __firstChart?: number }).__firstChart ?? null,
  }));
  if (opts.scroll) {
    // The rest of the page's cards (their images loading as they scroll in) must not fetch plotly.js.
    for (let y = 0; y < 20; y++) await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(500);
    await page.waitForLoadState('networkidle');
  }
  let jsBytes = 0;
  let jsTransferBytes = 0;
  let plotlyRequests = 0;
  let plotlyBytes = 0;
  for (const r of scripts) {
    const body = await r.body().catch(() => Buffer.alloc(0));
    jsBytes += body.length;
    const sizes = await r
      .request()
      .sizes()
      .catch(() => null);
    jsTransferBytes += sizes ? sizes.responseBodySize : Number(r.headers()['content-length'] ?? body.length);
    if (isPlotly(body.toString('utf8'))) {
      plotlyRequests++;
      plotlyBytes += body.length;
    }
  }
  const m: Measure = {
    page: name,
    fcpMs: timing.fcp === null ? null : Math.round(timing.fcp),
    firstChartMs: timing.chart === null ? null : Math.round(timing.chart),
    jsRequests: scripts.length,
    jsBytes,
    jsTransferBytes,
    plotlyRequests,
    plotlyBytes,
  };
  console.log(
    `[perf] ${name}: FCP ${m.fcpMs} ms, first chart ${m.firstChartMs} ms, JS ${m.jsRequests} files, ` +
      `${(m.jsBytes / 1024).toFixed(0)} KiB (${(m.jsTransferBytes / 1024).toFixed(0)} KiB transferred), plotly fetched ${m.plotlyRequests}x`,
  );
  const file = test.info().outputPath(`perf-${name.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(m, null, 2));
  await test.info().attach(`perf ${name}`, { path: file, contentType: 'application/json' });
  return m;
}

/** The scripts a page's HTML loads up front (script src and preloads), fetched. */
async function firstLoadScripts(request: APIRequestContext, path: string): Promise<{ url: string; body: string }[]> {
  const html = await (await request.get(path)).text();
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="(?:preload|modulepreload)"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href && (/\bas="script"/.test(m[0]) || /modulepreload/.test(m[0]) || /\.js(\?|$)/.test(href))) urls.add(href);
  }
  const out = [];
  for (const url of urls) out.push({ url, body: await (await request.get(url.replace(/&amp;/g, '&'))).text() });
  return out;
}

function logFirstLoad(name: string, scripts: { url: string; body: string }[]): void {
  const bytes = scripts.reduce((n, s) => n + Buffer.byteLength(s.body), 0);
  console.log(`[perf] ${name}: first-load JS (scripts in the HTML) ${scripts.length} files, ${(bytes / 1024).toFixed(0)} KiB uncompressed`);
}

test('gallery: plotly.js is not in the first-load JavaScript; load cost measured', async ({ page, request }) => {
  const initial = await firstLoadScripts(request, '/');
  expect(initial.length, "the gallery's first-load scripts").toBeGreaterThan(0);
  expect(
    initial.filter((s) => isPlotly(s.body)).map((s) => s.url),
    'plotly.js in the first-load scripts',
  ).toEqual([]);
  logFirstLoad('gallery', initial);

  const m = await measure(page, '/', 'gallery', { scroll: true, shown: 'img.plot-card-image' });
  expect(m.firstChartMs, 'a card image was shown').not.toBeNull();
  expect(m.plotlyRequests, 'plotly.js fetched before any card asked for its live chart').toBe(0);
  expect(m.jsTransferBytes, 'JavaScript before interaction, over the wire').toBeLessThan(300 * 1024);

  // Asking cards for their live charts loads plotly.js, at most once per bundle.
  const plotly: string[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script' && isPlotly((await r.body().catch(() => Buffer.alloc(0))).toString('utf8'))) plotly.push(r.url());
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  const buttons = page.locator('article.plot-card button.plot-card-live');
  const asked = Math.min(await buttons.count(), 6);
  for (let i = 0; i < asked; i++) {
    await buttons.nth(i).hover();
    await page.locator('article.plot-card .plot-figure[data-chart-state="drawn"]').nth(i).waitFor({ timeout: 30_000 });
  }
  expect(plotly.length, 'plotly.js bundles fetched').toBeGreaterThanOrEqual(1);
  expect(new Set(plotly).size, 'each bundle fetched once').toBe(plotly.length);
  expect(plotly.length).toBeLessThanOrEqual(3);
});

test('plot page: plotly.js is fetched once; load cost measured', async ({ page, request }) => {
  const plot = (await allPublicPlots(request)).find((p) => p.fid.startsWith('grace:'))!;
  const initial = await firstLoadScripts(request, plotPath(plot.fid));
  expect(
    initial.filter((s) => isPlotly(s.body)).map((s) => s.url),
    'plotly.js in the first-load scripts',
  ).toEqual([]);
  logFirstLoad('plot page', initial);
  const m = await measure(page, plotPath(plot.fid), 'plot page');
  expect(m.firstChartMs, 'the chart was drawn').not.toBeNull();
  expect(m.plotlyRequests, 'plotly.js fetched once').toBe(1);
});

test('a plot of scatter traces loads plotly.js’s basic bundle, a quarter of the full one, and draws', async ({ page, request }) => {
  const SUBPLOT = /^(ternary|geo|mapbox|map|scene|polar|smith)\d*$/;
  // One of the demo gallery's (other tests add public plots of every kind to the shared database).
  const DEMO = new Set(['ada', 'grace', 'linus', 'mae']);
  const plain = (await allPublicPlots(request)).find(
    (p) =>
      DEMO.has(p.fid.split(':')[0]) &&
      p.figure?.data?.length &&
      p.figure.data.every((t) => (t.type ?? 'scatter') === 'scatter') &&
      !Object.keys(p.figure.layout ?? {}).some((k) => SUBPLOT.test(k)),
  );
  expect(plain, 'a public demo plot of scatter traces only').toBeTruthy();
  const m = await measure(page, plotPath(plain!.fid), 'plot page, scatter');
  expect(m.firstChartMs, 'the chart was drawn').not.toBeNull();
  expect(m.plotlyRequests, 'plotly.js fetched once').toBe(1);
  // plotly-basic.min.js is 1.2 MB; the full bundle 4.8 MB.
  expect(m.plotlyBytes, 'the basic bundle').toBeLessThan(2_000_000);
  await expect(page.locator('.plot-chart .js-plotly-plot .scatterlayer .trace').first()).toBeAttached();
});
