// Image export (POST /v2/images): a figure sent with its data drawn by plotly.js in this process's
// Chromium and answered as PNG, JPEG, WebP, SVG, PDF (Chromium prints the SVG: vector) or EMF
// (Inkscape converts the SVG); nothing is stored. Bounds: one user has at most RENDERS_PER_USER
// exports in flight across every app process (leases in Postgres); each process draws on a few
// export pages of its own, and exports waiting for one are served round-robin across users from a
// bounded queue; a render (drawing and conversion) is abandoned at the timeout.
import 'server-only';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { busy, invalid, serviceUnavailable } from '@/lib/core/errors';
import { MAX_TRACES } from '@/lib/core/figures/figure';
import { needsMapOutlines } from '@/lib/shared/figures/plotly-bundles';
import { traceType } from '@/lib/shared/figures/trace-types';
import { claimOneOf, releaseLease, renewLease } from '@/lib/core/leases';
import { whole } from '@/lib/core/accounts/rate-limit';
import { rendererUnavailable } from './chromium';
import { figureSize, FigureError, isRenderError, MAX_SIDE, MIN_SIDE, RenderTimeoutError, type ExportJob, type ExportSize } from './render-jobs';
import { appRenderer } from './renderer';

export const EXPORT_FORMATS = ['png', 'jpeg', 'webp', 'svg', 'pdf', 'emf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Exactly these (no parameters: the Python client compares the whole header). */
export const CONTENT_TYPES: Record<ExportFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  emf: 'image/emf',
};

/** Largest output, width x scale x height x scale (4096 x 4096). */
export const MAX_EXPORT_PIXELS = 16_777_216;
/** Exports one user may have in flight at once, across every app process. */
export const RENDERS_PER_USER = 2;
// A lease outlives its render by this much, so it is only ever taken over from a dead process.
const LEASE_MARGIN_SECONDS = 5;
const RETRY_AFTER_USER_SECONDS = 2;
const RETRY_AFTER_QUEUE_SECONDS = 5;

const SIDE = `expected an integer number of pixels, ${MIN_SIDE}..${MAX_SIDE}`;
const side = (what: string) =>
  z
    .int({ error: SIDE })
    .min(MIN_SIDE, { error: SIDE })
    .max(MAX_SIDE, { error: SIDE })
    .optional()
    .meta({
      description: `image ${what} in pixels (overrides layout.${what}); default layout.${what} clamped to ${MIN_SIDE}..${MAX_SIDE}, else ${what === 'width' ? 700 : 500}`,
    });
const SCALE = 'expected a number, 0.1..10';

export const imageExportSchema = z.object({
  figure: z
    .object(
      {
        data: z
          .array(z.record(z.string(), z.unknown(), { error: 'expected a trace object' }), { error: 'expected an array of traces' })
          .max(MAX_TRACES, { error: `at most ${MAX_TRACES} traces a figure` }),
        layout: z.record(z.string(), z.unknown(), { error: 'expected an object' }).optional(),
      },
      { error: (issue) => (issue.input === undefined ? 'This field is required.' : 'expected an object {"data": [...], "layout": {...}}') },
    )
    .meta({ description: 'the plotly.js figure with its data inlined (*src keys are not resolved; frames are ignored)' }),
  format: z.enum(EXPORT_FORMATS, { error: `expected one of ${EXPORT_FORMATS.join(', ')}` }).default('png'),
  width: side('width'),
  height: side('height'),
  scale: z
    .number({ error: SCALE })
    .min(0.1, { error: SCALE })
    .max(10, { error: SCALE })
    .default(1)
    .meta({ description: 'multiplies the output size (every format)' }),
  encoded: z
    .boolean({ error: 'expected true or false' })
    .default(false)
    .meta({ description: 'true: answer {"image": "data:<type>;base64,..."} as JSON instead of the bytes' }),
});
export type ImageExportBody = z.output<typeof imageExportSchema>;

/** Drawing and output sizes; 400 naming `scale` when the output would pass MAX_EXPORT_PIXELS. */
export function exportSize(body: Pick<ImageExportBody, 'figure' | 'width' | 'height' | 'scale'>): ExportSize {
  const [fw, fh] = figureSize(body.figure.layout);
  const width = body.width ?? fw;
  const height = body.height ?? fh;
  const outWidth = Math.max(1, Math.round(width * body.scale));
  const outHeight = Math.max(1, Math.round(height * body.scale));
  if (outWidth * outHeight > MAX_EXPORT_PIXELS) {
    throw invalid(
      'scale',
      `the image would be ${outWidth} x ${outHeight} = ${(outWidth * outHeight).toLocaleString('en-US')} pixels; at most ${MAX_EXPORT_PIXELS.toLocaleString('en-US')} (width x scale x height x scale)`,
    );
  }
  return { width, height, outWidth, outHeight };
}

