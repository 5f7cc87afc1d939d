// What concerns a person, told in the header, on /notifications and, with mail configured, by mail: a
// comment on their plot, a comment on a plot they commented on, a file shared with them. Written in
// the transaction of the event, never for one's own action, never to someone who blocked the actor or
// cannot read the file; and shown only while they still can. At most NOTIFICATIONS_PER_PERSON each.
// Mail goes through an outbox (notifications.mail_pending): the event's request only marks the row,
// a delivery after its answer claims it, so a mail server that is down fails no comment or share.
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { mailSettings, sendMail, type MailSettings } from '../accounts/mail';
import { canReadSql, type Collaboration } from '../permissions';
import { isoText } from '../records';
import type { Filetype } from './files';
import { filePath, sharedPath } from '@/lib/shared/urls';

/** Notifications kept per person: a new one past it removes their oldest. */
export const NOTIFICATIONS_PER_PERSON = 100;
/** Earlier commenters of a plot told of a new comment: the most recent ones. */
export const REPLY_FANOUT = 20;
/**
 * Mails a person is sent in an hour at most: past it, what happens is listed but not mailed, so no one
 * can fill another's inbox by sharing or commenting in a loop (their notifications in the last hour count).
 */
export const MAILS_PER_PERSON_HOUR = 10;
/** Mails one delivery sends at most (the rest wait for the next). */
const MAIL_BATCH = 50;

export type NotificationKind = 'comment' | 'reply' | 'share';

/** The recipient (column `r.user_id`) may read the file `f` and is told about `actorId`'s doings. */
const tellable = (actorId: number) => sql`r.user_id <> ${actorId}::int AND u.is_active AND f.trashed_at IS NULL AND ${canReadSql('f', sql`r.user_id`)}
  AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.user_id = r.user_id AND b.blocked_id = ${actorId}::int)`;

/** Writes one notification per recipient (`recipients` selects user_id, kind) and keeps each person's newest. */
async function notify(tx: Db, fileId: number, actorId: number, recipients: SQL, permission: Collaboration | null = null): Promise<number[]> {
  const mail = mailSettings() !== null;
  const rows = await queryRows<{ user_id: number }>(
    tx,
    sql`INSERT INTO notifications (user_id, actor_id, kind, file_id, permission, mail_pending)
        SELECT r.user_id, ${actorId}::int, r.kind, f.id, ${permission}::text,
               ${mail}::boolean AND u.notify_by_email AND u.email <> '' AND u.email_confirmed_at IS NOT NULL
                 AND (SELECT count(*) FROM notifications m
                      WHERE m.user_id = r.user_id AND m.created_at > now() - interval '1 hour') < ${MAILS_PER_PERSON_HOUR}
        FROM (${recipients}) r JOIN users u ON u.id = r.user_id JOIN files f ON f.id = ${fileId}::bigint
        WHERE ${tellable(actorId)}
        RETURNING user_id`,
  );
  const told = rows.map((r) => Number(r.user_id));
  if (told.length) {
    const people = sql.join(
      told.map((id) => sql`(${id}::int)`),
      sql`, `,
    );
    await tx.execute(sql`DELETE FROM notifications WHERE id IN (
      SELECT old.id FROM (VALUES ${people}) p(user_id) CROSS JOIN LATERAL (
        SELECT id FROM notifications n WHERE n.user_id = p.user_id ORDER BY n.created_at DESC, n.id DESC OFFSET ${NOTIFICATIONS_PER_PERSON}) old)`);
  }
  return told;
}

/**
 * A new comment by `actorId` on the plot `fileId` (in the comment's transaction): its owner is told
 * ("comment"), and so are the REPLY_FANOUT people who commented on it most recently ("reply").
 */
