// What every app process shares beyond the files: settings, rate-limit counters and leases.
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './column-types';

/** Process-independent settings, e.g. the secret that signs page cursors. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Fixed-window request counters for rate limiting, shared by every app process. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});

/**
 * Slots held by work in flight (e.g. `render:{user}:{slot}` for image exports), shared by every app
 * process: a holder inserts its row, deletes it when done, and a row past `expires_at` (its holder
 * died) may be taken over.
 */
export const leases = pgTable('leases', {
  key: text('key').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: ts('expires_at').notNull(),
});