export interface ExportConfig {
  /** A render's limit, drawing and conversion (and, separately, the longest wait for an export page). */
  timeoutMs: number;
  /** Export pages in this process's browser. */
  pages: number;
  /** Exports that may wait for a page in this process. */
  queue: number;
}

export const exportConfig = (): ExportConfig => ({
  timeoutMs: whole('EXPORT_TIMEOUT_MS', 30_000, 1),
  pages: whole('EXPORT_PAGES', 3, 1),
  queue: whole('EXPORT_QUEUE', 16, 0),
});

/** A queue served round-robin across keys: keys take turns in the order they joined, one item a turn. */
export class FairQueue<T> {
  private readonly lines = new Map<string, T[]>();
  private count = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.count;
  }

  /** Adds `item` at the back of `key`'s line; false when the queue is full. */
  push(key: string, item: T): boolean {
    if (this.count >= this.capacity) return false;
    const line = this.lines.get(key);
    if (line) line.push(item);
    else this.lines.set(key, [item]);
    this.count++;
    return true;
  }

  /** The first item of the key whose turn it is; that key goes to the back of the turns. */
  shift(): T | undefined {
    for (const [key, line] of this.lines) {
      const item = line.shift()!;
      this.lines.delete(key);
      if (line.length) this.lines.set(key, line);
      this.count--;
      return item;
    }
    return undefined;
  }

  /** Takes `item` out of `key`'s line (it gave up waiting); false when it is not there. */
  remove(key: string, item: T): boolean {
    const line = this.lines.get(key);
    const at = line?.indexOf(item) ?? -1;
    if (!line || at < 0) return false;
    line.splice(at, 1);
    if (!line.length) this.lines.delete(key);
    this.count--;
    return true;
  }
}

/** No export page came free for this export: the queue was full, or its wait ran out. */
export class ExportBusyError extends Error {}

/** This process's export pages (numbered lanes), handed out at once or, when all are busy, in fair turns. */
export class ExportLanes {
  private readonly free: number[];
  private readonly waiting: FairQueue<(lane: number) => void>;

  constructor(pages: number, queue: number) {
    this.free = Array.from({ length: pages }, (_, i) => pages - 1 - i);
    this.waiting = new FairQueue(queue);
  }

  /** A lane for one of `key`'s exports; ExportBusyError when the queue is full or after waiting `maxWaitMs`. */
  acquire(key: string, maxWaitMs: number): Promise<number> {
    // Lanes are free only while nobody waits (release hands a lane straight to the next in turn).
    if (this.free.length) return Promise.resolve(this.free.pop()!);
    return new Promise((resolve, reject) => {
      const grant = (lane: number) => {
        clearTimeout(timer);
        resolve(lane);
      };
      if (!this.waiting.push(key, grant)) return reject(new ExportBusyError('the export queue is full'));
      const timer = setTimeout(() => {
        if (this.waiting.remove(key, grant)) reject(new ExportBusyError(`no export page came free within ${maxWaitMs} ms`));
      }, maxWaitMs);
    });
  }

  release(lane: number): void {
    const next = this.waiting.shift();
    if (next) next(lane);
    else this.free.push(lane);
  }
}

declare global {
  var __plotFilesExportLanes: ExportLanes | undefined;
}

function exportLanes(config: ExportConfig): ExportLanes {
  globalThis.__plotFilesExportLanes ??= new ExportLanes(config.pages, config.queue);
  return globalThis.__plotFilesExportLanes;
}

export const inkscapePath = () => process.env.INKSCAPE_PATH ?? '/usr/bin/inkscape';

/** Why EMF cannot be made on this machine, or null when it can. */
export function emfUnavailable(inkscape = inkscapePath()): string | null {
  return existsSync(/*turbopackIgnore: true*/ inkscape)
    ? null
    : `EMF needs Inkscape, which this server does not have (no ${inkscape}); ask for svg or pdf instead`;
}

/**
 * The SVG without references to anything outside it (Inkscape would read files and URLs): in every
 * tag, href values other than `#id` and data: URLs go, and so do `url(...)` values other than
 * `url(#id)`. Serialized SVG escapes `>` inside attributes and text, so a tag ends at the first `>`.
 */