export function notifyComment(tx: Db, fileId: number, actorId: number): Promise<number[]> {
  return notify(
    tx,
    fileId,
    actorId,
    sql`SELECT owner_id AS user_id, 'comment' AS kind FROM files WHERE id = ${fileId}::bigint
        UNION ALL
        (SELECT cm.author_id, 'reply' FROM comments cm
         WHERE cm.file_id = ${fileId}::bigint AND cm.author_id <> ${actorId}::int
           AND cm.author_id <> (SELECT owner_id FROM files WHERE id = ${fileId}::bigint)
         GROUP BY cm.author_id ORDER BY max(cm.created_at) DESC LIMIT ${REPLY_FANOUT})`,
  );
}

/**
 * The file `fileId` newly shared by `actorId` with `userId` (in the share's transaction). Shared again
 * while its notification is unread (taken back and given again), that one says the new permission
 * instead of a second one.
 */
export async function notifyShare(tx: Db, fileId: number, actorId: number, userId: number, permission: Collaboration): Promise<number[]> {
  const unread = await queryRows<{ id: number }>(
    tx,
    sql`UPDATE notifications SET permission = ${permission}::text
        WHERE user_id = ${userId}::int AND file_id = ${fileId}::bigint AND actor_id = ${actorId}::int AND kind = 'share' AND read_at IS NULL
        RETURNING id`,
  );
  if (unread.length) return [];
  return notify(tx, fileId, actorId, sql`SELECT ${userId}::int AS user_id, 'share' AS kind`, permission);
}

/** SQL: the person's notifications `n` whose file `f` they may still read. */
const visible = (userId: number | SQL) => sql`n.user_id = ${userId}::int AND f.trashed_at IS NULL AND ${canReadSql('f', userId)}`;

