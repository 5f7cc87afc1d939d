// Images: renders per second of the demo figures with one and two workers, time from create to image,
// and the browser's memory. Floor: the renderer alone in this process (plotly's toImage in the warm
// page, no queue, no database), against the queue end to end with `npm run worker` processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { createPlotFromRawFigure } from '@/lib/core/plots/raw-figure';
import { enqueue, notifyQueued } from '@/lib/core/images/images';
import { processTreeMemory } from '@/lib/render/chromium';
import { Renderer } from '@/lib/render/renderer';
import { codeBlock, fmt, percentiles, table, type Benchmark, type BenchContext } from './support';

const MOCKS = 'fixtures/plotly-mocks';
const CREATE_SAMPLES = 15;

const mocks = () =>
  readdirSync(MOCKS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ name: f, text: readFileSync(path.join(MOCKS, f), 'utf8') }));

/** Renders every figure once on `renderer`: seconds, and the browser memory's peak (PSS). */
async function renderAll(renderer: Renderer, figures: { text: string }[]): Promise<{ seconds: number; peakBytes: number; perPlotMs: number[] }> {
  let peakBytes = 0;
  const perPlotMs: number[] = [];
  const started = performance.now();
  for (const { text } of figures) {
    const t = performance.now();
    await renderer.render(text, JSON.parse(text).layout).catch(() => {});
    perPlotMs.push(performance.now() - t);
    peakBytes = Math.max(peakBytes, await renderer.memoryBytes());
  }
  return { seconds: (performance.now() - started) / 1000, peakBytes, perPlotMs };
}

