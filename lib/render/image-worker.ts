// The image worker: claims render jobs from Postgres, draws them, stores the PNGs. One runs inside
// the app by default (IMAGE_WORKER=false turns it off) and any number more as `npm run worker`.
import 'server-only';
import { availableParallelism } from 'node:os';
import type { Database } from '@/db/client';
import { claimImageJob, failImageJob, IMAGE_JOBS_CHANNEL, SLOW_RETRY_FACTOR, storeImages, type RenderFailure } from '@/lib/core/images/images';
import { figureToRender } from '@/lib/core/plots/plot-content';
import { rendererUnavailable } from './chromium';
import { appRenderer, type Renderer } from './renderer';

export interface ImageWorker {
  renderer: Renderer;
  /** Renders completed by this worker. */
  rendered(): number;
  stop(): Promise<void>;
}

// By name: the app's bundles may each hold a copy of the classes.
const FAILURES: Record<string, RenderFailure> = { TooLargeToDrawError: 'final', BrowserLostError: 'browser', RenderTimeoutError: 'slow' };

interface WorkerOptions {
  /** Idle poll, in case a notification was missed (e.g. across a database restart). */
  pollMs?: number;
  renderer?: Renderer;
  /** Renders at once, each on a thumbnail page of its own (IMAGE_RENDERS; default: the cores, at most 2). */
  renders?: number;
  log?: Pick<Console, 'log' | 'warn' | 'error'>;
}

/** Starts this process's browser while the database is prepared (a first start seeds the demo
 * gallery meanwhile), so that the first images are not also waiting for Chromium. */
export function warmRenderer(): void {
  if (!rendererUnavailable()) void appRenderer().warmUp();
}

/** Starts a worker, or returns null (having said why, once) when this machine cannot render. */
export async function startImageWorker(open: () => Promise<Database>, opts: WorkerOptions = {}): Promise<ImageWorker | null> {
  const log = opts.log ?? console;
  const why = opts.renderer ? null : rendererUnavailable();
  if (why) {
    log.warn(`Images: not rendering, ${why}; image URLs answer a placeholder until a worker with Chromium renders them.`);
    return null;
  }
  // The process's own renderer: image exports in this process draw in the same browser.
  const renderer = opts.renderer ?? appRenderer();
  const ownRenderer = !opts.renderer;
  const pollMs = opts.pollMs ?? Number(process.env.IMAGE_POLL_MS ?? 2000);
  let stopped = false;
  const renders = Math.max(1, opts.renders ?? Number(process.env.IMAGE_RENDERS ?? Math.min(2, availableParallelism())));
  let rendered = 0;
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const done of waiting) done();
  };
  let listening: Promise<() => Promise<void>> | null = null;
  let databaseDown = false;

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      }
      waiting.add(done);
    });

  // `renders` loops, each claiming a job at a time: the queue's lease keeps them apart.
  const loop = async () => {
    while (!stopped) {
      try {
        const { db, listen } = await open();
        if (!listening) {
          const started = listen(IMAGE_JOBS_CHANNEL, wake);
          listening = started;
          started.catch(() => {
            if (listening === started) listening = null;
          });
        }
        await listening;
        if (databaseDown) log.log('Images: database back, rendering again.');
        databaseDown = false;
        const job = await claimImageJob(db);
        if (!job) {
          await idle();
          continue;
        }
        try {
          const figure = await figureToRender(db, job.fileId);
          if (figure) {
            const images = await renderer.render(figure.text, figure.layout, {
              mapOutlines: figure.mapOutlines,
              patience: job.slow ? SLOW_RETRY_FACTOR : 1,
              slots: renders,
            });
            await storeImages(db, job.fileId, figure.version, images);
            rendered++;
          } else {
            // Trashed or deleted since: nothing to draw.
            await storeImages(db, job.fileId, job.version, []);
          }
        } catch (error) {
          log.error(`Images: render of plot ${job.fileId} v${job.version} failed (attempt ${job.attempts}):`, (error as Error).message);
          await failImageJob(db, job, error, FAILURES[(error as Error).name] ?? 'figure');
        }
      } catch (error) {
        // The database is away: say so once, then keep trying quietly.
        if (!databaseDown) log.error('Images: database unavailable, will retry:', (error as Error).message);
        databaseDown = true;
        await idle();
      }
    }
  };
  const loops = Promise.all(Array.from({ length: renders }, loop));

  return {
    renderer,
    rendered: () => rendered,
    stop: async () => {
      stopped = true;
      wake();
      await loops;
      await (await listening?.catch(() => null))?.().catch(() => {});
      if (ownRenderer) await renderer.close();
    },
  };
}
