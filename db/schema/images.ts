// Plot images: the rendered PNGs and the queue of plots still to render.
import { bigint, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { ts, bytea } from './column-types';
import { files } from './files';

/** Rendered PNGs, keyed by plot and figure version, so an update never serves an older image. */
export const plotImages = pgTable(
  'plot_images',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    size: text('size', { enum: ['default', 'block-thumb', 'list-thumb', 'card'] }).notNull(),
    png: bytea('png').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.version, t.size] })],
);

/**
 * The image render queue: one row per plot whose current version still needs images. Workers in any
 * process claim rows with FOR UPDATE SKIP LOCKED and a lease (locked_until), so a worker that dies
 * mid-render only delays its job.
 */
export const imageJobs = pgTable(
  'image_jobs',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    // The plot's owner: jobs are taken round robin across owners (see turn), and each owner may have
    // only so many queued.
    ownerId: integer('owner_id').notNull(),
    // The job's place in a round robin: an owner's k-th queued job gets the lowest turn still queued
    // plus k, and jobs are taken by turn, then oldest first. One owner's bulk of jobs cannot starve
    // another's single one.
    turn: bigint('turn', { mode: 'number' }).notNull().default(0),
    version: integer('version').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    runAfter: ts('run_after').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('image_jobs_turn_idx').on(t.turn, t.createdAt, t.fileId), index('image_jobs_owner_idx').on(t.ownerId)],
);