/** The header's number: unread notifications (at most NOTIFICATIONS_PER_PERSON, on notifications_user_unread_idx). */
export async function countUnreadNotifications(db: Db, userId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM notifications n JOIN files f ON f.id = n.file_id WHERE n.read_at IS NULL AND ${visible(userId)}`,
  );
  return Number(row?.n ?? 0);
}

export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  permission: Collaboration | null;
  actor: string;
  owner: string;
  n: number;
  filetype: Filetype;
  /** A plot's title, else the file's name. */
  name: string;
  created: string;
  unread: boolean;
}

/** Joins a notifications row set `n` to what a list or a mail says of it. */
const described = (from: SQL) => sql`n.kind, n.permission, a.username AS actor, o.username AS owner, f.n, f.filetype,
  coalesce(nullif(p.title, ''), f.filename) AS name
  FROM ${from} JOIN users a ON a.id = n.actor_id JOIN files f ON f.id = n.file_id JOIN users o ON o.id = f.owner_id
  LEFT JOIN plots p ON p.file_id = f.id`;

/** The person's notifications, newest first (all of them: at most NOTIFICATIONS_PER_PERSON). */
export async function listNotifications(db: Db, userId: number): Promise<NotificationItem[]> {
  const rows = await queryRows<NotificationItem & { id: string }>(
    db,
    sql`SELECT n.id, ${isoText(sql`n.created_at`, 'millis')} AS created, n.read_at IS NULL AS unread, ${described(sql`notifications n`)}
        WHERE ${visible(userId)} ORDER BY n.created_at DESC, n.id DESC LIMIT ${NOTIFICATIONS_PER_PERSON}`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), n: Number(r.n) }));
}

/** Opens one of the person's notifications: it is read from now; its file, or null (not theirs, or the file is no longer theirs to read). */
export async function openNotification(db: Db, userId: number, id: number): Promise<{ owner: string; n: number; filetype: Filetype } | null> {
  const [row] = await queryRows<{ owner: string; n: number; filetype: Filetype }>(
    db,
    sql`WITH opened AS (UPDATE notifications SET read_at = coalesce(read_at, now()) WHERE id = ${id}::bigint AND user_id = ${userId}::int RETURNING *)
        SELECT o.username AS owner, f.n, f.filetype FROM opened n JOIN files f ON f.id = n.file_id JOIN users o ON o.id = f.owner_id
        WHERE ${visible(userId)}`,
  );
  return row ? { ...row, n: Number(row.n) } : null;
}

/** "Mark all as read": how many were unread. */
export async function markAllNotificationsRead(db: Db, userId: number): Promise<number> {
  const rows = await queryRows(db, sql`UPDATE notifications SET read_at = now() WHERE user_id = ${userId}::int AND read_at IS NULL RETURNING id`);
  return rows.length;
}

/** The person's setting: mail about comments and shares (to a confirmed address). */
export async function setNotifyByEmail(db: Db, userId: number, on: boolean): Promise<void> {
  await db.execute(sql`UPDATE users SET notify_by_email = ${on}::boolean WHERE id = ${userId}::int`);
}

/** Where a notification leads: the file's page, a shared folder's list. */
export const notificationTarget = (file: { owner: string; n: number; filetype: Filetype }) =>
  file.filetype === 'fold' ? sharedPath(file) : filePath(file.owner, file.n);

const KIND_OF: Record<Filetype, string> = { plot: 'plot', grid: 'grid', fold: 'folder', dashboard: 'dashboard', spectacle_presentation: 'presentation' };

type Told = Omit<NotificationItem, 'id' | 'created' | 'unread'>;

/** What happened, in a sentence without its full stop: the list's words and a mail's subject. */
export function notificationSentence(item: Told): string {
  const what = `${KIND_OF[item.filetype] ?? 'file'} “${item.name}”`;
  if (item.kind === 'comment') return `${item.actor} commented on your ${what}`;
  if (item.kind === 'reply') return `${item.actor} also commented on ${item.owner}’s ${what}`;
  return `${item.actor} shared the ${what} with you to ${item.permission === 'write' ? 'edit' : 'view'}`;
}

/** What a mail says of one notification. */
export function notificationMail(item: Told, origin: string): { subject: string; text: string } {
  const subject = notificationSentence(item);
  return {
    subject,
    text: [
      `${subject}:`,
      '',
      `${origin}${notificationTarget(item)}`,
      '',
      `Your notifications: ${origin}/notifications`,
      `To stop these mails, untick “Email me about comments and shares” at ${origin}/settings.`,
    ].join('\n'),
  };
}

/**
 * Sends the mail the outbox holds (any process may: each row is claimed once, FOR UPDATE SKIP LOCKED),
 * to people who still take it at a confirmed address and may still read the file. A mail the server
 * refuses is logged, not retried: the notification itself stays on /notifications. Answers how many were
 * sent; never rejects (it runs after an answer, where nobody could take the error).
 */
export async function deliverNotificationMail(db: Db, settings: MailSettings | null = mailSettings()): Promise<number> {
  if (!settings) return 0;
  try {
    return await deliverBatches(db, settings);
  } catch (error) {
    console.error('Notification mail not sent:', (error as Error).message);
    return 0;
  }
}

async function deliverBatches(db: Db, settings: MailSettings): Promise<number> {
  let sent = 0;
  for (;;) {
    const claimed = await queryRows<{ id: string }>(
      db,
      sql`UPDATE notifications SET mail_pending = false
          WHERE id IN (SELECT id FROM notifications WHERE mail_pending ORDER BY id LIMIT ${MAIL_BATCH} FOR UPDATE SKIP LOCKED) RETURNING id`,
    );
    if (!claimed.length) return sent;
    const ids = sql.join(
      claimed.map((r) => sql`${Number(r.id)}::bigint`),
      sql`, `,
    );
    const batch = await queryRows<Told & { email: string }>(
      db,
      sql`SELECT u.email, ${described(sql`notifications n`)} JOIN users u ON u.id = n.user_id
          WHERE n.id IN (${ids}) AND u.notify_by_email AND u.email <> '' AND u.email_confirmed_at IS NOT NULL AND u.is_active
            AND ${visible(sql`n.user_id`)}`,
    );
    for (const item of batch) {
      try {
        await sendMail(settings, { to: item.email, ...notificationMail(item, settings.origin) });
        sent++;
      } catch (error) {
        console.error('Notification mail not sent:', (error as Error).message);
      }
    }
    if (claimed.length < MAIL_BATCH) return sent;
  }
}
