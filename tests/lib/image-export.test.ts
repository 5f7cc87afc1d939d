// Image export through the library: output sizes and the pixel cap, the fair queue and the export
// pages it hands out, per-user slots as leases on both databases, Inkscape's EMF, and the renderer's
// export pages in Debian's Chromium: every format, and a hung export abandoned at its deadline
// without holding up thumbnails or the other pages.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { IMAGE_SIZES } from '@/lib/core/images/images';
import { emfUnavailable, ExportBusyError, ExportLanes, exportSize, FairQueue, imageExportSchema, selfContained, svgToEmf } from '@/lib/render/image-export';
import { claimLease, claimOneOf, releaseLease, renewLease } from '@/lib/core/leases';
import { chromiumPath } from '@/lib/render/chromium';
import { FigureError, RenderTimeoutError, type ExportJob } from '@/lib/render/render-jobs';
import { Renderer } from '@/lib/render/renderer';
import { closeDecoder, decodeImage, emfInfo, MAGIC, pdfInfo, pxToMm, pxToPt } from '../support/image-formats';
import { DRIVERS, useDatabase } from '../support/postgres';
import { HANGING } from '../support/hostile-figures';

const figure = (layout: Record<string, unknown> = {}) => ({ data: [{ type: 'bar', x: ['a', 'b', 'c'], y: [3, 1, 2] }], layout });

describe('export sizes', () => {
  it.each([
    { what: 'no size anywhere: 700x500', layout: {}, body: {}, out: [700, 500, 700, 500] },
    { what: "the layout's size", layout: { width: 640, height: 480 }, body: {}, out: [640, 480, 640, 480] },
    { what: "the layout's size, clamped", layout: { width: 10, height: 99999 }, body: {}, out: [50, 4096, 50, 4096] },
    { what: 'width and height override the layout', layout: { width: 640, height: 480 }, body: { width: 300, height: 200 }, out: [300, 200, 300, 200] },
    { what: 'scale multiplies the output', layout: {}, body: { scale: 2 }, out: [700, 500, 1400, 1000] },
    { what: 'scale rounds to whole pixels', layout: {}, body: { width: 333, height: 111, scale: 0.29 }, out: [333, 111, 97, 32] },
    { what: 'exactly the cap', layout: {}, body: { width: 4096, height: 4096, scale: 1 }, out: [4096, 4096, 4096, 4096] },
  ])('$what', ({ layout, body, out }) => {
    const parsed = imageExportSchema.parse({ figure: figure(layout), ...body });
    const size = exportSize(parsed);
    expect([size.width, size.height, size.outWidth, size.outHeight]).toEqual(out);
  });

  it('an output over 16,777,216 pixels is a 400 naming scale', () => {
    const parsed = imageExportSchema.parse({ figure: figure(), width: 4096, height: 4096, scale: 1.01 });
    let caught: unknown;
    try {
      exportSize(parsed);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).status).toBe(400);
    expect((caught as ApiError).errors[0]).toMatchObject({ field: 'scale' });
    expect((caught as ApiError).message).toMatch(/^scale: .*16,777,216/);
  });

  it('defaults: png, scale 1, not encoded; unknown keys (R sends filename) dropped, frames ignored', () => {
    const parsed = imageExportSchema.parse({ figure: { ...figure(), frames: [{}] }, filename: '2026-01-01 10:00:00' });
    expect(parsed).toEqual({ figure: figure(), format: 'png', scale: 1, encoded: false });
  });
});

describe('fair queue', () => {
  it('serves keys in turns, one item a turn, in the order they joined', () => {
    const q = new FairQueue<string>(10);
    for (const [key, item] of [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['b', 'b1'],
      ['c', 'c1'],
      ['b', 'b2'],
    ])
      expect(q.push(key, item)).toBe(true);
    const order: string[] = [];
    for (let item = q.shift(); item; item = q.shift()) order.push(item);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(q.size).toBe(0);
  });

  it('refuses items beyond its capacity, and forgets items taken out', () => {
    const q = new FairQueue<string>(2);
    expect([q.push('a', 'a1'), q.push('b', 'b1'), q.push('c', 'c1')]).toEqual([true, true, false]);
    expect(q.remove('a', 'a1')).toBe(true);
    expect(q.remove('a', 'a1')).toBe(false);
    expect(q.push('c', 'c1')).toBe(true);
    expect([q.shift(), q.shift(), q.shift()]).toEqual(['b1', 'c1', undefined]);
  });
});