function startWorker(ctx: BenchContext): ChildProcess {
  return spawn('node_modules/.bin/tsx', ['--conditions=react-server', 'scripts/worker.ts'], {
    env: { ...process.env, DATABASE_URL: ctx.databaseUrl, IMAGE_POLL_MS: '50' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

const pendingJobs = async (ctx: BenchContext) =>
  Number((await queryRows<{ n: string }>(ctx.database.db, sql`SELECT count(*) AS n FROM image_jobs WHERE attempts < 3`))[0].n);

async function drained(ctx: BenchContext): Promise<void> {
  while ((await pendingJobs(ctx)) > 0) await new Promise((r) => setTimeout(r, 50));
}

/** Drops the stored images of `ids` and queues them again, as creates would (lib/core/images/images.ts's enqueue). */
async function requeue(ctx: BenchContext, ids: number[]): Promise<void> {
  const list = sql.raw(`(${ids.join(',')})`);
  await ctx.database.db.execute(sql`DELETE FROM plot_images WHERE file_id IN ${list}`);
  await ctx.database.db.execute(sql`DELETE FROM image_jobs WHERE file_id IN ${list}`);
  await ctx.database.db.execute(
    sql`WITH queued AS (${enqueue(sql`SELECT p.file_id, f.owner_id, p.version FROM plots p JOIN files f ON f.id = p.file_id WHERE p.file_id IN ${list}`)}) ${notifyQueued}`,
  );
}

/** Renders/s of the queue drained by `workers` worker processes (browsers warmed first). */
async function queueRate(ctx: BenchContext, workers: number, ids: number[], warm: number[]): Promise<{ rate: number; seconds: number; memory: number }> {
  const children = Array.from({ length: workers }, () => startWorker(ctx));
  try {
    await requeue(ctx, warm);
    await drained(ctx);
    await requeue(ctx, ids);
    const started = performance.now();
    let memory = 0;
    while ((await pendingJobs(ctx)) > 0) {
      memory = Math.max(
        memory,
        (await Promise.all(children.map((c) => processTreeMemory(c.pid!)))).reduce((a, b) => a + b, 0),
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    return { rate: ids.length / seconds, seconds, memory };
  } finally {
    await Promise.all(children.map(stop));
  }
}

/** Milliseconds from `POST /v2/plots` answered to its list-thumb URL answering the rendered image. */
async function createToImage(ctx: BenchContext): Promise<number[]> {
  const headers = { Authorization: ctx.user.auth, 'Content-Type': 'application/json' };
  const times: number[] = [];
  for (let i = 0; i < CREATE_SAMPLES; i++) {
    const grid = await fetch(`${ctx.url}/v2/grids`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { cols: { x: { data: ['a', 'b', 'c', 'd'], order: 0 }, y: { data: [i, 3, 1, 4], order: 1 } } } }),
    }).then((r) => r.json() as Promise<{ file: { fid: string; cols: { uid: string }[] } }>);
    const [x, y] = grid.file.cols.map((c) => `${grid.file.fid}:${c.uid}`);
    const started = performance.now();
    const plot = await fetch(`${ctx.url}/v2/plots`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ figure: { data: [{ type: 'bar', xsrc: x, ysrc: y }], layout: { title: { text: `sample ${i}` } } } }),
    }).then((r) => r.json() as Promise<{ file: { image_urls: { 'list-thumb': string } } }>);
    for (;;) {
      const res = await fetch(plot.file.image_urls['list-thumb']);
      await res.arrayBuffer();
      if (res.headers.get('x-image-state') === 'rendered') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    times.push(performance.now() - started);
  }
  return times;
}

const images: Benchmark = async (ctx) => {
  const figures = mocks();
  ctx.log(`images: ${figures.length} demo figures`);

  // The floor: the renderer alone, warm (the first render launches Chromium and loads plotly.js).
  const renderer = new Renderer();
  const launchStarted = performance.now();
  await renderer.render(figures[0].text, JSON.parse(figures[0].text).layout);
  const coldMs = performance.now() - launchStarted;
  const alone = await renderAll(renderer, figures);
  const svgOnly = figures.filter(
    (f) => !/"type":\s*"(scatter3d|surface|mesh3d|cone|streamtube|volume|isosurface|scattergl|splom|parcoords|heatmapgl|pointcloud)"/.test(f.text),
  );
  const svg = await renderAll(renderer, svgOnly);
  await renderer.close();

  // The same figures as plots, rendered through the queue by worker processes.
  const owner = { id: ctx.user.id, username: ctx.user.username };
  const ids: number[] = [];
  for (const [i, { name, text }] of figures.entries()) {
    const fid = await createPlotFromRawFigure(ctx.database.db, owner, JSON.parse(text), { filename: `image bench ${i} ${name}` });
    const [row] = await queryRows<{ id: string }>(ctx.database.db, sql`SELECT id FROM files WHERE owner_id = ${owner.id} AND n = ${Number(fid.split(':')[1])}`);
    ids.push(Number(row.id));
  }
  await ctx.database.db.execute(sql`DELETE FROM image_jobs`);
  const warm = ids.slice(0, 4);
  const one = await queueRate(ctx, 1, ids, warm);
  const two = await queueRate(ctx, 2, ids, warm);

  // Create to image, one idle worker waiting on LISTEN.
  const worker = startWorker(ctx);
  let latency: number[];
  try {
    await requeue(ctx, warm);
    await drained(ctx);
    latency = await createToImage(ctx);
  } finally {
    await stop(worker);
  }
  const created = percentiles(latency);
  const perImage = (seconds: number, plots: number) => (seconds * 1000) / plots / 4;

  const results = {
    figures: figures.length,
    coldFirstRenderMs: coldMs,
    rendererAlone: {
      rendersPerSec: figures.length / alone.seconds,
      msPerThumbnail: perImage(alone.seconds, figures.length),
      peakBrowserMemoryBytes: alone.peakBytes,
      perPlot: percentiles(alone.perPlotMs),
    },
    rendererAloneSvg: {
      figures: svgOnly.length,
      rendersPerSec: svgOnly.length / svg.seconds,
      msPerThumbnail: perImage(svg.seconds, svgOnly.length),
      perPlot: percentiles(svg.perPlotMs),
    },
    queueOneWorker: { ...one, ratioToFloor: one.rate / (figures.length / alone.seconds) },
    queueTwoWorkers: { ...two, ratioToFloor: two.rate / (figures.length / alone.seconds) },
    createToImageMs: created,
  };
  const rate = (r: number) => fmt(r, 1);
  const markdown = `## 6. Images: renders per second, create to image, browser memory

Each render draws a plot's figure with plotly.js (\`Plotly.toImage\` in the warm page), scales it
into both thumbnails, and draws it again in the card layout at 600x440 (the cards' image): 4 PNGs per
render, two drawings. Figures: the ${figures.length} demo mocks (every trace
type; ${figures.length - svgOnly.length} of them WebGL, drawn on SwiftShader, Chromium's software renderer).
Floor: the renderer alone in one process, no queue or database. Service: the figures created as
plots, their jobs drained from \`image_jobs\` by \`npm run worker\` processes (each with its own
Chromium, warmed first).

${table(
  ['what', 'renders/s', 'ms per image (4 per render)', 'plot p50 / p95 (ms)', 'vs floor'],
  [
    [
      'renderer alone, all figures (floor)',
      rate(results.rendererAlone.rendersPerSec),
      fmt(results.rendererAlone.msPerThumbnail, 0),
      `${fmt(results.rendererAlone.perPlot.p50, 0)} / ${fmt(results.rendererAlone.perPlot.p95, 0)}`,
      '1.00',
    ],
    [
      `renderer alone, SVG figures only (${svgOnly.length})`,
      rate(results.rendererAloneSvg.rendersPerSec),
      fmt(results.rendererAloneSvg.msPerThumbnail, 0),
      `${fmt(results.rendererAloneSvg.perPlot.p50, 0)} / ${fmt(results.rendererAloneSvg.perPlot.p95, 0)}`,
      '',
    ],
    [
      'queue, 1 worker process',
      `**${rate(one.rate)}**`,
      fmt(perImage(one.seconds, figures.length), 0),
      '',
      `**${fmt(results.queueOneWorker.ratioToFloor, 2)}**`,
    ],
    [
      'queue, 2 worker processes',
      `**${rate(two.rate)}**`,
      fmt(perImage(two.seconds, figures.length), 0),
      '',
      `**${fmt(results.queueTwoWorkers.ratioToFloor, 2)}**`,
    ],
  ],
)}

- Create to image (\`POST /v2/plots\` answered → its list-thumb URL answers the rendered PNG, one idle
  worker woken by NOTIFY), ${CREATE_SAMPLES} bar charts: **p50 ${fmt(created.p50, 0)} ms**, p95 ${fmt(created.p95, 0)} ms.
- First render of a fresh renderer (Chromium launch + plotly.js load): ${fmt(coldMs, 0)} ms.
- Browser memory (PSS of Chromium and its children): peak **${fmt(alone.peakBytes / 2 ** 20, 0)} MiB** rendering
  every figure; worker processes including Node: peak ${fmt(one.memory / 2 ** 20, 0)} MiB (1), ${fmt(two.memory / 2 ** 20, 0)} MiB (2 together).

${codeBlock(['npm run build && npm run bench -- images'])}`;
  return { results, markdown };
};

export default images;
