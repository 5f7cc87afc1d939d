// Plot images: the render queue (a Postgres table claimed with FOR UPDATE SKIP LOCKED, so any number
// of worker processes share it), the stored PNGs keyed by plot and figure version, and the answers
// at the image URLs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { OwnedFile } from './files';

export const IMAGE_SIZES = ['default', 'block-thumb', 'list-thumb'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];
/** Thumbnails are the default image fitted (letterboxed) into these boxes. */
export const THUMB_BOXES = { 'block-thumb': [400, 300], 'list-thumb': [200, 150] } as const;
/** The default image's size when the figure gives none (Chart Studio's). */
export const DEFAULT_SIZE = [700, 500] as const;

export interface RenderedImage {
  size: ImageSize;
  png: Buffer;
  width: number;
  height: number;
}

/** Workers LISTEN here; enqueuing NOTIFYs (delivered at commit). */
export const IMAGE_JOBS_CHANNEL = 'image_jobs';
/** A render that failed this often is left alone; its URLs keep answering the placeholder. */
export const MAX_ATTEMPTS = 3;
/** How long a claimed job stays with its worker before another may take it (the worker may have died). */
const LEASE_SECONDS = 120;

export const imageSize = (value: string | null): ImageSize =>
  IMAGE_SIZES.includes(value as ImageSize) ? (value as ImageSize) : 'default';

/** Queues the plots of `rows` (file_id, version): a job already queued for that version stays as it is. */
const enqueue = (rows: SQL) => sql`
  INSERT INTO image_jobs (file_id, version) ${rows}
  ON CONFLICT (file_id) DO UPDATE
    SET version = excluded.version, attempts = 0, run_after = now(), locked_until = NULL, last_error = NULL
    WHERE image_jobs.version < excluded.version
  RETURNING 1`;

/**
 * Asks for images of the plot's current version (in the plot's write transaction, or when a URL
 * finds none). A job already queued for that version is left as it is, so repeated asks are cheap
 * and a render that failed for good is not retried by every page view.
 */
export async function requestImages(db: Db, fileId: number): Promise<void> {
  await db.execute(sql`
    WITH queued AS (${enqueue(sql`SELECT file_id, version FROM plots WHERE file_id = ${fileId}`)})
    SELECT pg_notify(${IMAGE_JOBS_CHANNEL}, '') FROM queued`);
}

/**
 * The data of these grids changed (columns written, the grid trashed, restored or deleted), so every
 * plot on them draws something else now: each gets a new version (it keys content ETags and images),
 * a new date_modified (the pages' image URLs carry it) and, when live, a render. One statement
 * however many plots, found through the plot_grid_keys index (migration 0006); the plots' file rows
 * are locked first and in id order, as a plot's own update locks them, so the two never deadlock.
 */
export async function refreshPlotsOfGrids(db: Db, grids: { owner: string; n: number }[]): Promise<void> {
  if (!grids.length) return;
  const keys = sql.join(grids.map((g) => sql`lower(${`${g.owner}:${g.n}`}::text)`), sql`, `);
  await db.execute(sql`
    WITH targets AS (
      SELECT f.id, f.trashed_at IS NULL AS live FROM plots p JOIN files f ON f.id = p.file_id
      WHERE plot_grid_keys(p.src_refs) && ARRAY[${keys}]::text[]
      ORDER BY f.id FOR UPDATE OF f
    ), touched AS (
      UPDATE files f SET updated_at = now() FROM targets t WHERE f.id = t.id
    ), bumped AS (
      UPDATE plots p SET version = p.version + 1 FROM targets t WHERE p.file_id = t.id
      RETURNING p.file_id, p.version, t.live
    ), queued AS (${enqueue(sql`SELECT file_id, version FROM bumped WHERE live`)})
    SELECT pg_notify(${IMAGE_JOBS_CHANNEL}, '') FROM (SELECT 1 FROM queued LIMIT 1) q`);
}

export interface ImageJob {
  fileId: number;
  version: number;
  attempts: number;
}

/**
 * The next job no other worker holds, leased to this one; null when there is none. Newest first:
 * a plot just created or changed is drawn before any backlog (a first start's demo, a bulk import).
 */