describe('export pages (lanes)', () => {
  it('hands out free pages at once, then in fair turns as they are released', async () => {
    const lanes = new ExportLanes(2, 10);
    const first = await Promise.all([lanes.acquire('a', 1000), lanes.acquire('a', 1000)]);
    expect(first.sort()).toEqual([0, 1]);
    const granted: string[] = [];
    const wait = (key: string, name: string) =>
      lanes.acquire(key, 5000).then((lane) => {
        granted.push(name);
        return lane;
      });
    // a queues two more before b and c queue one each: turns go a, b, c, a.
    const waits = [wait('a', 'a3'), wait('a', 'a4'), wait('b', 'b1'), wait('c', 'c1')];
    let lane = 0;
    for (let i = 0; i < 4; i++) {
      lanes.release(lane);
      lane = await waits[[0, 2, 3, 1][i]];
    }
    expect(granted).toEqual(['a3', 'b1', 'c1', 'a4']);
  });

  it('is busy when its queue is full, or when the wait runs out', async () => {
    const lanes = new ExportLanes(1, 1);
    await lanes.acquire('a', 1000);
    const waiting = lanes.acquire('b', 100);
    await expect(lanes.acquire('c', 1000)).rejects.toBeInstanceOf(ExportBusyError);
    await expect(waiting).rejects.toThrow(/within 100 ms/);
    // The timed-out waiter left the queue: the next one gets the page when it is released.
    const next = lanes.acquire('c', 1000);
    lanes.release(0);
    expect(await next).toBe(0);
  });
});

describe.each(DRIVERS)('render slots as leases (%s)', (driver) => {
  const database = useDatabase(driver);
  const slots = ['render:1:0', 'render:1:1'];

  it('two slots per user; a third claim finds none until one is released', async () => {
    const db = database.db;
    expect(await claimOneOf(db, slots, 'h1', 35)).toBe('render:1:0');
    expect(await claimOneOf(db, slots, 'h2', 35)).toBe('render:1:1');
    expect(await claimOneOf(db, slots, 'h3', 35)).toBeNull();
    // Another user's slots are their own.
    expect(await claimOneOf(db, ['render:2:0', 'render:2:1'], 'h4', 35)).toBe('render:2:0');
    // Only the holder releases.
    await releaseLease(db, 'render:1:0', 'h3');
    expect(await claimOneOf(db, slots, 'h3', 35)).toBeNull();
    await releaseLease(db, 'render:1:0', 'h1');
    expect(await claimOneOf(db, slots, 'h3', 35)).toBe('render:1:0');
  });

  it('an expired lease (its process died) is taken over, and renewing keeps it', async () => {
    const db = database.db;
    // Time passes without the wait: the lease's end is moved that far into the past.
    const pass = (seconds: number) => db.execute(sql`UPDATE leases SET expires_at = expires_at - make_interval(secs => ${seconds}) WHERE key = 'render:9:0'`);
    expect(await claimLease(db, 'render:9:0', 'dead', 30)).toBe(true);
    expect(await claimLease(db, 'render:9:0', 'alive', 35)).toBe(false);
    await pass(31);
    expect(await claimLease(db, 'render:9:0', 'alive', 30)).toBe(true);
    // Renewed to 35 s from now, it outlives the 30 s it was claimed for.
    await renewLease(db, 'render:9:0', 'alive', 35);
    await pass(31);
    expect(await claimLease(db, 'render:9:0', 'other', 35)).toBe(false);
    const rows = await db.execute(sql`SELECT holder FROM leases WHERE key = 'render:9:0'`);
    expect(JSON.stringify(rows)).toContain('alive');
  });

  it('concurrent claims of one user never hold more than two slots', async () => {
    const db = database.db;
    const got = await Promise.all(Array.from({ length: 8 }, (_, i) => claimOneOf(db, ['render:3:0', 'render:3:1'], `c${i}`, 35)));
    expect(got.filter(Boolean).sort()).toEqual(['render:3:0', 'render:3:1']);
  });
});

