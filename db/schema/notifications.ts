// What people are told about (lib/core/files/notifications.ts): a comment on their plot or on a plot
// they commented on, a file shared with them. Written in the transaction of the event; kept to the
// newest NOTIFICATIONS_PER_PERSON per person.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './column-types';
import { users } from './accounts';
import { files } from './files';

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // Who is told.
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Who did it.
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // comment: on your plot; reply: on a plot you commented on; share: a file shared with you.
    kind: text('kind', { enum: ['comment', 'reply', 'share'] }).notNull(),
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    // A share's permission (read or write); null for comments.
    permission: text('permission', { enum: ['read', 'write'] }),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
    // The outbox: set when written for someone who takes mail, cleared by the delivery that claims it.
    mailPending: boolean('mail_pending').notNull().default(false),
  },
  (t) => [
    // The list (newest first) and the pruning of the oldest.
    index('notifications_user_newest_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    // The header's unread count.
    index('notifications_user_unread_idx').on(t.userId).where(sql`${t.readAt} IS NULL`),
    // The mail outbox.
    index('notifications_mail_pending_idx').on(t.id).where(sql`${t.mailPending}`),
    check('notifications_kind_check', sql`${t.kind} IN ('comment', 'reply', 'share')`),
  ],
);
