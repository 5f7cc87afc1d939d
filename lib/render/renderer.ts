// Draws figures with the pages' own plotly.js in headless Chromium (playwright-core driving Debian's
// /usr/bin/chromium). One browser per process, driven over a pipe: no port, which under Node's
// cluster every app process would share (one process's connections reaching another's browser) and
// any local user could connect to. One prepared page (plotly.js, and the map outlines once a map
// needs them) draws thumbnails in turn, and image exports draw on export pages of their own beside
// it (lanes), so neither waits for the other. Pages open when first needed, one at a time: loading
// plotly.js into a page costs seconds of CPU, and several at once on a cold start starve each other. A thumbnail that hangs or crashes is abandoned after a
// timeout and the browser replaced on the next render; an export that does loses only its lane.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { readdir, readFile } from 'node:fs/promises';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CARD_SCALE, CARD_SIZE, cardFigureScript } from '@/lib/shared/figures/card-figure';
import { DEFAULT_SIZE, THUMB_BOXES, type RenderedImage } from '@/lib/core/images/images';
import { geoAssetsScript, plotlyBrowserScript } from './plotly-assets';
import { drawGuardScript } from '@/lib/shared/figures/draw-guard';

const BACKGROUND_PRIORITY = 10;
/** Image sides in pixels, smallest and largest (a figure's own size is clamped to them). */
export const MIN_SIDE = 50;
export const MAX_SIDE = 4096;

export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';
}

export interface RendererOptions {
  executablePath?: string;
  timeoutMs?: number;
  /** Replace the browser once its memory (PSS) passes this many bytes; checked every few renders. */
  maxMemoryBytes?: number;
}

// Chromium's memory grows with every figure drawn (plotly's caches, WebGL contexts): a fresh
// browser costs a few seconds, so it is replaced only when it has grown past the cap. The cap is
// for the browser with its thumbnail page; each export page open adds its own allowance (a page
// with plotly.js loaded is ~180 MiB before drawing anything, its print page a little more).
const MEMORY_CHECK_EVERY = 10;
const EXPORT_PAGE_BYTES = 384 * 2 ** 20;

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why images cannot be rendered on this machine, or null when they can. */
export function rendererUnavailable(executablePath = chromiumPath()): string | null {
  return existsSync(/*turbopackIgnore: true*/ executablePath) ? null : `no Chromium at ${executablePath} (install Debian's chromium or set CHROMIUM_PATH)`;
}

// Plain JavaScript run in the pages (a string, so no compiler helper leaks into it).
// __renderFigure (thumbnails): toImage draws the figure once in an off-screen element; thumbnails
// are scaled from that image in a canvas, letterboxed with the colour of the chart's own corner; the
// card image is the figure drawn again in its card layout (lib/shared/figures/card-figure.ts).
// __exportFigure (exports): the figure as SVG at its drawing size with the output size set on the
// root (plotly's own scaling does the same, but leaves fractional sizes); rasters are that SVG
// drawn into a canvas of exactly the output size. It answers {error} for a figure plotly refuses,
// so a thrown error always means the page itself failed.
const DRAW_GUARD_SCRIPT = `${drawGuardScript()}\n${cardFigureScript()}`;

