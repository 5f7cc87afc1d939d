// 10. Pages in Chromium: the gallery `/` and a plot page, each loaded once to warm the server, then
// LOADS times, each in a fresh browser context (a first visit: nothing cached in the browser).
// Measured from navigation start: first contentful paint, the first chart visible (a card image
// loaded, or a chart drawn), largest contentful paint, and on the plot page the interactive chart
// drawn and answering a hover; and the JavaScript each page fetches (first-load: the scripts its
// HTML names; total: every script fetched until the network is idle, with no interaction: cards
// draw live charts only when asked), compressed and not. And a fresh install: `npm start` on an
// empty embedded database until the gallery's first page shows real card images.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import { queryRows } from '@/db/client';
import { createPlotFromRawFigure } from '@/lib/core/plots/raw-figure';
import { fmt, percentiles, RESULTS_DIR, table, type Benchmark, type BenchContext } from './support';

const LOADS = 10;
const VIEWPORT = { width: 1280, height: 900 };
// As playwright.config.ts launches Chromium for the browser tests.
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--enable-unsafe-swiftshader',
];
const GOALS = {
  galleryLcpMs: 1000,
  firstChartMs: 1000,
  interactiveMs: 1500,
  galleryFirstLoadKiB: 150,
  galleryTotalKiB: 300,
  freshInstallMs: 60_000,
  allDemoCardsMs: 120_000,
};

// A gallery page's worth (24) of the demo mocks, SVG and WebGL, drawn by an image worker first so
// the cards show real card images.
const MOCKS = [
  'bar_attrs_group',
  'line_style',
  'pie_style',
  'box_grouped',
  'heatmap_columnar',
  'contour_constraints',
  'scattercarpet',
  'date_axes',
  'violin_grouped',
  'waterfall_attrs',
  'funnel_attrs',
  'sunburst_values',
  'treemap_values',
  'polar_wind-rose',
  'ternary_fill',
  'finance_style',
  'hist_stacked',
  'multiple_subplots',
  'annotations',
  'shapes',
  'sankey_circular_simple',
  'geo_connectgaps',
  'gl2d_line_dash',
  'gl3d_marker-arrays',
];

/** plotly.js (the dist bundle) by its content, as e2e/perf.spec.ts tells it. */
const isPlotly = (body: string) => body.length > 1_000_000 && (body.includes('plotly-logomark') || body.includes('WebGL is not supported by your browser'));

