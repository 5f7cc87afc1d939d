// Draws figures with the pages' own plotly.js in headless Chromium (playwright-core driving Debian's
// /usr/bin/chromium). One browser per process, driven over a pipe: no port, which under Node's
// cluster every app process would share (one process's connections reaching another's browser) and
// any local user could connect to. One prepared page (plotly.js, and the map outlines once a map
// needs them) draws thumbnails in turn, and image exports draw on export pages of their own beside
// it (lanes), so neither waits for the other. Pages open when first needed, one at a time: loading
// plotly.js into a page costs seconds of CPU, and several at once on a cold start starve each other. A thumbnail that hangs or crashes is abandoned after a
// timeout and the browser replaced on the next render; an export that does loses only its lane.
import 'server-only';
import type { BrowserContext, Page } from 'playwright-core';
import { THUMB_BOXES, type RenderedImage } from '@/lib/core/images/images';
import { CARD_SCALE, CARD_SIZE } from '@/lib/shared/figures/card-figure';
import { chromiumPath, DROP_WAIT_MS, killBrowser, launchBrowser, type LaunchedBrowser, PREPARE_WAIT_MS, processTreeMemory, started, within } from './chromium';
import { drawExport, drawThumbnails, plotPage, printerPage, printPdf, webglWorks, withMapOutlines } from './plot-pages';
import { BrowserLostError, type ExportJob, FigureError, figureSize, RenderTimeoutError } from './render-jobs';

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

/** An export page: a browser context of its own (so a renderer process of its own: a hung one is
 *  killed alone), and, once a PDF is asked for, a page with JavaScript off to print the SVG from. */
interface Lane {
  context: BrowserContext;
  page: Page;
  printer: Promise<{ context: BrowserContext; page: Page }> | null;
}

interface Session extends LaunchedBrowser {
  /** The thumbnails' pages by slot, opened on first use. */
  thumbs: Map<number, Promise<Page>>;
  /** Export pages by lane number, opened on first use. */
  lanes: Map<number, Promise<Lane>>;
  /** Renders in flight on this browser: one retired for its memory is killed once they are done. */
  active: number;
  retired: boolean;
}

export interface RenderOptions {
  /** Abandon the drawing after this long (the browser's start-up is not counted). */
  timeoutMs?: number;
  /** A multiple of the usual time (a retry after running out of it). */
  patience?: number;
  /** The figure draws a geo map (lib/shared/figures/plotly-bundles.ts needsMapOutlines). */
  mapOutlines?: boolean;
  /** Thumbnail pages this render may be given (a worker rendering several at once asks for that many). */
  slots?: number;
}

export class Renderer {
  private readonly executablePath: string;
  private readonly timeoutMs: number;
  private readonly maxMemoryBytes: number;
  private rendered = 0;
  private session: Promise<Session> | null = null;
  // Thumbnails run one at a time on each slot's page; exports run on their own pages beside them.
  private readonly slots: { queue: Promise<unknown>; waiting: number }[] = [];

  constructor(opts: RendererOptions = {}) {
    this.executablePath = opts.executablePath ?? chromiumPath();
    this.timeoutMs = opts.timeoutMs ?? Number(process.env.RENDER_TIMEOUT_MS ?? 20_000);
    this.maxMemoryBytes = opts.maxMemoryBytes ?? Number(process.env.RENDERER_MAX_MB ?? 1024) * 2 ** 20;
  }

  /** Starts the browser and its thumbnails' page ahead of the first render (a failure shows at that render). */
  async warmUp(): Promise<void> {
    await this.start()
      .then((session) => this.thumbs(session, 0))
      .catch(() => {});
  }

  /**
   * The figure's PNGs: default (its own size, else 700x500), block-thumb, list-thumb and card.
   * The browser's start-up (and loading the map outlines) comes first and is not counted against
   * the drawing's time; BrowserLostError when the browser cannot start.
   */
  render(figureText: string, layout: unknown, opts: RenderOptions = {}): Promise<RenderedImage[]> {
    // On the slot of the fewest renders waiting (`slot` opens at most that many pages: renders in parallel).
    const count = Math.max(1, opts.slots ?? 1);
    while (this.slots.length < count) this.slots.push({ queue: Promise.resolve(), waiting: 0 });
    const i = this.slots.slice(0, count).reduce((best, s, k) => (s.waiting < this.slots[best].waiting ? k : best), 0);
    const slot = this.slots[i];
    slot.waiting++;
    const run = slot.queue.then(() => this.renderNow(figureText, layout, (opts.timeoutMs ?? this.timeoutMs) * (opts.patience ?? 1), !!opts.mapOutlines, i));
    slot.queue = run.catch(() => {}).finally(() => slot.waiting--);
    return run;
  }

  private async renderNow(figureText: string, layout: unknown, timeoutMs: number, mapOutlines: boolean, slot: number): Promise<RenderedImage[]> {
    const [w, h] = figureSize(layout);
    const boxes = [THUMB_BOXES['block-thumb'], THUMB_BOXES['list-thumb']];
    await started(
      this.start().then(async (session) => {
        const page = await this.thumbs(session, slot);
        if (mapOutlines) await withMapOutlines(page);
      }),
    );
    const pngs = await this.run(
      timeoutMs,
      async (session) => {
        // A browser replaced since (it crashed) opens its page on the render's time.
        const page = await this.thumbs(session, slot);
        if (mapOutlines) await withMapOutlines(page);
        return drawThumbnails(page, figureText, w, h, boxes);
      },
      async (error, session) => {
        // A hung page, a crashed tab or a dead browser: start afresh next time. A figure plotly
        // refuses leaves the page as it was, unless the browser has lost WebGL (not the figure's doing).
        if (error instanceof BrowserLostError) throw error;
        if (error instanceof RenderTimeoutError) await this.discard(session);
        else if (!session?.browser.isConnected()) {
          // Gone under this render (it crashed, or a render beside it timed out and took it along).
          await this.discard(session);
          throw new BrowserLostError(`the browser went away: ${(error as Error).message}`);
        } else await this.assertWebgl(session, session.thumbs.get(slot) ?? null, error);
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
        const drawn = await drawExport(page, job);
        if ('error' in drawn) throw new FigureError(drawn.error);
        if (job.format === 'svg') return Buffer.from(drawn.data, 'utf8');
        if (job.format === 'pdf') {
          const l = await this.lane(session, lane);
          l.printer ??= printerPage(session.browser);
          return printPdf((await l.printer).page, drawn.data, job.outWidth, job.outHeight);
        }
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
      if (
        ++this.rendered % MEMORY_CHECK_EVERY === 0 &&
        (await this.memoryBytes()) > this.maxMemoryBytes + (held.session!.lanes.size + Math.max(0, held.session!.thumbs.size - 1)) * EXPORT_PAGE_BYTES
      ) {
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
  private thumbs(session: Session, slot: number): Promise<Page> {
    let page = session.thumbs.get(slot);
    if (!page) {
      const opening = this.openPage(session).then(({ page }) => {
        page.on('crash', async () => {
          if ((await this.session?.catch(() => null)) === session) await this.reset();
        });
        return page;
      });
      session.thumbs.set(slot, opening);
      opening.catch(() => {
        if (session.thumbs.get(slot) === opening) session.thumbs.delete(slot);
      });
      page = opening;
    }
    return page;
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
    const session: Promise<Session> = launchBrowser(this.executablePath, () => {
      if (this.session === session) this.session = null;
    }).then((launched) => ({ ...launched, thumbs: new Map(), lanes: new Map(), active: 0, retired: false }));
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