const PAGE_SCRIPT = `
window.__renderFigure = async function (text, w, h, boxes, card) {
  var fig = await window.__tameFigure(Plotly, JSON.parse(text), 'cut');
  var layout = Object.assign({}, fig.layout, { width: w, height: h, autosize: false });
  var url = await Plotly.toImage(
    { data: fig.data || [], layout: layout, frames: fig.frames, config: { displayModeBar: false } },
    { format: 'png', width: w, height: h }
  );
  var img = new Image();
  img.src = url;
  await img.decode();
  var probe = document.createElement('canvas').getContext('2d');
  probe.drawImage(img, 0, 0, 1, 1, 0, 0, 1, 1);
  var px = probe.getImageData(0, 0, 1, 1).data;
  var out = [url];
  for (var i = 0; i < boxes.length; i++) {
    var bw = boxes[i][0], bh = boxes[i][1];
    var canvas = document.createElement('canvas');
    canvas.width = bw;
    canvas.height = bh;
    var ctx = canvas.getContext('2d');
    ctx.fillStyle = 'rgba(' + px[0] + ',' + px[1] + ',' + px[2] + ',' + px[3] / 255 + ')';
    ctx.fillRect(0, 0, bw, bh);
    var s = Math.min(bw / w, bh / h), dw = Math.round(w * s), dh = Math.round(h * s);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, Math.round((bw - dw) / 2), Math.round((bh - dh) / 2), dw, dh);
    out.push(canvas.toDataURL('image/png'));
  }
  var shown = window.__cardFigure(fig, card[0], card[1]);
  out.push(await Plotly.toImage(
    { data: shown.data, layout: shown.layout, config: { displayModeBar: false } },
    { format: 'png', width: card[0], height: card[1], scale: card[2] }
  ));
  return out.map(function (u) { return u.slice(u.indexOf(',') + 1); });
};
window.__exportFigure = async function (text, w, h, outW, outH, format) {
  var svg;
  try {
    var fig = await window.__tameFigure(Plotly, JSON.parse(text), 'refuse');
    var layout = Object.assign({}, fig.layout, { width: w, height: h, autosize: false });
    svg = await Plotly.toImage(
      { data: fig.data || [], layout: layout, config: { displayModeBar: false } },
      { format: 'svg', width: w, height: h, imageDataOnly: true }
    );
  } catch (e) {
    return { error: String((e && e.message) || e).slice(0, 500) };
  }
  var root = /^<svg[^>]*>/.exec(svg);
  if (!root || !/ width="[^"]*"/.test(root[0]) || !/ height="[^"]*"/.test(root[0])) throw new Error('unexpected SVG from plotly');
  var sized = root[0].replace(/ width="[^"]*"/, ' width="' + outW + '"').replace(/ height="[^"]*"/, ' height="' + outH + '"');
  if (!/ viewBox=/.test(sized)) sized = sized.replace(/^<svg/, '<svg viewBox="0 0 ' + w + ' ' + h + '"');
  svg = sized + svg.slice(root[0].length);
  if (format === 'svg') return { data: svg };
  var url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    var img = new Image();
    img.src = url;
    await img.decode();
    var canvas = document.createElement('canvas');
    canvas.width = outW;
    canvas.height = outH;
    canvas.getContext('2d').drawImage(img, 0, 0, outW, outH);
    var data = canvas.toDataURL('image/' + format);
    if (data.indexOf('data:image/' + format + ';') !== 0) throw new Error('this browser cannot encode ' + format);
    return { data: data.slice(data.indexOf(',') + 1) };
  } finally {
    URL.revokeObjectURL(url);
  }
};
`;

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  // WebGL (3D, scattergl, parcoords, splom) draws on SwiftShader, Chromium's software renderer.
  '--enable-unsafe-swiftshader',
  // The machine has no internet: without these, Chromium keeps trying to reach Google's hosts.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** The default image's size: the figure's own width and height, else 700x500. */
export function figureSize(layout: unknown): [number, number] {
  const l = (layout && typeof layout === 'object' ? layout : {}) as Record<string, unknown>;
  const side = (v: unknown, fallback: number) =>
    typeof v === 'number' && Number.isFinite(v) ? Math.min(MAX_SIDE, Math.max(MIN_SIDE, Math.round(v))) : fallback;
  return [side(l.width, DEFAULT_SIZE[0]), side(l.height, DEFAULT_SIZE[1])];
}

/** An export page: a browser context of its own (so a renderer process of its own: a hung one is
 *  killed alone), and, once a PDF is asked for, a page with JavaScript off to print the SVG from. */
interface Lane {
  context: BrowserContext;
  page: Page;
  printer: Promise<{ context: BrowserContext; page: Page }> | null;
}

interface Session {
  browser: Browser;
  /** The browser's process, and the switch that marks it as this session's (see start). */
  pid: number;
  marker: string;
  /** The thumbnails' page, opened on first use. */
  thumbs: Promise<Page> | null;
  /** Export pages by lane number, opened on first use. */
  lanes: Map<number, Promise<Lane>>;
  /** Renders in flight on this browser: one retired for its memory is killed once they are done. */
  active: number;
  retired: boolean;
}

export interface ExportSize {
  /** The size the figure is drawn at. */
  width: number;
  height: number;
  /** The output's size: the drawing scaled. */
  outWidth: number;
  outHeight: number;
}