/** A realistic plot page: three daily series of 1,500 days each (a grid of 4 columns, 6,000 values), lines, hover on x. */
function timeSeriesFigure() {
  const days = 1500;
  const start = Date.UTC(2021, 0, 1);
  const x = Array.from({ length: days }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
  const series = (seed: number) => {
    let v = 100;
    return Array.from({ length: days }, (_, i) => (v = Math.round((v + Math.sin(i / 30 + seed) * 2 + ((i * 7919 * seed) % 11) / 5 - 1) * 100) / 100));
  };
  return {
    data: ['North', 'South', 'West'].map((name, i) => ({ type: 'scatter', mode: 'lines', name, x, y: series(i + 1) })),
    layout: {
      title: { text: 'Daily orders by region' },
      hovermode: 'x',
      xaxis: { title: { text: 'date' }, rangeslider: { visible: false } },
      yaxis: { title: { text: 'orders' } },
    },
  };
}

async function seedPlots(ctx: BenchContext): Promise<{ plotPath: string; ids: number[] }> {
  const owner = { id: ctx.user.id, username: ctx.user.username };
  const fids: string[] = [];
  for (const name of MOCKS) {
    const figure = JSON.parse(readFileSync(`fixtures/plotly-mocks/${name}.json`, 'utf8'));
    fids.push(await createPlotFromRawFigure(ctx.database.db, owner, figure, { filename: `pages bench ${name}` }));
  }
  // Made last: the newest plot, first in the gallery.
  const plotFid = await createPlotFromRawFigure(ctx.database.db, owner, timeSeriesFigure(), { filename: 'pages bench daily orders' });
  fids.push(plotFid);
  const ns = fids.map((fid) => Number(fid.split(':')[1]));
  const ids = (
    await queryRows<{ id: string }>(ctx.database.db, sql`SELECT id FROM files WHERE owner_id = ${owner.id} AND n IN ${sql.raw(`(${ns.join(',')})`)}`)
  ).map((r) => Number(r.id));
  return { plotPath: `/~${ctx.user.username}/${plotFid.split(':')[1]}/`, ids };
}

/** Draws the plots' images with one `npm run worker` process; the count drawn. */
async function drawImages(ctx: BenchContext, ids: number[]): Promise<number> {
  const list = sql.raw(`(${ids.join(',')})`);
  const worker = spawn('node_modules/.bin/tsx', ['--conditions=react-server', 'scripts/worker.ts'], {
    env: { ...process.env, DATABASE_URL: ctx.databaseUrl, IMAGE_POLL_MS: '50' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      const [{ n }] = await queryRows<{ n: string }>(ctx.database.db, sql`SELECT count(*) AS n FROM image_jobs WHERE file_id IN ${list} AND attempts < 3`);
      if (Number(n) === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    worker.kill('SIGTERM');
    await exited;
  }
  const [{ n }] = await queryRows<{ n: string }>(ctx.database.db, sql`SELECT count(DISTINCT file_id) AS n FROM plot_images WHERE file_id IN ${list}`);
  return Number(n);
}

/**
 * A fresh install: `npm start` (one process, its image worker inside) on an empty embedded database,
 * which migrates, seeds the demo gallery and queues its images, the gallery's first page first.
 * Milliseconds from the start until the server answers, until the first of the first page's card
 * images is real (not a placeholder), and until all of them are.
 */
async function freshInstall(ctx: BenchContext): Promise<{
  readyMs: number;
  firstImageMs: number | null;
  allImagesMs: number | null;
  cards: number;
  demoCards: number;
  allDemoMs: number | null;
}> {
  const dir = mkdtempSync(path.join(tmpdir(), 'plot-files-fresh-'));
  const started = Date.now();
  const server = await ctx.startServer({ DATABASE_URL: '', PGLITE_DIR: dir, DEMO_SEED: 'true', IMAGE_WORKER: 'true' });
  const readyMs = Date.now() - started;
  const real = async (srcs: string[]) =>
    (await Promise.all(srcs.map(async (src) => (await fetch(`${server.url}${src}`)).headers.get('x-image-state') ?? 'rendered'))).filter(
      (s) => s === 'rendered',
    ).length;
  let firstImageMs: number | null = null;
  let allImagesMs: number | null = null;
  let cards = 0;
  let demoCards = 0;
  try {
    // The gallery's first page, then every public demo plot's card (the public list, all of it).
    while (Date.now() - started < 600_000) {
      if (allImagesMs === null) {
        const html = await (await fetch(`${server.url}/`)).text();
        const srcs = [...html.matchAll(/<img[^>]*class="plot-card-image"[^>]*>/g)].map((m) => (/src="([^"]+)"/.exec(m[0])?.[1] ?? '').replace(/&amp;/g, '&'));
        cards = srcs.length;
        const n = await real(srcs);
        if (n > 0) firstImageMs ??= Date.now() - started;
        if (cards > 0 && n === cards) allImagesMs = Date.now() - started;
      } else {
        const { results } = (await (await fetch(`${server.url}/v2/plots?page_size=100`)).json()) as { results: { fid: string }[] };
        demoCards = results.length;
        const srcs = results.map((p) => `/~${p.fid.replace(':', '/')}.png?size=card`);
        if ((await real(srcs)) === demoCards) return { readyMs, firstImageMs, allImagesMs, cards, demoCards, allDemoMs: Date.now() - started };
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return { readyMs, firstImageMs, allImagesMs, cards, demoCards, allDemoMs: null };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * In the page before any of its scripts: the first frame in which a chart shows (a thumbnail image
 * loaded, or a chart drawn), the interactive chart is drawn, a hover label shows; and LCP. A string:
 * tsx would wrap the inner functions of a function in helpers the page does not have.
 */
const OBSERVE = `(() => {
  const mark = (name, now) => { if (window[name] === undefined) window[name] = now; };
  const shown = (img) => img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().top < innerHeight;
  const frame = (now) => {
    if (document.querySelector('.plot-figure[data-chart-state="drawn"]') || [...document.querySelectorAll('.plot-card-preview img, .plot-chart img')].some(shown)) mark('__firstChart', now);
    if (document.querySelector('.plot-chart .plot-figure[data-chart-state="drawn"]')) mark('__interactiveDrawn', now);
    if (document.querySelector('.plot-chart .hoverlayer .hovertext')) mark('__hover', now);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new PerformanceObserver((list) => {
    const last = list.getEntries().at(-1);
    if (last) window.__lcp = last.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})();`;

interface Load {
  fcpMs: number;
  firstChartMs: number | null;
  lcpMs: number | null;
  interactiveDrawnMs: number | null;
  interactiveMs: number | null;
  /** When the last byte of plotly.js (the one script over 1 MB) arrived. */
  plotlyArrivedMs: number | null;
}

interface Scripts {
  firstLoad: { files: number; bytes: number; transferBytes: number; plotly: boolean };
  total: { files: number; bytes: number; transferBytes: number; plotlyFetches: number };
}

/** The scripts a page's HTML names up front (script src and preloads). */
function firstLoadUrls(html: string, base: string): Set<string> {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="(?:preload|modulepreload)"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href && (/\bas="script"/.test(m[0]) || /modulepreload/.test(m[0]) || /\.js(\?|$)/.test(href))) urls.add(href);
  }
  return new Set([...urls].map((u) => new URL(u.replace(/&amp;/g, '&'), base).href));
}

/** Moves the mouse over the chart's plot area until plotly shows a hover label. */
async function hoverChart(page: Page): Promise<void> {
  const area = page.locator('.plot-chart .nsewdrag').first();
  const box = await area.boundingBox();
  if (!box) throw new Error('the plot page chart has no plot area');
  for (let i = 0; i < 100; i++) {
    await page.mouse.move(box.x + box.width * (0.4 + (i % 5) * 0.05), box.y + box.height / 2);
    if (await page.evaluate(() => (window as unknown as { __hover?: number }).__hover !== undefined)) return;
    await page.waitForTimeout(10);
  }
  throw new Error('the interactive chart showed no hover label');
}

async function loadOnce(browser: Browser, url: string, plotPage: boolean, withScripts: boolean): Promise<{ load: Load; scripts?: Scripts }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE);
    const responses: Response[] = [];
    if (withScripts) page.on('response', (r) => r.request().resourceType() === 'script' && responses.push(r));
    const navigation = await page.goto(url, { waitUntil: 'load' });
    if (navigation?.status() !== 200) throw new Error(`${url}: ${navigation?.status()}`);
    await page
      .waitForFunction(() => (window as unknown as { __firstChart?: number }).__firstChart !== undefined, null, { timeout: 30_000 })
      .catch(async (e) => {
        await page.screenshot({ path: `${RESULTS_DIR}/pages-timeout.png` });
        throw e;
      });
    if (plotPage) {
      await page.locator('.plot-chart .plot-figure[data-chart-state="drawn"]').waitFor({ timeout: 30_000 });
      await hoverChart(page);
    }
    await page.waitForLoadState('networkidle');
    const load = await page.evaluate(() => {
      const w = window as unknown as Record<string, number | undefined>;
      return {
        fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        firstChartMs: w.__firstChart ?? null,
        lcpMs: w.__lcp ?? null,
        interactiveDrawnMs: w.__interactiveDrawn ?? null,
        interactiveMs: w.__hover ?? null,
        plotlyArrivedMs:
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
            (r) => r.initiatorType === 'script' && r.decodedBodySize > 1_000_000 && !r.name.includes('geo-assets'),
          )?.responseEnd ?? null,
      };
    });
    if (!withScripts) return { load };
    const first = firstLoadUrls(await navigation.text(), url);
    const scripts: Scripts = {
      firstLoad: { files: 0, bytes: 0, transferBytes: 0, plotly: false },
      total: { files: 0, bytes: 0, transferBytes: 0, plotlyFetches: 0 },
    };
    for (const r of responses) {
      const body = await r.body().catch(() => Buffer.alloc(0));
      const transfer = (await r.request().sizes()).responseBodySize;
      const plotly = isPlotly(body.toString('utf8'));
      scripts.total.files++;
      scripts.total.bytes += body.length;
      scripts.total.transferBytes += transfer;
      if (plotly) scripts.total.plotlyFetches++;
      if (first.has(r.url())) {
        scripts.firstLoad.files++;
        scripts.firstLoad.bytes += body.length;
        scripts.firstLoad.transferBytes += transfer;
        scripts.firstLoad.plotly ||= plotly;
      }
    }
    return { load, scripts };
  } finally {
    await context.close();
  }
}

const lcpAfterFcp = (l: Load) => (l.lcpMs === null ? null : l.lcpMs - l.fcpMs);

function summary(loads: Load[], key: keyof Load | ((l: Load) => number | null)) {
  const values = loads.map((l) => (typeof key === 'function' ? key(l) : l[key])).filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length < loads.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentiles(values).p50, p90: sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] };
}

