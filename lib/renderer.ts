// Draws figures to PNG with the pages' own plotly.js in headless Chromium (playwright-core driving
// Debian's /usr/bin/chromium). One browser and one prepared page (plotly.js and the map outlines
// loaded once) serve every render; a render that hangs or crashes is abandoned after a timeout and
// the browser replaced on the next render.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { readdir, readFile } from 'node:fs/promises';
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core';
import { DEFAULT_SIZE, THUMB_BOXES, type RenderedImage } from './images';
import { geoAssetsScript, plotlyBrowserScript } from './plotly-assets';
import { safeTicks } from './tick-guard';

const BACKGROUND_PRIORITY = 10;
const MIN_SIDE = 50;
const MAX_SIDE = 4096;

export class RenderTimeoutError extends Error {}

export interface RendererOptions {
  executablePath?: string;
  timeoutMs?: number;
  /** Replace the browser once its memory (PSS) passes this many bytes; checked every few renders. */
  maxMemoryBytes?: number;
}

// Chromium's memory grows with every figure drawn (plotly's caches, WebGL contexts): a fresh
// browser costs a few seconds, so it is replaced only when it has grown past the cap.
const MEMORY_CHECK_EVERY = 10;

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why images cannot be rendered on this machine, or null when they can. */
export function rendererUnavailable(executablePath = chromiumPath()): string | null {
  return existsSync(/*turbopackIgnore: true*/ executablePath) ? null : `no Chromium at ${executablePath} (install Debian's chromium or set CHROMIUM_PATH)`;
}

// Plain JavaScript run in the page (a string, so no compiler helper leaks into it). toImage draws
// the figure once in an off-screen element; thumbnails are scaled from that image in a canvas,
// letterboxed with the colour of the chart's own corner.
const PAGE_SCRIPT = `
window.__renderFigure = async function (text, w, h, boxes) {
  var fig = await window.__safeTicks(Plotly, JSON.parse(text));
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
  return out.map(function (u) { return u.slice(u.indexOf(',') + 1); });
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

interface Session {
  server: BrowserServer;
  browser: Browser;
  page: Page;
}

export class Renderer {
  private readonly executablePath: string;
  private readonly timeoutMs: number;
  private readonly maxMemoryBytes: number;
  private rendered = 0;
  private session: Promise<Session> | null = null;
  // Renders run one at a time on the one page.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: RendererOptions = {}) {
    this.executablePath = opts.executablePath ?? chromiumPath();
    this.timeoutMs = opts.timeoutMs ?? Number(process.env.RENDER_TIMEOUT_MS ?? 20_000);
    this.maxMemoryBytes = opts.maxMemoryBytes ?? Number(process.env.RENDERER_MAX_MB ?? 1024) * 2 ** 20;
  }

  /** The figure's three PNGs: default (its own size, else 700x500), block-thumb and list-thumb. */
  render(figureText: string, layout: unknown, timeoutMs = this.timeoutMs): Promise<RenderedImage[]> {
    const run = this.queue.then(() => this.renderNow(figureText, layout, timeoutMs));
    this.queue = run.catch(() => {});
    return run;
  }

  private async renderNow(figureText: string, layout: unknown, timeoutMs: number): Promise<RenderedImage[]> {
    const [w, h] = figureSize(layout);
    const boxes = [THUMB_BOXES['block-thumb'], THUMB_BOXES['list-thumb']];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeoutError(`render took over ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const pngs = await Promise.race([
        this.start().then(({ page }) =>
          page.evaluate(
            ([text, width, height, b]) =>
              (window as unknown as { __renderFigure(...a: unknown[]): Promise<string[]> }).__renderFigure(text, width, height, b),
            [figureText, w, h, boxes] as const,
          ),
        ),
        timeout,
      ]);
      if (++this.rendered % MEMORY_CHECK_EVERY === 0 && (await this.memoryBytes()) > this.maxMemoryBytes) await this.reset();
      return [
        { size: 'default', png: Buffer.from(pngs[0], 'base64'), width: w, height: h },
        { size: 'block-thumb', png: Buffer.from(pngs[1], 'base64'), width: boxes[0][0], height: boxes[0][1] },
        { size: 'list-thumb', png: Buffer.from(pngs[2], 'base64'), width: boxes[1][0], height: boxes[1][1] },
      ];
    } catch (error) {
      // A hung page, a crashed tab or a dead browser: start afresh next time. A figure plotly
      // refuses leaves the page as it was.
      const session = await this.session?.catch(() => null);
      if (error instanceof RenderTimeoutError || !session?.browser.isConnected()) await this.reset();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The browser and its prepared page, launched on first use and after a reset. */
  private start(): Promise<Session> {
    if (this.session) return this.session;
    const session: Promise<Session> = (async () => {
      // A browser server, so that its process can be measured and killed.
      const server = await chromium.launchServer({ executablePath: this.executablePath, args: LAUNCH_ARGS, timeout: 30_000 });
      try {
        const browser = await chromium.connect(server.wsEndpoint());
        browser.on('disconnected', () => {
          if (this.session === session) this.session = null;
        });
        const page = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
        page.on('crash', () => {
          if (this.session === session) void this.reset();
        });
        // Figures arrive with their data inlined: nothing is fetched, so nothing can leak or hang on the network.
        await page.route('**/*', (route) => route.abort());
        await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
        // The map outlines' bundle also sets window.Plotly (to itself): load it first.
        await page.addScriptTag({ content: await geoAssetsScript() });
        await page.addScriptTag({ content: await plotlyBrowserScript() });
        await page.addScriptTag({ content: `window.__safeTicks = ${safeTicks.toString()};\n${PAGE_SCRIPT}` });
        // Rendering is background work: it yields the CPU to serving requests.
        for (const pid of await processTree(server.process().pid!)) {
          try {
            os.setPriority(pid, BACKGROUND_PRIORITY);
          } catch {
            // exited meanwhile
          }
        }
        return { server, browser, page };
      } catch (error) {
        await server.kill();
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
    await (await session?.catch(() => null))?.server.kill();
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = null;
    await (await session?.catch(() => null))?.server.close();
  }

  /** Memory of the browser and all its child processes (PSS), in bytes (0 when not running). */
  async memoryBytes(): Promise<number> {
    const pid = await this.browserPid();
    return pid ? processTreeMemory(pid) : 0;
  }

  /** The browser's process id (for measuring it, and for tests that crash it on purpose). */
  async browserPid(): Promise<number | undefined> {
    return (await this.session?.catch(() => null))?.server.process().pid;
  }
}

/** A process and all its descendants (from /proc). */
async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    if (status) parents.set(pid, Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]));
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
