// Live streams (chart_studio's `Stream`): a person's stream tokens, and what was streamed to each
// (kept apart from the plots' figures, so a write never rewrites a figure or a grid).
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './column-types';
import { users } from './accounts';

export const streamTokens = pgTable(
  'stream_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Kept as given: the owner lists it on /settings and writes it into figures (`stream.token`).
    token: text('token').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stream_tokens_token_idx').on(t.token), index('stream_tokens_user_idx').on(t.userId)],
);

/** The streamed values of one token: `trace` holds the keys written (arrays capped to maxpoints), `layout` the layout updates. */
export const streamStates = pgTable('stream_states', {
  tokenId: bigint('token_id', { mode: 'number' })
    .primaryKey()
    .references(() => streamTokens.id, { onDelete: 'cascade' }),
  trace: jsonb('trace').notNull().default(sql`'{}'::jsonb`),
  layout: jsonb('layout').notNull().default(sql`'{}'::jsonb`),
  // Writes applied so far: each notice says the number of its first write, so a page that read the
  // state skips the writes it already holds.
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