const pages: Benchmark = async (ctx) => {
  await ctx.ensurePlots(ctx.plots);
  const { plotPath, ids } = await seedPlots(ctx);
  ctx.log(`pages: drawing the images of ${ids.length} plots`);
  const drawn = await drawImages(ctx, ids);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
  const results: Record<string, unknown> = { loads: LOADS, imagesDrawn: drawn, plots: ids.length };
  const measured: Record<string, { loads: Load[]; scripts: Scripts }> = {};
  try {
    for (const [name, path, plotPage] of [
      ['gallery `/`', '/', false],
      [`plot page \`${plotPath}\``, plotPath, true],
    ] as const) {
      const url = `${ctx.url}${path}`;
      // The warm-up load: the server's first render of the route; it also measures the JavaScript.
      const { scripts } = await loadOnce(browser, url, plotPage, true);
      const loads: Load[] = [];
      for (let i = 0; i < LOADS; i++) loads.push((await loadOnce(browser, url, plotPage, false)).load);
      measured[name] = { loads, scripts: scripts! };
      results[name] = {
        scripts,
        fcp: summary(loads, 'fcpMs'),
        firstChart: summary(loads, 'firstChartMs'),
        lcp: summary(loads, 'lcpMs'),
        lcpAfterFcp: summary(loads, lcpAfterFcp),
        plotlyArrived: summary(loads, 'plotlyArrivedMs'),
        ...(plotPage ? { interactiveDrawn: summary(loads, 'interactiveDrawnMs'), interactive: summary(loads, 'interactiveMs') } : {}),
        raw: loads,
      };
    }
  } finally {
    await browser.close();
  }
  ctx.log('pages: a fresh install until its first gallery page shows real card images');
  const fresh = await freshInstall(ctx);
  results.freshInstall = fresh;

  const ms = (s: { median: number; p90: number } | null) => (s ? `${fmt(s.median)} / ${fmt(s.p90)}` : 'n/a');
  const kib = (bytes: number) => `${fmt(bytes / 1024)} KiB`;
  const timingRows: string[][] = [];
  const jsRows: string[][] = [];
  for (const [name, m] of Object.entries(measured)) {
    const plotPage = name.startsWith('plot page');
    timingRows.push([
      name,
      ms(summary(m.loads, 'fcpMs')),
      `**${ms(summary(m.loads, 'firstChartMs'))}**`,
      `**${ms(summary(m.loads, 'lcpMs'))}**`,
      ms(summary(m.loads, lcpAfterFcp)),
      ms(summary(m.loads, 'plotlyArrivedMs')),
      plotPage ? ms(summary(m.loads, 'interactiveDrawnMs')) : '',
      plotPage ? `**${ms(summary(m.loads, 'interactiveMs'))}**` : '',
    ]);
    const s = m.scripts;
    jsRows.push([
      name,
      `${s.firstLoad.files}: ${kib(s.firstLoad.transferBytes)} (${kib(s.firstLoad.bytes)})`,
      s.firstLoad.plotly ? '**yes**' : 'no',
      `${s.total.files}: ${kib(s.total.transferBytes)} (${kib(s.total.bytes)})`,
      String(s.total.plotlyFetches),
    ]);
  }
  const gallery = results['gallery `/`'] as { lcp: { median: number } | null; firstChart: { median: number } | null; scripts: Scripts };
  const plot = results[`plot page \`${plotPath}\``] as { firstChart: { median: number } | null; interactive: { median: number } | null; scripts: Scripts };
  const met = (value: number | undefined, goal: number) => (value !== undefined && value <= goal ? 'met' : '**missed**');
  const kibOf = (bytes: number) => bytes / 1024;
  const goals = [
    ['gallery LCP <= 1 s', `${fmt(gallery.lcp?.median ?? NaN)} ms`, met(gallery.lcp?.median, GOALS.galleryLcpMs)],
    ['gallery first card image < 1 s (a first visit)', `${fmt(gallery.firstChart?.median ?? NaN)} ms`, met(gallery.firstChart?.median, GOALS.firstChartMs)],
    [
      'gallery first-load JS unchanged (about 140 KiB)',
      kib(gallery.scripts.firstLoad.transferBytes),
      met(kibOf(gallery.scripts.firstLoad.transferBytes), GOALS.galleryFirstLoadKiB),
    ],
    [
      'gallery total JS before any interaction < 300 KiB over the wire',
      kib(gallery.scripts.total.transferBytes),
      met(kibOf(gallery.scripts.total.transferBytes), GOALS.galleryTotalKiB),
    ],
    [
      'fresh install: first gallery page of real card images < 1 min',
      `${fmt((fresh.allImagesMs ?? NaN) / 1000)} s`,
      met(fresh.allImagesMs ?? undefined, GOALS.freshInstallMs),
    ],
    [
      'fresh install: every demo card real < 2 min after the first answer',
      `${fmt(((fresh.allDemoMs ?? NaN) - fresh.readyMs) / 1000)} s`,
      met(fresh.allDemoMs === null ? undefined : fresh.allDemoMs - fresh.readyMs, GOALS.allDemoCardsMs),
    ],
    ['plot page first chart visible <= 1 s', `${fmt(plot.firstChart?.median ?? NaN)} ms`, met(plot.firstChart?.median, GOALS.firstChartMs)],
    ['plot page interactive chart <= 1.5 s', `${fmt(plot.interactive?.median ?? NaN)} ms`, met(plot.interactive?.median, GOALS.interactiveMs)],
    [
      'plotly.js not in first-load JS',
      gallery.scripts.firstLoad.plotly || plot.scripts.firstLoad.plotly ? 'in it' : 'not in it',
      gallery.scripts.firstLoad.plotly || plot.scripts.firstLoad.plotly ? '**missed**' : 'met',
    ],
  ];
  results.goals = Object.fromEntries(goals.map(([goal, value, verdict]) => [goal, { value, met: verdict === 'met' }]));

  const markdown = `## 10. Pages in Chromium: gallery and plot page

Chromium (${'`/usr/bin/chromium`'}, headless, ${VIEWPORT.width}x${VIEWPORT.height}, the browser tests' launch flags: WebGL on
SwiftShader) on the same machine as the app, no network throttling. Each page is loaded once to warm
the server, then ${LOADS} times, each in a fresh browser context (nothing cached: a first visit).
The gallery's first page shows ${MOCKS.length} demo mocks (every kind, two WebGL) and the plot below, all with
their images drawn first by an image worker (${drawn} of ${ids.length} drawn); the plot page shows a realistic
chart: three daily series of 1,500 days (6,000 values in a grid), lines, hover on x. Times in ms from
navigation start, median / p90:

- first chart visible: a card's image (or the plot page's image) painted, or a chart drawn live;
- LCP: the last \`largest-contentful-paint\` entry (PerformanceObserver, buffered); on the gallery it is
  the first card's image. LCP after FCP (per load) moves less with the machine's other load;
- plotly.js arrived: its last byte (resource timing), fetched once the page's scripts run;
- interactive: the plot page's plotly chart drawn (\`data-chart-state="drawn"\`), and answering: the
  mouse moved over its plot area right after, until plotly shows a hover label.

${table(['page', 'first contentful paint', 'first chart visible', 'LCP', 'LCP after FCP', 'plotly.js arrived', 'interactive chart drawn', 'interactive chart answers a hover'], timingRows)}

JavaScript, from the warm-up load (a fresh context: every script fetched). First-load: the scripts the
HTML names (\`<script src>\` and preloads); total: every script fetched until the network is idle,
with no interaction (a gallery card loads plotly.js only when its live chart is asked for; the plot
page's chart loads it after the page). Files: compressed bytes transferred (uncompressed).

${table(['page', 'first-load JS', 'plotly.js in first-load', 'total JS', 'plotly.js fetches'], jsRows)}

Fresh install: \`npm start\` (one process, its image worker inside) on an empty embedded database: it
migrates, seeds the demo gallery (${'93'} plots) and queues their images, the gallery's first page first.
From the start: the server answers after ${fmt(fresh.readyMs / 1000)} s; the first of the first page's ${fresh.cards} card images is
real (not a placeholder) after ${fmt((fresh.firstImageMs ?? NaN) / 1000)} s, all of them after **${fmt((fresh.allImagesMs ?? NaN) / 1000)} s**;
every public demo plot's card (${fresh.demoCards}) after **${fmt((fresh.allDemoMs ?? NaN) / 1000)} s** (the worker draws two at once: \`IMAGE_RENDERS\`).

Goals (medians):

${table(['goal', 'measured', ''], goals)}`;
  return { results, markdown };
};

export default pages;
