// Plot images through the library, in Debian's Chromium and on both databases: the renderer's
// PNGs, its recovery from crashes and timeouts, and the Postgres render queue that keys images by
// figure version.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { startImageWorker } from '@/lib/render/image-worker';
import { createGrid } from '@/lib/core/grids/grids';
import { listGalleryCards, queueGalleryImagesFirst } from '@/lib/core/plots/card-rows';
import {
  claimImageJob,
  failImageJob,
  getPlotImage,
  isUndrawable,
  MAX_ATTEMPTS,
  MAX_QUEUED_PER_OWNER,
  requestImages,
  requestImagesFirst,
} from '@/lib/core/images/images';
import { GALLERY_PAGE_SIZE } from '@/lib/core/plots/plot-lists';
import { chromiumPath } from '@/lib/render/chromium';
import { RenderTimeoutError } from '@/lib/render/render-jobs';
import { Renderer } from '@/lib/render/renderer';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { inspectPng, MIN_CHART_VARIANCE } from '../support/png';
import { DRIVERS, freshDatabase, useDatabase } from '../support/postgres';
import { fileIds, newViewer, ORIGIN } from './_helpers';

const mock = (name: string) => readFileSync(`fixtures/plotly-mocks/${name}.json`, 'utf8');
const bars = (ys: number[], title = 'Bars') => ({ data: [{ type: 'bar', x: ['a', 'b', 'c'], y: ys }], layout: { title: { text: title } } });