/** What an export draws: the figure's text ({data, layout}) at its size. */
export interface ExportJob extends ExportSize {
  figureText: string;
  format: 'png' | 'jpeg' | 'webp' | 'svg' | 'pdf';
  /** The figure draws a geo map (lib/shared/figures/plotly-bundles.ts needsMapOutlines). */
  mapOutlines?: boolean;
}

export interface RenderOptions {
  /** Abandon the drawing after this long (the browser's start-up is not counted). */
  timeoutMs?: number;
  /** The figure draws a geo map (lib/shared/figures/plotly-bundles.ts needsMapOutlines). */
  mapOutlines?: boolean;
}

/** plotly.js refused the figure, or the page drawing it died: the figure's doing. */
export class FigureError extends Error {
  override name = 'FigureError';
}
/** The browser went away under an export (another render crashed or hung it) or could not start. */
export class BrowserLostError extends Error {
  override name = 'BrowserLostError';
}

/**
 * Whether `error` is the renderer's error of that name. By name, not instanceof: the app's bundles
 * (instrumentation, routes) may each hold a copy of this module, and the process's one renderer
 * (appRenderer) throws the classes of whichever copy made it.
 */
export const isRenderError = (error: unknown, name: 'RenderTimeoutError' | 'FigureError' | 'BrowserLostError'): boolean =>
  error instanceof Error && error.name === name;

const DROP_WAIT_MS = 5000;
const PREPARE_WAIT_MS = 60_000;

/** `promise`'s outcome, or `fallback` after `ms`. */
const within = <T, F>(ms: number, promise: Promise<T>, fallback: F): Promise<T | F> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]).finally(() => clearTimeout(timer));
};

/** A page in a context of its own with plotly.js loaded and nothing reachable on the network. */
async function plotPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
  try {
    // Figures arrive with their data inlined: nothing is fetched, so nothing can leak or hang on the network.
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    await page.addScriptTag({ content: await plotlyBrowserScript() });
    await page.addScriptTag({ content: `${DRAW_GUARD_SCRIPT}\n${PAGE_SCRIPT}` });
    return { context, page };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

// The map outlines are as large as plotly.js and take as long to load: a page loads them before
// its first geo map, not before every figure.
const outlined = new WeakMap<Page, Promise<void>>();

/** Loads plotly's map outlines into `page` (once). */
function withMapOutlines(page: Page): Promise<void> {
  let loading = outlined.get(page);
  if (!loading) {
    const started = geoAssetsScript().then((content) => page.addScriptTag({ content }).then(() => {}));
    started.catch(() => {
      if (outlined.get(page) === started) outlined.delete(page);
    });
    outlined.set(page, started);
    loading = started;
  }
  return loading;
}

/** Whether `page` can make a WebGL context (given back at once), within a few seconds. */
function webglWorks(page: Page): Promise<boolean> {
  const probe = page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return gl !== null;
  });
  return within(DROP_WAIT_MS, probe, false).catch(() => false);
}

/** `promise`, or BrowserLostError when it fails or takes over PREPARE_WAIT_MS (the browser or a page could not start). */
async function started<T>(promise: Promise<T>): Promise<T> {
  const done = await within(
    PREPARE_WAIT_MS,
    promise.then((value) => ({ value })),
    null,
  ).catch((error: Error) => {
    throw new BrowserLostError(`the browser could not start: ${error.message}`);
  });
  if (!done) throw new BrowserLostError(`the browser took over ${PREPARE_WAIT_MS} ms to start`);
  return done.value;
}