export async function claimImageJob(db: Db): Promise<ImageJob | null> {
  const [job] = await queryRows<{ file_id: string | number; version: number; attempts: number }>(
    db,
    sql`UPDATE image_jobs SET locked_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = attempts + 1
        WHERE file_id = (
          SELECT file_id FROM image_jobs
          WHERE run_after <= now() AND attempts < ${MAX_ATTEMPTS} AND (locked_until IS NULL OR locked_until < now())
          ORDER BY run_after DESC, file_id DESC
          LIMIT 1
          FOR UPDATE SKIP LOCKED)
        RETURNING file_id, version, attempts`,
  );
  return job ? { fileId: Number(job.file_id), version: job.version, attempts: job.attempts } : null;
}

/**
 * Stores a render and retires the job, in one transaction. Images are stored only while the plot
 * is still at the rendered version (an update meanwhile queued a newer one); older versions' images
 * go, since they are never served again.
 */
export async function storeImages(db: Db, fileId: number, version: number, images: RenderedImage[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const image of images) {
      await tx.execute(sql`
        INSERT INTO plot_images (file_id, version, size, png, width, height)
        SELECT file_id, version, ${image.size}, ${image.png}, ${image.width}, ${image.height}
        FROM plots WHERE file_id = ${fileId} AND version = ${version}
        ON CONFLICT (file_id, version, size) DO UPDATE SET png = excluded.png, width = excluded.width, height = excluded.height, created_at = now()`);
    }
    await tx.execute(sql`DELETE FROM plot_images WHERE file_id = ${fileId} AND version < ${version}`);
    await tx.execute(sql`DELETE FROM image_jobs WHERE file_id = ${fileId} AND version <= ${version}`);
    // A newer version queued while this one rendered: free it for the next claim at once.
    await tx.execute(sql`UPDATE image_jobs SET locked_until = NULL WHERE file_id = ${fileId}`);
  });
}

/** A failed render: retried later (10 s, then 30 s), until MAX_ATTEMPTS. */
export async function failImageJob(db: Db, job: ImageJob, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
  await db.execute(sql`
    UPDATE image_jobs
    SET locked_until = NULL, last_error = ${message}, run_after = now() + make_interval(secs => 10 * power(3, attempts - 1))
    WHERE file_id = ${job.fileId} AND version = ${job.version}`);
}

/** The stored image of the plot's current version, if rendered yet. */
export async function getPlotImage(db: Db, fileId: number, size: ImageSize): Promise<{ png: Uint8Array; version: number } | null> {
  const [row] = await queryRows<{ png: Uint8Array; version: number }>(
    db,
    sql`SELECT i.png, i.version FROM plot_images i JOIN plots p ON p.file_id = i.file_id AND p.version = i.version
        WHERE i.file_id = ${fileId} AND i.size = ${size}`,
  );
  return row ?? null;
}

const placeholders = new Map<ImageSize, Promise<Buffer>>();
function placeholder(size: ImageSize): Promise<Buffer> {
  let png = placeholders.get(size);
  if (!png) placeholders.set(size, (png = readFile(path.join(/*turbopackIgnore: true*/ process.cwd(), 'public/placeholders', `${size}.png`))));
  return png;
}

/**
 * The answer at `/~owner/n.png[?size=…]` for a plot the requester may read: its PNG with an ETag
 * (long-lived caching when the URL carries a version token `v`, else revalidated), or, before it is
 * rendered, the placeholder, never cached, while a render is asked for.
 */
export async function plotImageResponse(db: Db, req: Request, file: OwnedFile, size: ImageSize): Promise<Response> {
  const image = await getPlotImage(db, file.id, size);
  if (!image) {
    await requestImages(db, file.id);
    return new Response(new Uint8Array(await placeholder(size)), {
      headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-store', 'X-Image-State': 'pending' },
    });
  }
  const etag = `"${image.version}-${size}"`;
  const scope = file.worldReadable ? 'public' : 'private';
  const versioned = new URL(req.url).searchParams.has('v');
  const headers = {
    'Content-Type': 'image/png',
    ETag: etag,
    'Cache-Control': versioned ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache`,
    'X-Image-State': 'rendered',
  };
  if (req.headers.get('if-none-match')?.split(/\s*,\s*/).includes(etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image.png), { headers });
}