export function selfContained(svg: string): string {
  return svg.replace(/<[^>]+>/g, (tag) =>
    tag
      .replace(/\s(?:xlink:)?href\s*=\s*("[^"]*"|'[^']*')/gi, (attr, value: string) => (/^["']\s*(?:#|data:)/i.test(value) ? attr : ''))
      .replace(/url\(\s*(?!['"]?\s*#)[^)]*\)/gi, 'none'),
  );
}

/**
 * The SVG as EMF, converted by Inkscape's command line in a temporary directory (removed after).
 * Killed at `deadline`: RenderTimeoutError. A conversion that fails is the figure's: FigureError.
 */
export async function svgToEmf(svg: string, deadline: number, inkscape = inkscapePath()): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pf-emf-'));
  try {
    const input = path.join(dir, 'plot.svg');
    const output = path.join(dir, 'plot.emf');
    await writeFile(input, selfContained(svg));
    const stderr = await new Promise<string>((resolve, reject) => {
      // Its own process group, so that a timeout kills anything it started too.
      const child = spawn(/*turbopackIgnore: true*/ inkscape, ['--export-type=emf', `--export-filename=${output}`, input], {
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
      const timer = setTimeout(
        () => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // exited meanwhile
          }
          reject(new RenderTimeoutError('EMF conversion timed out'));
        },
        Math.max(0, deadline - Date.now()),
      );
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(err);
        else reject(new FigureError(`Inkscape could not convert the figure to EMF (exit ${code})`));
      });
    });
    const emf = await readFile(output).catch(() => null);
    if (!emf?.length) throw new FigureError(`Inkscape made no EMF: ${stderr.trim().slice(-300)}`);
    return emf;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Draws the export on `lane` before `deadline`: the bytes of the asked format. */
async function draw(lane: number, job: ExportJob, emf: boolean, deadline: number): Promise<Buffer> {
  const drawn = await appRenderer().exportImage(lane, job, deadline);
  return emf ? svgToEmf(drawn.toString('utf8'), deadline) : drawn;
}

/** POST /v2/images: the figure drawn in the asked format (see the module comment for the bounds). */
export async function exportImage(db: Db, viewer: Viewer, body: ImageExportBody): Promise<{ bytes: Buffer; type: string }> {
  const config = exportConfig();
  const size = exportSize(body);
  const unavailable = rendererUnavailable();
  if (unavailable) throw invalid(null, `image export is not available on this server: ${unavailable}`);
  if (body.format === 'emf') {
    const why = emfUnavailable();
    if (why) throw invalid('format', why);
  }

  const holder = randomUUID();
  const leaseSeconds = config.timeoutMs / 1000 + LEASE_MARGIN_SECONDS;
  const slots = Array.from({ length: RENDERS_PER_USER }, (_, i) => `render:${viewer.id}:${i}`);
  const slot = await claimOneOf(db, slots, holder, leaseSeconds);
  if (!slot) throw busy(`at most ${RENDERS_PER_USER} image exports of one user at a time; try again shortly`, RETRY_AFTER_USER_SECONDS);
  try {
    const lanes = exportLanes(config);
    const lane = await lanes.acquire(String(viewer.id), config.timeoutMs).catch((error) => {
      throw error instanceof ExportBusyError
        ? busy(`the server's image export queue is full (${error.message}); try again shortly`, RETRY_AFTER_QUEUE_SECONDS)
        : error;
    });
    try {
      const job: ExportJob = {
        figureText: JSON.stringify({ data: body.figure.data, layout: body.figure.layout ?? {} }),
        format: body.format === 'emf' ? 'svg' : body.format,
        mapOutlines: needsMapOutlines(body.figure.data.map(traceType), Object.keys(body.figure.layout ?? {})),
        ...size,
      };
      // A browser lost under this export (dropped after another export hung, or crashed) is not
      // its doing: it is drawn once more in the browser that replaces it before the answer is 503.
      for (let attempt = 1; ; attempt++) {
        try {
          // The browser's and the page's start-up are not the figure's doing: not counted against it.
          await appRenderer().prepareExport(lane, config.pages, job.mapOutlines);
          // The wait is over: the render's own time starts now, and the lease covers it.
          await renewLease(db, slot, holder, leaseSeconds);
          const bytes = await draw(lane, job, body.format === 'emf', Date.now() + config.timeoutMs);
          return { bytes, type: CONTENT_TYPES[body.format] };
        } catch (error) {
          if (attempt >= 2 || !isRenderError(error, 'BrowserLostError')) throw error;
        }
      }
    } catch (error) {
      if (isRenderError(error, 'RenderTimeoutError')) {
        throw invalid(
          'figure',
          `drawing and converting the figure took over ${config.timeoutMs / 1000} s; simplify it (fewer points or ticks) or ask for a smaller image`,
        );
      }
      if (isRenderError(error, 'FigureError')) throw invalid('figure', `plotly.js could not draw the figure: ${(error as Error).message}`);
      if (isRenderError(error, 'BrowserLostError')) {
        console.error('Image export:', (error as Error).message);
        throw serviceUnavailable(5, 'The image renderer is restarting; try again shortly.');
      }
      throw error;
    } finally {
      lanes.release(lane);
    }
  } finally {
    // A lease left behind (the database away) runs out by itself.
    await releaseLease(db, slot, holder).catch(() => {});
  }
}