describe('EMF (Inkscape)', () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="700" height="500" viewBox="0 0 700 500"><rect width="700" height="500" fill="#fff"/><path d="M10 10L600 400" stroke="#00f"/><text x="50" y="50">EMF</text></svg>`;
  const emfDirs = () => readdirSync(tmpdir()).filter((d) => d.startsWith('pf-emf-'));

  it('says when Inkscape is missing', () => {
    expect(emfUnavailable('/nonexistent/inkscape')).toMatch(/EMF needs Inkscape/);
  });

  it('converts an SVG to EMF of its size, leaving no temporary files', async () => {
    expect(emfUnavailable(), 'Inkscape is needed for the tests (bash .ci/run installs it)').toBeNull();
    const before = emfDirs();
    const emf = await svgToEmf(svg, Date.now() + 30_000);
    expect(MAGIC.emf(emf)).toBe(true);
    const info = emfInfo(emf);
    expect(info.declaredBytes).toBe(emf.length);
    expect(info.endsWithEof).toBe(true);
    expect(info.frameMm[0]).toBeCloseTo(pxToMm(700), -0.5);
    expect(info.frameMm[1]).toBeCloseTo(pxToMm(500), -0.5);
    expect(emfDirs().filter((d) => !before.includes(d))).toEqual([]);
  });

  it('is killed at its deadline, leaving no temporary files', async () => {
    expect(emfUnavailable(), 'Inkscape is needed for the tests (bash .ci/run installs it)').toBeNull();
    const before = emfDirs();
    await expect(svgToEmf(svg, Date.now() + 20)).rejects.toBeInstanceOf(RenderTimeoutError);
    expect(emfDirs().filter((d) => !before.includes(d))).toEqual([]);
  });

  it('drops references to anything outside the SVG (Inkscape would read them)', () => {
    const out = selfContained(
      `<svg><image xlink:href="file:///etc/passwd"/><image href='http://10.0.0.1/x.png'/><image xlink:href="data:image/png;base64,AAAA"/><use xlink:href="#a"/><rect style="fill: url('#g'); stroke: url(http://x/y)"/></svg>`,
    );
    expect(out).not.toMatch(/passwd|10\.0\.0\.1|http:/);
    expect(out).toContain('data:image/png;base64,AAAA');
    expect(out).toContain('xlink:href="#a"');
    expect(out).toContain("url('#g')");
    // Text is text: only tags are touched.
    const text = '<svg><text x="1">see url(http://x) and href="y"</text></svg>';
    expect(selfContained(text)).toBe(text);
  });
});

describe('renderer exports', () => {
  const renderer = new Renderer();
  afterAll(async () => {
    await renderer.close();
    await closeDecoder();
  });
  const job = (format: ExportJob['format'], fig: unknown = figure({ title: { text: 'Exported' } }), w = 700, h = 500, scale = 1): ExportJob => ({
    figureText: JSON.stringify(fig),
    format,
    width: w,
    height: h,
    outWidth: Math.round(w * scale),
    outHeight: Math.round(h * scale),
  });

  it.each([
    ['png', 'image/png', 1],
    ['jpeg', 'image/jpeg', 1.5],
    ['webp', 'image/webp', 0.5],
    ['svg', 'image/svg+xml', 2],
  ] as const)('%s decodes at width x scale by height x scale', async (format, type, scale) => {
    const out = await renderer.exportImage(0, job(format, undefined, 400, 300, scale), Date.now() + 60_000);
    expect(MAGIC[format](out)).toBe(true);
    expect(await decodeImage(out, type)).toEqual({ width: 400 * scale, height: 300 * scale });
  });

  it('pdf is one vector page of the image size: paths and extractable text, no embedded image', async () => {
    const out = await renderer.exportImage(1, job('pdf', undefined, 600, 400, 1.5), Date.now() + 60_000);
    expect(MAGIC.pdf(out)).toBe(true);
    const info = pdfInfo(out);
    expect(info).toMatchObject({ pages: 1, images: 0, paths: true, text: true });
    // Chromium rounds page sizes up to its 300 dpi grid.
    expect(Math.abs(info.mediaBox[0] - pxToPt(900))).toBeLessThan(1);
    expect(Math.abs(info.mediaBox[1] - pxToPt(600))).toBeLessThan(1);
  });

  it('a geo map exports with its coastlines (the outlines loaded into its page before its time starts)', async () => {
    // Points across the world: the map is fitted to them, so it shows most of the world's coasts.
    const map = { data: [{ type: 'scattergeo', lon: [-120, 0, 120], lat: [-40, 0, 50] }], layout: {} };
    await renderer.prepareExport(1, 2, true);
    const svg = (await renderer.exportImage(1, { ...job('svg', map), mapOutlines: true }, Date.now() + 60_000)).toString('utf8');
    expect(svg).toMatch(/class="layer coastlines"><path d="M[^"]{10000}/);
  });

  it('a figure plotly refuses is a FigureError, and the page keeps working', async () => {
    await expect(renderer.exportImage(0, { ...job('png'), figureText: '{"data": 5' }, Date.now() + 60_000)).rejects.toBeInstanceOf(FigureError);
    expect(MAGIC.png(await renderer.exportImage(0, job('png'), Date.now() + 60_000))).toBe(true);
  });

  it('a hung export stays hung until abandoned; thumbnails and the other pages draw meanwhile, and its page is replaced', async () => {
    await renderer.prepareExport(2);
    const pid = await renderer.browserPid();
    // Held, not raced against a clock: its deadline is far off, and the test releases it.
    const release = new AbortController();
    let hungSettled = false;
    const hung = renderer.exportImage(2, job('png', HANGING), Date.now() + 600_000, release.signal).then(
      () => null,
      (error: unknown) => error,
    );
    void hung.then(() => (hungSettled = true));
    // The hung figure went to its page first (its lane was ready): these draw while it is busy.
    const [thumbs, other] = await Promise.all([renderer.render(JSON.stringify(figure()), {}), renderer.exportImage(0, job('png'), Date.now() + 60_000)]);
    expect(thumbs).toHaveLength(IMAGE_SIZES.length);
    expect(MAGIC.png(other)).toBe(true);
    expect(hungSettled, 'not held up by the hung page: it is still hung').toBe(false);
    release.abort();
    expect(await hung).toBeInstanceOf(RenderTimeoutError);
    // Same browser; the lane draws again.
    expect(await renderer.browserPid()).toBe(pid);
    expect(MAGIC.png(await renderer.exportImage(2, job('png'), Date.now() + 60_000))).toBe(true);
    // And a deadline abandons it as the release did (the figure never finishes: no race).
    await expect(renderer.exportImage(2, job('png', HANGING), Date.now() + 1000)).rejects.toBeInstanceOf(RenderTimeoutError);
    expect(await renderer.browserPid()).toBe(pid);
    expect(MAGIC.png(await renderer.exportImage(2, job('png'), Date.now() + 60_000))).toBe(true);
    // (A bound on the test's life, not an assertion: a starved machine draws slowly beside a hung page.)
  }, 180_000);

  it("in a browser that has lost WebGL, a 3D export is a lost browser (a 503 at the API), not the figure's fault", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pf-nowebgl-'));
    const chromium = path.join(dir, 'chromium');
    writeFileSync(chromium, `#!/bin/sh\nexec ${chromiumPath()} --disable-webgl "$@"\n`, { mode: 0o755 });
    const blind = new Renderer({ executablePath: chromium });
    try {
      expect(MAGIC.svg(await blind.exportImage(0, job('svg'), Date.now() + 60_000))).toBe(true);
      const scene = { data: [{ type: 'scatter3d', x: [1, 2, 3], y: [3, 1, 2], z: [2, 3, 1] }], layout: {} };
      await expect(blind.exportImage(0, job('png', scene), Date.now() + 60_000)).rejects.toMatchObject({ name: 'BrowserLostError' });
    } finally {
      await blind.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
