// Plot images: the render queue (a Postgres table claimed with FOR UPDATE SKIP LOCKED, so any number
// of worker processes share it), the stored PNGs keyed by plot and figure version, and what the image
// URLs show (lib/http/responses.ts answers them).
import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { bundleSubplotSql, namedTraceTypeSql, traceTypeSql } from '../figure-sql';
import { plotlyBundle, type PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { MiB } from '../json-text';
import { fileNumbered } from '../records';
import { drawsLive } from '@/lib/shared/figures/live-drawing';

export { drawsLive, LIVE_MAX_BYTES, LIVE_MAX_VALUES } from '@/lib/shared/figures/live-drawing';

/** `card` (an extension of the contract's sizes) is what the plot cards show (lib/shared/figures/card-figure.ts). */
export const IMAGE_SIZES = ['default', 'block-thumb', 'list-thumb', 'card'] as const;
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
/** A render is tried once more after a failure, then left alone: its URLs answer the "could not be
 * drawn" placeholder and its owner sees it listed (a figure that hangs plotly costs at most two
 * timeouts of a worker, not three). */
export const MAX_ATTEMPTS = 2;
/** Queued renders one owner may have at once; past it, a plot's images are asked for again when its
 * URLs are next requested (so one account's bulk import cannot fill the queue for everyone). */
export const MAX_QUEUED_PER_OWNER = 100;
/** How long a claimed job stays with its worker before another may take it (the worker may have died). */
const LEASE_SECONDS = 120;

export const imageSize = (value: string | null): ImageSize => (IMAGE_SIZES.includes(value as ImageSize) ? (value as ImageSize) : 'default');

/**
 * Queues the plots of `rows` (file_id, owner_id, version; the owner comes with them, since a plot
 * created in the same statement is not visible to it yet): a job already queued for that version stays as it
 * is. Each new job's turn puts it after its owner's queued jobs, interleaved with everyone else's
 * (see image_jobs.turn); past MAX_QUEUED_PER_OWNER an owner's new jobs wait to be asked for again.
 */
export const enqueue = (rows: SQL) => sql`
  INSERT INTO image_jobs (file_id, owner_id, version, turn)
  SELECT file_id, owner_id, version, turn FROM (
    SELECT r.file_id, r.owner_id, r.version,
           base.turn + q.queued + row_number() OVER (PARTITION BY r.owner_id ORDER BY r.file_id) - 1 AS turn,
           q.queued + row_number() OVER (PARTITION BY r.owner_id ORDER BY r.file_id) AS place,
           EXISTS (SELECT 1 FROM image_jobs j WHERE j.file_id = r.file_id) AS known
    FROM (${rows}) r
    CROSS JOIN (SELECT coalesce(min(turn), 0) AS turn FROM image_jobs WHERE attempts < ${MAX_ATTEMPTS}) base
    CROSS JOIN LATERAL (SELECT count(*) AS queued FROM image_jobs o WHERE o.owner_id = r.owner_id AND o.attempts < ${MAX_ATTEMPTS}) q
  ) c
  WHERE place <= ${MAX_QUEUED_PER_OWNER} OR known
  ON CONFLICT (file_id) DO UPDATE
    SET version = excluded.version, turn = excluded.turn, attempts = 0, run_after = now(), locked_until = NULL, last_error = NULL
    WHERE image_jobs.version < excluded.version
  RETURNING 1`;

/** Wakes the workers when the `queued` CTE (an enqueue) queued anything (NOTIFY is delivered at commit). */
export const notifyQueued = sql`SELECT pg_notify(${IMAGE_JOBS_CHANNEL}, '') FROM (SELECT 1 FROM queued LIMIT 1) q`;

/**
 * Asks for images of the plot's current version (in the plot's write transaction, or when a URL
 * finds none). A job already queued for that version is left as it is, so repeated asks are cheap
 * and a render that failed for good is not retried by every page view.
 */
export async function requestImages(db: Db, fileId: number): Promise<void> {
  await queryRows(
    db,
    sql`WITH queued AS (${enqueue(sql`SELECT p.file_id, f.owner_id, p.version FROM plots p JOIN files f ON f.id = p.file_id WHERE p.file_id = ${fileId}`)})
        ${notifyQueued}`,
  );
}

/**
 * Puts these plots' renders first in the queue, in the order given (the gallery's first page, so a
 * fresh install shows real card images soonest): a plot without a card image of its current version
 * is queued, and each one queued gets a turn before every other job's.
 */
export async function requestImagesFirst(db: Db, fileIds: number[]): Promise<void> {
  if (!fileIds.length) return;
  const wanted = sql`SELECT w.file_id::bigint AS file_id, w.place FROM jsonb_array_elements_text(${JSON.stringify(fileIds)}::jsonb) WITH ORDINALITY AS w(file_id, place)`;
  await db.transaction(async (tx) => {
    await queryRows(
      tx,
      sql`WITH queued AS (${enqueue(sql`SELECT p.file_id, f.owner_id, p.version FROM (${wanted}) w JOIN plots p ON p.file_id = w.file_id JOIN files f ON f.id = p.file_id
            WHERE f.trashed_at IS NULL AND NOT EXISTS (SELECT 1 FROM plot_images i WHERE i.file_id = p.file_id AND i.version = p.version AND i.size = 'card')`)})
          ${notifyQueued}`,
    );
    await tx.execute(sql`
      UPDATE image_jobs j SET turn = base.turn - ${fileIds.length}::int + w.place - 1
      FROM (${wanted}) w, (SELECT coalesce(min(turn), 0) AS turn FROM image_jobs WHERE attempts < ${MAX_ATTEMPTS}) base
      WHERE j.file_id = w.file_id AND j.attempts < ${MAX_ATTEMPTS}`);
  });
}

/**
 * The data of these grids changed (columns written, the grid trashed, restored or deleted), so every
 * plot on them draws something else now: each gets a new version (it keys content ETags and images),
 * a new date_modified (the pages' image URLs carry it) and, when live, a render. One statement
 * however many plots, found through the plot_grid_keys index (plots_grid_keys_idx); the plots' file rows
 * are locked first and in id order, as a plot's own update locks them, so the two never deadlock.
 */
/** The grid values plot `p`'s srcs reference now, and their bytes, each reference counted (live grids only). */
const PLOT_DATA_SIZE = sql`(
  SELECT coalesce(sum(g.length), 0), coalesce(sum(g.bytes), 0) FROM jsonb_array_elements(p.src_refs) r
  CROSS JOIN LATERAL unnest(string_to_array(split_part(r->>'s', ':', 3), ',')) AS u(uid)
  JOIN users ou ON lower(ou.username) = lower(split_part(r->>'s', ':', 1))
  CROSS JOIN LATERAL (${fileNumbered(sql`ou.id`, sql`split_part(r->>'s', ':', 2)::int`)}) gf
  JOIN grid_columns g ON g.grid_id = gf.id AND g.uid = u.uid
  WHERE gf.filetype = 'grid' AND gf.trashed_at IS NULL)`;

/** Column bytes the renderer is handed at most: a plot of more gets no image (its render fails for
 * good at once), and its page still draws it when the visitor asks. */
export const MAX_RENDERED_BYTES = 16 * MiB;

export async function refreshPlotsOfGrids(db: Db, grids: { owner: string; n: number }[]): Promise<void> {
  if (!grids.length) return;
  const keys = sql.join(
    grids.map((g) => sql`lower(${`${g.owner}:${g.n}`}::text)`),
    sql`, `,
  );
  await db.execute(sql`
    WITH targets AS (
      SELECT f.id, f.owner_id, f.trashed_at IS NULL AS live FROM plots p JOIN files f ON f.id = p.file_id
      WHERE plot_grid_keys(p.src_refs) && ARRAY[${keys}]::text[]
      ORDER BY f.id FOR UPDATE OF f
    ), touched AS (
      UPDATE files f SET updated_at = now() FROM targets t WHERE f.id = t.id
    ), bumped AS (
      UPDATE plots p SET version = p.version + 1, (data_values, data_bytes) = ${PLOT_DATA_SIZE} FROM targets t WHERE p.file_id = t.id
      RETURNING p.file_id, t.owner_id, p.version, t.live
    ), queued AS (${enqueue(sql`SELECT file_id, owner_id, version FROM bumped WHERE live`)})
    ${notifyQueued}`);
}

export interface ImageJob {
  fileId: number;
  version: number;
  attempts: number;
  /** The attempt before ran out of time: this one is given longer (SLOW_RETRY_FACTOR). */
  slow: boolean;
}

/**
 * The next job no other worker holds, leased to this one; null when there is none. By turn, then
 * oldest first: owners take turns, and each owner's plots come in the order they were asked for.
 */
export async function claimImageJob(db: Db): Promise<ImageJob | null> {
  const [job] = await queryRows<{ file_id: string | number; version: number; attempts: number; slow: boolean }>(
    db,
    sql`UPDATE image_jobs SET locked_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = attempts + 1
        WHERE file_id = (
          SELECT file_id FROM image_jobs
          WHERE run_after <= now() AND attempts < ${MAX_ATTEMPTS} AND (locked_until IS NULL OR locked_until < now())
          ORDER BY turn, created_at, file_id
          LIMIT 1
          FOR UPDATE SKIP LOCKED)
        RETURNING file_id, version, attempts, starts_with(coalesce(last_error, ''), ${SLOW}) AS slow`,
  );
  return job ? { fileId: Number(job.file_id), version: job.version, attempts: job.attempts, slow: job.slow } : null;
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

/** Why a render failed: the figure (counted), the figure for good (`final`: too large to draw), the
 * browser (lost under it), or the time (`slow`: out of time, which a busy machine causes too). */
export type RenderFailure = 'figure' | 'final' | 'browser' | 'slow';
const BROWSER_LOST = 'browser lost: ';
const SLOW = 'out of time: ';
/** How many times the usual time a render gets after running out of it once. */
export const SLOW_RETRY_FACTOR = 3;

/**
 * A failed render, retried 10 s later; after MAX_ATTEMPTS counted failures it stays, marking the plot
 * as one that could not be drawn. A lost browser is not the figure's doing and gives its attempt
 * back, unless the attempt before was lost too: a figure that keeps taking the browser down still
 * runs out of attempts. A render out of time (a busy machine, or a figure that hangs plotly) gives
 * its attempt back and is retried with SLOW_RETRY_FACTOR times the time; out of that too, it is
 * final: a chart is never marked undrawable because the server was busy for one render.
 */
export async function failImageJob(db: Db, job: ImageJob, error: unknown, failure: RenderFailure = 'figure'): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
  const prefix = failure === 'browser' ? BROWSER_LOST : failure === 'slow' ? SLOW : '';
  const final = failure === 'final' || (failure === 'slow' && job.slow);
  const given = failure === 'browser' || failure === 'slow';
  // SET reads the row as it was: last_error is the attempt before's.
  await db.execute(sql`
    UPDATE image_jobs
    SET locked_until = NULL, last_error = ${prefix + message}, run_after = now() + interval '10 seconds',
        attempts = CASE WHEN ${final}::boolean THEN greatest(attempts, ${MAX_ATTEMPTS})
                        WHEN ${given}::boolean AND NOT starts_with(coalesce(last_error, ''), ${prefix}) THEN greatest(attempts - 1, 0)
                        ELSE attempts END
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

/** SQL: the plot `p` could not be drawn (its current version's render failed for good). */
export const undrawableSql = sql`EXISTS (SELECT 1 FROM image_jobs j WHERE j.file_id = p.file_id AND j.version = p.version
  AND j.attempts >= ${MAX_ATTEMPTS} AND (j.locked_until IS NULL OR j.locked_until < now()))`;

/** Whether the plot's current version could not be drawn. */
export async function isUndrawable(db: Db, fileId: number): Promise<boolean> {
  const [row] = await queryRows<{ undrawable: boolean }>(db, sql`SELECT ${undrawableSql} AS undrawable FROM plots p WHERE p.file_id = ${fileId}`);
  return row?.undrawable ?? false;
}

/**
 * Columns `types` and `subplots` (JSON arrays) of the plot `p`: its traces' types (frames' typed
 * traces too) and its layout's subplot keys, read in the database so that nothing parses the figure.
 */
export const figureKindsSql = sql`to_json(ARRAY(SELECT ${traceTypeSql(sql`e`)}
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.figure->'data') = 'array' THEN p.figure->'data' ELSE '[]'::jsonb END) e
      UNION
      SELECT ${namedTraceTypeSql(sql`e`)}
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.figure->'frames') = 'array' THEN p.figure->'frames' ELSE '[]'::jsonb END) fr,
           jsonb_array_elements(CASE WHEN jsonb_typeof(fr->'data') = 'array' THEN fr->'data' ELSE '[]'::jsonb END) e
      WHERE ${namedTraceTypeSql(sql`e`)} IS NOT NULL))::text AS types,
    to_json(ARRAY(SELECT k FROM jsonb_object_keys(CASE WHEN jsonb_typeof(p.figure->'layout') = 'object' THEN p.figure->'layout' ELSE '{}'::jsonb END) k
      WHERE ${bundleSubplotSql(sql`k`)}))::text AS subplots`;

/** A figure's trace types and subplot keys, from the columns of figureKindsSql. */
export const figureKinds = (row: { types: string; subplots: string }) => ({
  types: JSON.parse(row.types) as string[],
  subplots: JSON.parse(row.subplots) as string[],
});

/** How a page shows the plot's chart: drawn at once, drawn when the visitor asks (many values),
 * drawn at once by the view (many values in long line or scatter traces: lib/core/plots/plot-views.ts),
 * or never (its render failed for good: drawing it would freeze the tab). */
export type ChartMode = 'live' | 'on-request' | 'static' | 'reduced';

/**
 * How a page draws the plot's chart (before lib/core/plots/plot-views.ts's pageChart says whether
 * one of many values is drawn by the view): its mode, and the plotly.js bundle to load for it, from the
 * figure's trace types (frames' typed traces too) and layout subplots, read in the database so the
 * page never parses the figure.
 */
export async function chartView(db: Db, fileId: number): Promise<{ mode: ChartMode; bundle: PlotlyBundle }> {
  const [row] = await queryRows<{ undrawable: boolean; values: string | number; bytes: string | number; types: string; subplots: string }>(
    db,
    sql`SELECT ${undrawableSql} AS undrawable, p.data_values AS values, p.data_bytes AS bytes,
          ${figureKindsSql}
        FROM plots p WHERE p.file_id = ${fileId}`,
  );
  if (!row) return { mode: 'static', bundle: 'full' };
  const size = { values: Number(row.values), bytes: Number(row.bytes) };
  // A render refused for the data's size says nothing of whether a browser can draw it.
  const mode = row.undrawable && size.bytes <= MAX_RENDERED_BYTES ? 'static' : drawsLive(size) && !row.undrawable ? 'live' : 'on-request';
  const { types, subplots } = figureKinds(row);
  return { mode, bundle: plotlyBundle(types, subplots) };
}

/** The owner's plots whose current version could not be drawn, newest first (at most 100). */
export async function listUndrawablePlots(db: Db, ownerId: number): Promise<{ n: number; filename: string }[]> {
  return queryRows(
    db,
    sql`SELECT f.n, f.filename FROM image_jobs j JOIN plots p ON p.file_id = j.file_id JOIN files f ON f.id = j.file_id
        WHERE j.owner_id = ${ownerId} AND f.trashed_at IS NULL AND j.version = p.version
          AND j.attempts >= ${MAX_ATTEMPTS} AND (j.locked_until IS NULL OR j.locked_until < now())
        ORDER BY f.created_at DESC LIMIT 100`,
  );
}

const placeholders = new Map<string, Promise<Buffer>>();
function placeholder(size: ImageSize, state: 'pending' | 'failed'): Promise<Buffer> {
  const name = state === 'failed' ? `failed-${size}` : size;
  let png = placeholders.get(name);
  if (!png) {
    png = readFile(path.join(/*turbopackIgnore: true*/ process.cwd(), 'public/placeholders', `${name}.png`));
    placeholders.set(name, png);
  }
  return png;
}

/** What a plot's image is now: its stored PNG, or a placeholder while it is pending (not rendered
 * yet) or after its render failed for good. */
export type PlotImage =
  | { state: 'rendered'; size: ImageSize; png: Uint8Array; version: number; public: boolean }
  | { state: 'pending' | 'failed'; png: Buffer };

/**
 * The image of a plot the requester may read, at `size`. A pending image is asked for (a render
 * queued) each time, so a plot whose job was held back past MAX_QUEUED_PER_OWNER gets its turn.
 */
// (The file by its two fields: all this reads of it.)
export async function plotImage(db: Db, file: { id: number; worldReadable: boolean }, size: ImageSize): Promise<PlotImage> {
  const image = await getPlotImage(db, file.id, size);
  if (image) return { state: 'rendered', size, png: image.png, version: image.version, public: file.worldReadable };
  const state = (await isUndrawable(db, file.id)) ? 'failed' : 'pending';
  if (state === 'pending') await requestImages(db, file.id);
  return { state, png: await placeholder(size, state) };
}
