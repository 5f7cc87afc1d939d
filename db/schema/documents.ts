// Dashboards and presentations: their content as their client sent it.
import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { files } from './files';

/**
 * A dashboard's or a presentation's content (lib/core/documents/dashboards.ts): the JSON text exactly as its
 * client sent it (answers return it as sent), its size, and a version bumped on every change (keys
 * its card image).
 */
export const documents = pgTable('documents', {
  fileId: bigint('file_id', { mode: 'number' })
    .primaryKey()
    .references(() => files.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  contentBytes: integer('content_bytes').notNull(),
  version: integer('version').notNull().default(1),
});