/** A bar chart as the API stores one: its values in a grid, the figure referencing them. */
async function gridBars(db: Db, owner: Viewer, ys: number[], title = 'Bars') {
  const { file } = await createGrid(db, owner, { data: { cols: { x: { data: ['a', 'b', 'c'] }, y: { data: ys } } } }, ORIGIN);
  const [x, y] = file.cols.map((c) => `${file.fid}:${c.uid}`);
  return { data: [{ type: 'bar', xsrc: x, ysrc: y }], layout: { title: { text: title } } };
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const renderer = new Renderer();
afterAll(() => renderer.close());

describe('renderer', () => {
  it('draws the default image at the figure size, both thumbnails and the card image, none of them blank', async () => {
    const figure = mock('bar_attrs_group');
    const images = await renderer.render(figure, JSON.parse(figure).layout);
    expect(images.map((i) => [i.size, i.width, i.height])).toEqual([
      ['default', 400, 400],
      ['block-thumb', 400, 300],
      ['list-thumb', 200, 150],
      ['card', 600, 440],
    ]);
    for (const image of images) {
      const png = inspectPng(image.png);
      expect([png.width, png.height]).toEqual([image.width, image.height]);
      expect(png.variance, `${image.size} is not blank`).toBeGreaterThan(MIN_CHART_VARIANCE);
    }
  });

  it('uses 700x500 when the figure gives no size, and draws WebGL (3D) figures', async () => {
    const figure = mock('gl3d_scatter3d-connectgaps');
    const [def] = await renderer.render(JSON.stringify({ ...JSON.parse(figure), layout: {} }), {});
    const png = inspectPng(def.png);
    expect([png.width, png.height]).toEqual([700, 500]);
    expect(png.variance).toBeGreaterThan(MIN_CHART_VARIANCE);
  });

  it.each([
    { xaxis: { tickmode: 'linear', tick0: 0, dtick: 1e-9 } },
    { xaxis: { tickmode: 'linear', dtick: 1e-9, range: [0, 3] } },
    { yaxis: { nticks: 1e9 } },
    { xaxis: { dtick: '1e-9' }, yaxis: { minor: { dtick: 1e-12, showgrid: true } } },
    { annotations: Array.from({ length: 5000 }, (_, i) => ({ x: i % 3, y: i % 7, text: `a${i}`, showarrow: true })) },
  ])('draws a figure asking for billions of ticks (or thousands of annotations), not abandoned at its deadline (%#)', async (layout) => {
    // Untamed, such a figure holds the page until the deadline: a RenderTimeoutError, not a chart.
    const [def] = await renderer.render(JSON.stringify({ ...bars([1, 2, 3]), layout }), layout, { timeoutMs: 50_000 });
    expect(inspectPng(def.png).variance).toBeGreaterThan(MIN_CHART_VARIANCE);
  });

  it('keeps a dtick that draws a sensible number of ticks, autorange or not', async () => {
    // dtick 0.1 over the data's 0..2 (21 ticks) is kept; 1e-9 is dropped, leaving plotly's own ticks.
    const draw = async (layout: object) =>
      (await renderer.render(JSON.stringify({ data: [{ type: 'scatter', x: [0, 1, 2], y: [1, 2, 3] }], layout }), layout))[0].png;
    const plain = await draw({});
    expect(Buffer.compare(await draw({ xaxis: { dtick: 0.1 } }), plain)).not.toBe(0);
    expect(Buffer.compare(await draw({ xaxis: { dtick: 0.1, range: [0, 2] } }), plain)).not.toBe(0);
    expect(Buffer.compare(await draw({ xaxis: { dtick: 1e-9 } }), plain)).toBe(0);
  });

  it('rejects a figure plotly cannot draw without losing the browser', async () => {
    await expect(renderer.render('{"data": "not traces"', {})).rejects.toThrow();
    const pid = await renderer.browserPid();
    await renderer.render(JSON.stringify(bars([1, 2, 3])), {});
    expect(await renderer.browserPid()).toBe(pid);
  });

  it('replaces a browser that crashed', async () => {
    await renderer.render(JSON.stringify(bars([1, 2, 3])), {});
    const pid = (await renderer.browserPid())!;
    process.kill(pid, 'SIGKILL');
    // The render in flight when it dies fails; the next one has a new browser. Once it is dead (a
    // zombie until reaped, or gone), not after a guessed pause.
    const dead = () => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
      } catch {
        return true;
      }
    };
    await until('the killed browser to die', async () => dead() || null);
    await renderer.render(JSON.stringify(bars([1, 2, 3])), {}).catch(() => {});
    const [def] = await renderer.render(JSON.stringify(bars([3, 2, 1])), {});
    expect(inspectPng(def.png).variance).toBeGreaterThan(MIN_CHART_VARIANCE);
    expect(await renderer.browserPid()).not.toBe(pid);
  });

  it('replaces a browser that has grown past its memory cap', async () => {
    const small = new Renderer({ maxMemoryBytes: 1 });
    try {
      await small.render(JSON.stringify(bars([1, 2, 3])), {});
      const pid = await small.browserPid();
      for (let i = 0; i < 9; i++) await small.render(JSON.stringify(bars([i, 2, 3])), {});
      // The 10th render checked the browser's memory and let it go; the next render starts another.
      expect(await small.browserPid()).toBeUndefined();
      await small.render(JSON.stringify(bars([1, 2, 3])), {});
      expect(await small.browserPid()).not.toBe(pid);
    } finally {
      await small.close();
    }
  });

  it('loads the map outlines into its page only for a figure with a geo map, and draws the map with them', async () => {
    const map = JSON.stringify({ data: [{ type: 'scattergeo', lon: [-120, 0, 120], lat: [-40, 0, 50], mode: 'markers' }], layout: {} });
    const fresh = new Renderer();
    try {
      await fresh.render(JSON.stringify(bars([1, 2, 3])), {});
      // Not loaded for the bars: plotly looks for them on the network, which the page cannot reach.
      await expect(fresh.render(map, {})).rejects.toThrow();
      const [def] = await fresh.render(map, {}, { mapOutlines: true });
      const png = inspectPng(def.png);
      expect(png.variance).toBeGreaterThan(MIN_CHART_VARIANCE);
    } finally {
      await fresh.close();
    }
  });

  it("a browser without WebGL fails a 3D figure as a lost browser (not the figure's doing) and is replaced", async () => {
    // Chromium turns WebGL off for good after its GPU process crashed a few times; --disable-webgl is that state from the start.
    const dir = mkdtempSync(path.join(tmpdir(), 'pf-nowebgl-'));
    const chromium = path.join(dir, 'chromium');
    writeFileSync(chromium, `#!/bin/sh\nexec ${chromiumPath()} --disable-webgl "$@"\n`, { mode: 0o755 });
    const blind = new Renderer({ executablePath: chromium });
    try {
      const [def] = await blind.render(JSON.stringify(bars([1, 2, 3])), {});
      expect(inspectPng(def.png).variance).toBeGreaterThan(MIN_CHART_VARIANCE);
      const pid = await blind.browserPid();
      await expect(blind.render(mock('gl3d_scatter3d-connectgaps'), {})).rejects.toMatchObject({ name: 'BrowserLostError' });
      expect(await blind.browserPid()).not.toBe(pid);
      // The next render starts a new browser. (With WebGL, a figure plotly refuses keeps the browser: above.)
      const [again] = await blind.render(JSON.stringify(bars([3, 2, 1])), {});
      expect(inspectPng(again.png).variance).toBeGreaterThan(MIN_CHART_VARIANCE);
    } finally {
      await blind.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('abandons a render that times out, and the next render works', async () => {
    await renderer.render(JSON.stringify(bars([1, 2, 3])), {});
    const pid = await renderer.browserPid();
    // 1 ms is shorter than any render: the render is abandoned as a hung one would be.
    await expect(renderer.render(JSON.stringify(bars([1, 2, 3])), {}, { timeoutMs: 1 })).rejects.toBeInstanceOf(RenderTimeoutError);
    const [def] = await renderer.render(JSON.stringify(bars([1, 5, 3])), {});
    expect(inspectPng(def.png).variance).toBeGreaterThan(MIN_CHART_VARIANCE);
    expect(await renderer.browserPid()).not.toBe(pid);
  });
});

describe.each(DRIVERS)('image queue (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let owner: Viewer;

  beforeAll(async () => {
    db = database.db;
    owner = await newViewer(db, 'imager');
  });

  const jobs = () =>
    queryRows<{ file_id: number; version: number; attempts: number }>(
      db,
      sql`SELECT file_id::int AS file_id, version, attempts FROM image_jobs ORDER BY file_id`,
    );
  const idOf = async (fid: string) => (await fileIds(db)).get(fid)!;
  const create = async (ys: number[], title?: string) => {
    const figure = await gridBars(db, owner, ys, title);
    const fid = (JSON.parse(await createPlot(db, owner, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid;
    return { fid, id: await idOf(fid) };
  };

  it('creating a plot queues its images; one claim leases it, and a second finds nothing', async () => {
    const { id } = await create([1, 2, 3]);
    expect(await jobs()).toEqual([{ file_id: id, version: 1, attempts: 0 }]);
    const job = await claimImageJob(db);
    expect(job).toEqual({ fileId: id, version: 1, attempts: 1, slow: false });
    expect(await claimImageJob(db)).toBeNull();
    // A failed render waits before its retry, and after MAX_ATTEMPTS is left alone.
    await failImageJob(db, job!, new Error('boom'));
    expect(await claimImageJob(db)).toBeNull();
    await db.execute(sql`UPDATE image_jobs SET run_after = now(), attempts = ${MAX_ATTEMPTS}`);
    expect(await claimImageJob(db)).toBeNull();
    await db.execute(sql`DELETE FROM image_jobs`);
  });

  it('a lost browser gives its attempt back, unless the attempt before was lost too', async () => {
    const { id } = await create([4, 5, 6]);
    const attempts = async () => (await jobs()).find((j) => j.file_id === id)!.attempts;
    const claim = async () => {
      await db.execute(sql`UPDATE image_jobs SET run_after = now()`);
      return (await claimImageJob(db))!;
    };
    await failImageJob(db, await claim(), new Error('the browser could not start'), 'browser');
    expect(await attempts()).toBe(0);
    // Lost twice in a row: this one counts (a figure that keeps taking the browser down runs out).
    await failImageJob(db, await claim(), new Error('the browser lost WebGL'), 'browser');
    expect(await attempts()).toBe(1);
    await failImageJob(db, await claim(), new Error('plotly refused it'));
    expect(await attempts()).toBe(MAX_ATTEMPTS);
    await db.execute(sql`UPDATE image_jobs SET run_after = now()`);
    expect(await claimImageJob(db)).toBeNull();
    await db.execute(sql`DELETE FROM image_jobs`);
  });

  it('a render out of time is retried with more time, and only out of that too is the plot undrawable', async () => {
    const { id } = await create([7, 8, 9]);
    const attempts = async () => (await jobs()).find((j) => j.file_id === id)!.attempts;
    const claim = async () => {
      await db.execute(sql`UPDATE image_jobs SET run_after = now()`);
      return (await claimImageJob(db))!;
    };
    const first = await claim();
    expect(first.slow).toBe(false);
    await failImageJob(db, first, new Error('render took over 20000 ms'), 'slow');
    expect(await attempts()).toBe(0);
    expect(await isUndrawable(db, id)).toBe(false);
    const patient = await claim();
    expect(patient.slow).toBe(true);
    await failImageJob(db, patient, new Error('render took over 60000 ms'), 'slow');
    expect(await isUndrawable(db, id)).toBe(true);
    await db.execute(sql`DELETE FROM image_jobs`);
  });

  it('a worker renders a new plot, and an update never serves the older images', async () => {
    const worker = (await startImageWorker(async () => database, { renderer, pollMs: 100 }))!;
    try {
      const { fid, id } = await create([1, 2, 3], 'First');
      const first = await until('first images', () => getPlotImage(db, id, 'list-thumb'));
      expect(first.version).toBe(1);
      expect(inspectPng(first.png)).toMatchObject({ width: 200, height: 150 });

      await updateFileDetail(db, owner, parseFid(fid)!, { figure: await gridBars(db, owner, [9, 1, 9], 'Second') }, ORIGIN, 'plot');
      // At once: the version-1 image is no longer what the plot's URL finds.
      const right = await getPlotImage(db, id, 'list-thumb');
      expect(right === null || right.version === 2).toBe(true);
      const second = await until('second images', () => getPlotImage(db, id, 'default'));
      expect(second.version).toBe(2);
      expect(Buffer.compare(Buffer.from(second.png), Buffer.from(first.png))).not.toBe(0);
      // Every size of version 2, and nothing of version 1, is stored; the queue is empty.
      await until('all sizes', async () => (await getPlotImage(db, id, 'block-thumb')) && (await getPlotImage(db, id, 'list-thumb')));
      const stored = await queryRows<{ version: number; size: string }>(db, sql`SELECT version, size FROM plot_images WHERE file_id = ${id} ORDER BY size`);
      expect(stored).toEqual([
        { version: 2, size: 'block-thumb' },
        { version: 2, size: 'card' },
        { version: 2, size: 'default' },
        { version: 2, size: 'list-thumb' },
      ]);
      expect(await until('an empty queue', async () => (await jobs()).length === 0)).toBe(true);
      expect(worker.rendered()).toBeGreaterThanOrEqual(2);
    } finally {
      await worker.stop();
    }
  });

  it('a worker draws a plot with a geo map (its outlines loaded for it)', async () => {
    const worker = (await startImageWorker(async () => database, { renderer, pollMs: 100 }))!;
    try {
      const { file } = await createGrid(db, owner, { data: { cols: { state: { data: ['CA', 'TX', 'NY'] }, z: { data: [1, 2, 3] } } } }, ORIGIN);
      const [locationssrc, zsrc] = file.cols.map((c) => `${file.fid}:${c.uid}`);
      const figure = { data: [{ type: 'choropleth', locationmode: 'USA-states', locationssrc, zsrc }], layout: { geo: { scope: 'usa' } } };
      const id = await idOf((JSON.parse(await createPlot(db, owner, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid);
      const image = await until('the map', () => getPlotImage(db, id, 'default'));
      expect(inspectPng(image.png).variance).toBeGreaterThan(MIN_CHART_VARIANCE);
      expect(await isUndrawable(db, id)).toBe(false);
    } finally {
      await worker.stop();
    }
  });

  it("owners take turns: a bulk of one owner's jobs does not keep another's waiting; each owner's come oldest first", async () => {
    await db.execute(sql`DELETE FROM image_jobs`);
    const bulk: number[] = [];
    for (let i = 0; i < 6; i++) bulk.push((await create([i, 1, 2])).id);
    const other = await newViewer(db, 'another');
    const figure = await gridBars(db, other, [3, 2, 1]);
    const single = await idOf((JSON.parse(await createPlot(db, other, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid);
    const order: number[] = [];
    for (let job = await claimImageJob(db); job; job = await claimImageJob(db)) order.push(job.fileId);
    expect(order).toHaveLength(7);
    expect(order.indexOf(single)).toBeLessThanOrEqual(1);
    expect(order.filter((id) => id !== single)).toEqual(bulk);
    await db.execute(sql`DELETE FROM image_jobs`);
  });

  it(`an owner has at most ${MAX_QUEUED_PER_OWNER} renders queued; past that a plot is asked for again when its image is`, async () => {
    const crowd = await newViewer(db, 'crowd');
    // Queued jobs of the owner's (on folders: any file will do for the count).
    await db.execute(sql`
      WITH made AS (
        INSERT INTO files (owner_id, n, filetype, filename)
        SELECT ${crowd.id}, 1000 + g, 'fold', 'f' || g FROM generate_series(1, ${MAX_QUEUED_PER_OWNER}) g RETURNING id)
      INSERT INTO image_jobs (file_id, owner_id, version) SELECT id, ${crowd.id}, 1 FROM made`);
    const figure = await gridBars(db, crowd, [1, 2, 3]);
    const fid = (JSON.parse(await createPlot(db, crowd, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid;
    const id = await idOf(fid);
    const queued = async () => (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM image_jobs WHERE file_id = ${id}`))[0].n;
    expect(await queued()).toBe(0);
    await db.execute(sql`DELETE FROM image_jobs WHERE owner_id = ${crowd.id}`);
    await requestImages(db, id);
    expect(await queued()).toBe(1);
    await db.execute(sql`DELETE FROM image_jobs`);
  });

  it('plots asked for first are drawn first, in the order asked, before any other job', async () => {
    await db.execute(sql`DELETE FROM image_jobs`);
    const made: number[] = [];
    for (let i = 0; i < 4; i++) made.push((await create([i, 2, 1])).id);
    await requestImagesFirst(db, [made[3], made[1]]);
    const order: number[] = [];
    for (let job = await claimImageJob(db); job; job = await claimImageJob(db)) order.push(job.fileId);
    expect(order).toEqual([made[3], made[1], made[0], made[2]]);
    await db.execute(sql`DELETE FROM image_jobs`);
  });

  it("boot queues the gallery's first page first, in its order, skipping plots whose card image is drawn", async () => {
    await db.execute(sql`DELETE FROM image_jobs`);
    await db.execute(sql`DELETE FROM plot_images`);
    for (let i = 0; i < 3; i++) await create([i, 9, i]);
    const page = await listGalleryCards(db, { page_size: GALLERY_PAGE_SIZE }, ORIGIN);
    const ids = await fileIds(db);
    const first = page.rows.map((r) => ids.get(`${r.owner}:${r.n}`)!);
    expect(first.length).toBeGreaterThanOrEqual(3);
    // The newest plot's card image is already drawn: nothing to queue for it.
    await db.execute(sql`INSERT INTO plot_images (file_id, version, size, png, width, height)
      SELECT file_id, version, 'card', decode('00', 'hex'), 600, 440 FROM plots WHERE file_id = ${first[0]}`);
    // Other jobs queued before boot wait behind the first page.
    const later = (await create([7, 7, 7])).id;
    await db.execute(sql`UPDATE files SET world_readable = false WHERE id = ${later}`);
    await db.execute(sql`DELETE FROM image_jobs WHERE file_id <> ${later}`);
    await queueGalleryImagesFirst(db);
    const order: number[] = [];
    for (let job = await claimImageJob(db); job; job = await claimImageJob(db)) order.push(job.fileId);
    const expected = first.slice(1);
    expect(order).toEqual([...expected, later]);
    expect(order).not.toContain(first[0]);
    await db.execute(sql`DELETE FROM image_jobs`);
    await db.execute(sql`DELETE FROM plot_images`);
  });

  it('asking again for a version already queued or rendered changes nothing', async () => {
    const { id } = await create([4, 5, 6]);
    await db.execute(sql`UPDATE image_jobs SET attempts = 2 WHERE file_id = ${id}`);
    await requestImages(db, id);
    expect((await jobs()).find((j) => j.file_id === id)?.attempts).toBe(2);
    await db.execute(sql`DELETE FROM image_jobs`);
  });
});

// Several workers in several processes share one queue; two connections stand for two processes.
describe('image queue across connections (postgres)', () => {
  it('concurrent claims take different jobs (FOR UPDATE SKIP LOCKED)', async () => {
    const database = await freshDatabase('postgres');
    try {
      const owner = await newViewer(database.db, 'claimer');
      for (const i of [1, 2, 3, 4]) await createPlot(database.db, owner, { figure: await gridBars(database.db, owner, [i, i, i]) }, ORIGIN);
      const claims = await Promise.all([1, 2, 3, 4, 5].map(() => claimImageJob(database.db)));
      expect(claims.filter((c) => c === null)).toHaveLength(1);
      expect(new Set(claims.filter((c) => c !== null).map((c) => c!.fileId)).size).toBe(4);
    } finally {
      await database.dispose();
    }
  });
});