export class Renderer {
  private readonly executablePath: string;
  private readonly timeoutMs: number;
  private readonly maxMemoryBytes: number;
  private rendered = 0;
  private session: Promise<Session> | null = null;
  // Thumbnails run one at a time on their page; exports run on their own pages beside them.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: RendererOptions = {}) {
    this.executablePath = opts.executablePath ?? chromiumPath();
    this.timeoutMs = opts.timeoutMs ?? Number(process.env.RENDER_TIMEOUT_MS ?? 20_000);
    this.maxMemoryBytes = opts.maxMemoryBytes ?? Number(process.env.RENDERER_MAX_MB ?? 1024) * 2 ** 20;
  }

  /** Starts the browser and its thumbnails' page ahead of the first render (a failure shows at that render). */
  async warmUp(): Promise<void> {
    await this.start()
      .then((session) => this.thumbs(session))
      .catch(() => {});
  }

  /**
   * The figure's PNGs: default (its own size, else 700x500), block-thumb, list-thumb and card.
   * The browser's start-up (and loading the map outlines) comes first and is not counted against
   * the drawing's time; BrowserLostError when the browser cannot start.
   */
  render(figureText: string, layout: unknown, opts: RenderOptions = {}): Promise<RenderedImage[]> {
    const run = this.queue.then(() => this.renderNow(figureText, layout, opts.timeoutMs ?? this.timeoutMs, !!opts.mapOutlines));
    this.queue = run.catch(() => {});
    return run;
  }

  private async renderNow(figureText: string, layout: unknown, timeoutMs: number, mapOutlines: boolean): Promise<RenderedImage[]> {
    const [w, h] = figureSize(layout);
    const boxes = [THUMB_BOXES['block-thumb'], THUMB_BOXES['list-thumb']];
    await started(
      this.start().then(async (session) => {
        const page = await this.thumbs(session);
        if (mapOutlines) await withMapOutlines(page);
      }),
    );
    const pngs = await this.run(
      timeoutMs,
      async (session) => {
        // A browser replaced since (it crashed) opens its page on the render's time.
        const page = await this.thumbs(session);
        if (mapOutlines) await withMapOutlines(page);
        return page.evaluate(
          ([text, width, height, b, c]) =>
            (window as unknown as { __renderFigure(...a: unknown[]): Promise<string[]> }).__renderFigure(text, width, height, b, c),
          [figureText, w, h, boxes, [...CARD_SIZE, CARD_SCALE]] as const,
        );
      },
      async (error, session) => {
        // A hung page, a crashed tab or a dead browser: start afresh next time. A figure plotly
        // refuses leaves the page as it was, unless the browser has lost WebGL (not the figure's doing).
        if (error instanceof BrowserLostError) throw error;
        if (error instanceof RenderTimeoutError || !session?.browser.isConnected()) await this.discard(session);
        else await this.assertWebgl(session, session.thumbs, error);
        throw error;
      },
    );
    return [
      { size: 'default', png: Buffer.from(pngs[0], 'base64'), width: w, height: h },
      { size: 'block-thumb', png: Buffer.from(pngs[1], 'base64'), width: boxes[0][0], height: boxes[0][1] },
      { size: 'list-thumb', png: Buffer.from(pngs[2], 'base64'), width: boxes[1][0], height: boxes[1][1] },
      { size: 'card', png: Buffer.from(pngs[3], 'base64'), width: CARD_SIZE[0] * CARD_SCALE, height: CARD_SIZE[1] * CARD_SCALE },
    ];
  }

  /**
   * Opens the browser and export page `lane` if they are not open yet, so that their start-up (seconds
   * on a busy machine) is not counted against an export's time; BrowserLostError when they cannot be.
   * Then the other export pages (0..pages-1) open one after another in the background, so that they
   * are ready before they are needed (when two exports hang, a third must not pay a page's start-up
   * on a starved CPU) without slowing this one's. A figure with a geo map has the map outlines
   * loaded into its page here too.
   */
  async prepareExport(lane: number, pages = lane + 1, mapOutlines = false): Promise<void> {
    const session = await started(
      this.start().then(async (session) => {
        const { page } = await this.lane(session, lane);
        if (mapOutlines) await withMapOutlines(page);
        return session;
      }),
    );
    void (async () => {
      for (let i = 0; i < pages && session.browser.isConnected() && !session.retired; i++) await this.lane(session, i).catch(() => {});
    })();
  }

  /**
   * Draws an export on export page `lane` (0, 1, ...; the caller gives each export in flight a lane
   * of its own), never waiting behind thumbnails. At `deadline` (ms since the epoch) the export is
   * abandoned and its lane's pages killed: RenderTimeoutError; `abandon` brings that moment forward
   * (the tests hold a hung export until they release it, rather than racing a clock). A browser lost
   * meanwhile (another render crashed it, or its memory cap) is replaced and the export tried once
   * more if time allows.
   */
  async exportImage(lane: number, job: ExportJob, deadline: number, abandon?: AbortSignal): Promise<Buffer> {
    try {
      return await this.exportOnce(lane, job, deadline, abandon);
    } catch (error) {
      if (!(error instanceof BrowserLostError) || deadline - Date.now() < 1000 || abandon?.aborted) throw error;
      return this.exportOnce(lane, job, deadline, abandon);
    }
  }

  private exportOnce(lane: number, job: ExportJob, deadline: number, abandon?: AbortSignal): Promise<Buffer> {
    return this.run(
      deadline - Date.now(),
      async (session) => {
        const { page } = await this.lane(session, lane);
        if (job.mapOutlines) await withMapOutlines(page);
        const drawn = await page.evaluate(
          ([text, w, h, ow, oh, format]) =>
            (window as unknown as { __exportFigure(...a: unknown[]): Promise<{ data: string } | { error: string }> }).__exportFigure(
              text,
              w,
              h,
              ow,
              oh,
              format,
            ),
          [job.figureText, job.width, job.height, job.outWidth, job.outHeight, job.format === 'pdf' ? 'svg' : job.format] as const,
        );
        if ('error' in drawn) throw new FigureError(drawn.error);
        if (job.format === 'svg') return Buffer.from(drawn.data, 'utf8');
        if (job.format === 'pdf') return this.print(session, lane, drawn.data, job.outWidth, job.outHeight);
        return Buffer.from(drawn.data, 'base64');
      },
      async (error, session) => {
        if (error instanceof BrowserLostError) throw error;
        if (error instanceof FigureError) {
          if (session) await this.assertWebgl(session, session.lanes.get(lane)?.then((l) => l.page) ?? null, error);
          throw error;
        }
        if (!session?.browser.isConnected()) throw new BrowserLostError(`the browser went away: ${(error as Error).message}`);
        // Timed out or died: the lane's pages go (a hung one with them), the browser stays.
        await this.dropLane(session, lane);
        if (error instanceof RenderTimeoutError) throw error;
        throw new FigureError('the renderer failed while drawing the figure');
      },
      abandon,
    );
  }

  /** The SVG as a vector PDF of its own size: Chromium prints a page holding it (JavaScript off). */
  private async print(session: Session, lane: number, svg: string, width: number, height: number): Promise<Buffer> {
    const l = await this.lane(session, lane);
    l.printer ??= (async () => {
      const context = await session.browser.newContext({ javaScriptEnabled: false });
      await context.route('**/*', (route) => route.abort());
      return { context, page: await context.newPage() };
    })();
    const { page } = await l.printer;
    await page.setContent(
      `<!doctype html><html><head><meta charset="utf-8"><title>Plot</title><style>@page{size:${width}px ${height}px;margin:0}html,body{margin:0;padding:0}svg{display:block}</style></head><body>${svg}</body></html>`,
    );
    return page.pdf({ width: `${width}px`, height: `${height}px`, printBackground: true, pageRanges: '1' });
  }

  /**
   * Runs `work` on the browser (launched first if needed), abandoned after `timeoutMs` (or when
   * `abandon` aborts, as if that time had come); `recover` decides what a failure costs and what to
   * throw. Counts the work as in flight on that browser.
   */
  private async run<T>(
    timeoutMs: number,
    work: (session: Session) => Promise<T>,
    recover: (error: unknown, session: Session | null) => Promise<never>,
    abandon?: AbortSignal,
  ): Promise<T> {
    const held: { session: Session | null; settled: boolean } = { session: null, settled: false };
    let timer: NodeJS.Timeout | undefined;
    let expire = () => {};
    const timeout = new Promise<never>((_, reject) => {
      expire = () => reject(new RenderTimeoutError(`render took over ${timeoutMs} ms`));
      timer = setTimeout(expire, Math.max(0, timeoutMs));
    });
    if (abandon?.aborted) expire();
    abandon?.addEventListener('abort', expire, { once: true });
    try {
      const result = await Promise.race([
        this.start().then((session) => {
          if (held.settled) throw new RenderTimeoutError(`render took over ${timeoutMs} ms`);
          held.session = session;
          session.active++;
          return work(session);
        }),
        timeout,
      ]);
      if (++this.rendered % MEMORY_CHECK_EVERY === 0 && (await this.memoryBytes()) > this.maxMemoryBytes + held.session!.lanes.size * EXPORT_PAGE_BYTES) {
        await this.retire();
      }
      return result;
    } catch (error) {
      return await recover(error, held.session);
    } finally {
      held.settled = true;
      clearTimeout(timer);
      abandon?.removeEventListener('abort', expire);
      const session = held.session;
      if (session && --session.active === 0 && session.retired) void killBrowser(session);
    }
  }

  /**
   * After a figure failed on `page`: BrowserLostError (and a new browser next time) when the page can
   * no longer make a WebGL context. Chromium turns WebGL off for the whole browser once its GPU
   * process has crashed a few times (on a starved machine its watchdog does that), and from then on
   * every 3D or WebGL figure fails as if it were the figure's fault.
   */
  private async assertWebgl(session: Session, page: Promise<Page> | null, error: unknown): Promise<void> {
    const opened = page && (await page.catch(() => null));
    if (!opened || (await webglWorks(opened))) return;
    await this.discard(session);
    throw new BrowserLostError(`the browser lost WebGL: ${(error as Error).message}`);
  }

  /**
   * A plotly page in `session`'s browser. One that does not open within PREPARE_WAIT_MS means a
   * stuck browser (seconds are usual even on a busy machine): it is replaced, rather than leaving a
   * page that every later render would wait for; BrowserLostError.
   */
  private async openPage(session: Session): Promise<{ context: BrowserContext; page: Page }> {
    const opening = plotPage(session.browser);
    const opened = await within(PREPARE_WAIT_MS, opening, null);
    if (opened) return opened;
    void opening.then(({ context }) => context.close()).catch(() => {});
    await this.discard(session);
    throw new BrowserLostError(`the browser took over ${PREPARE_WAIT_MS} ms to open a page`);
  }

  /** The browser's thumbnails' page, opened on first use; its crash replaces the browser. */
  private thumbs(session: Session): Promise<Page> {
    if (!session.thumbs) {
      const opening = this.openPage(session).then(({ page }) => {
        page.on('crash', async () => {
          if ((await this.session?.catch(() => null)) === session) await this.reset();
        });
        return page;
      });
      session.thumbs = opening;
      opening.catch(() => {
        if (session.thumbs === opening) session.thumbs = null;
      });
    }
    return session.thumbs;
  }

  /** The export page `i` of the browser, opened on first use. */
  private lane(session: Session, i: number): Promise<Lane> {
    let lane = session.lanes.get(i);
    if (!lane) {
      const opening: Promise<Lane> = this.openPage(session).then(({ context, page }) => ({ context, page, printer: null }));
      session.lanes.set(i, opening);
      opening.catch(() => {
        if (session.lanes.get(i) === opening) session.lanes.delete(i);
      });
      lane = opening;
    }
    return lane;
  }

  /** Closes an export page's contexts (their processes end, hung or not); if even that hangs, the browser goes. */
  private async dropLane(session: Session, i: number): Promise<void> {
    const opening = session.lanes.get(i);
    session.lanes.delete(i);
    if (!opening) return;
    const closed = opening.then(async (lane) => {
      await Promise.all([lane.context.close(), lane.printer?.then((p) => p.context.close())]);
      return true;
    });
    if (
      !(await within(
        DROP_WAIT_MS,
        closed.catch(() => true),
        false,
      ))
    )
      await this.discard(session);
    // Open it again now, so the next export finds it ready.
    else if (session.browser.isConnected() && !session.retired) void this.lane(session, i).catch(() => {});
  }

  /** The browser, launched on first use and after a reset (its pages open when first needed). */
  private start(): Promise<Session> {
    if (this.session) return this.session;
    const session: Promise<Session> = (async () => {
      // Playwright does not tell a launched browser's process: a switch Chromium ignores marks it, so
      // that it can be found among this process's children, measured and killed.
      const marker = `--plot-files-renderer=${randomUUID()}`;
      const browser = await chromium.launch({ executablePath: this.executablePath, args: [...LAUNCH_ARGS, marker], timeout: 30_000 });
      let pid: number | undefined;
      try {
        pid = await childWithArg(marker);
        if (!pid) throw new Error(`the browser's process (${this.executablePath}) was not found`);
        browser.on('disconnected', () => {
          if (this.session === session) this.session = null;
        });
        // Rendering is background work: it yields the CPU to serving requests.
        for (const p of await processTree(pid)) {
          try {
            os.setPriority(p, BACKGROUND_PRIORITY);
          } catch {
            // exited meanwhile
          }
        }
        return { browser, pid, marker, thumbs: null, lanes: new Map(), active: 0, retired: false };
      } catch (error) {
        if (pid) await killBrowser({ browser, pid, marker });
        else await within(DROP_WAIT_MS, browser.close(), null).catch(() => {});
        throw error;
      }
    })();
    this.session = session;
    session.catch(() => {
      if (this.session === session) this.session = null;
    });
    return session;
  }

  /** Kills the browser (it may be hung, so no polite close); the next render starts a new one. */
  async reset(): Promise<void> {
    const session = this.session;
    this.session = null;
    const current = await session?.catch(() => null);
    if (current) await killBrowser(current);
  }

  /** Kills `session`'s browser (the current one, or one already retired); null: the current one. */
  private async discard(session: Session | null): Promise<void> {
    const current = await this.session?.catch(() => null);
    if (!session || session === current) await this.reset();
    else await killBrowser(session);
  }

  /** Lets the current browser go: the next render starts a new one; this one is killed once its renders are done. */
  private async retire(): Promise<void> {
    const current = await this.session?.catch(() => null);
    if (!current) return;
    this.session = null;
    current.retired = true;
    if (current.active === 0) await killBrowser(current);
  }

  /** Closes the browser politely, or kills it when that hangs. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = null;
    const current = await session?.catch(() => null);
    if (
      current &&
      !(await within(
        DROP_WAIT_MS,
        current.browser.close().then(() => true),
        false,
      ).catch(() => false))
    )
      await killBrowser(current);
  }

  /** Memory of the browser and all its child processes (PSS), in bytes (0 when not running). */
  async memoryBytes(): Promise<number> {
    const pid = await this.browserPid();
    return pid ? processTreeMemory(pid) : 0;
  }

  /** The browser's process id (for measuring it, and for tests that crash it on purpose). */
  async browserPid(): Promise<number | undefined> {
    return (await this.session?.catch(() => null))?.pid;
  }
}

declare global {
  // This process's renderer: its image worker's thumbnails and its exports share one browser.
  var __plotFilesRenderer: Renderer | undefined;
}

/** The process's shared renderer (the in-app worker and image exports draw in its browser). */
export function appRenderer(): Renderer {
  globalThis.__plotFilesRenderer ??= new Renderer();
  return globalThis.__plotFilesRenderer;
}

/** A process's parent, from /proc (undefined once it has exited). */
async function parentOf(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1];
  return ppid === undefined ? undefined : Number(ppid);
}

/** A process's arguments, from /proc (none once it has exited). */
const argsOf = async (pid: number): Promise<string[]> => (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');

/** The process id of this process's child started with `arg` among its arguments. */
async function childWithArg(arg: string): Promise<number | undefined> {
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    if ((await argsOf(pid)).includes(arg) && (await parentOf(pid)) === process.pid) return pid;
  }
  return undefined;
}

/**
 * Kills a browser and every process it started (Playwright starts it as a process group of its own),
 * unless it has exited already (its pid may be another process's by then), and waits until Playwright
 * has seen it go.
 */
async function killBrowser({ browser, pid, marker }: Pick<Session, 'browser' | 'pid' | 'marker'>): Promise<void> {
  if (!(await argsOf(pid)).includes(marker)) return;
  const gone = new Promise<void>((resolve) => (browser.isConnected() ? browser.once('disconnected', () => resolve()) : resolve()));
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // exited meanwhile
  }
  await within(DROP_WAIT_MS, gone, null);
}

/** A process and all its descendants (from /proc). */
async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = await parentOf(pid);
    if (parent !== undefined) parents.set(pid, parent);
  }
  const inTree = (pid: number): boolean => pid === root || (pid > 1 && parents.has(pid) && inTree(parents.get(pid)!));
  return [...parents.keys()].filter(inTree);
}

/** Memory (PSS: pages shared between Chromium's processes counted once) of a process tree, in bytes. */
export async function processTreeMemory(root: number): Promise<number> {
  let total = 0;
  for (const pid of await processTree(root)) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
  }
  return total;
}
