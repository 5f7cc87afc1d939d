// /notifications and the header's count (lib/core/files/notifications.ts holds the rules). An item is
// read once its link is followed (/notifications/{id}), or with "Mark all as read": looking at the list
// marks nothing, so what is new stays marked until the person has been to it or said they are done,
// as mail and GitHub's notifications do. The links are plain page loads, so the header's count is
// drawn afresh on the page they lead to.
import 'server-only';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { sessionToken, sessionViewer } from '@/lib/core/accounts/sessions';
import { getDb } from '@/lib/core/database';
import { listNotifications, markAllNotificationsRead, notificationSentence, notificationTarget, openNotification } from '@/lib/core/files/notifications';
import { signInFirst } from '@/lib/shared/urls';
import { formAction } from './forms';
import type { SignedInContext } from './page-context';
import { relativeAge } from './plot-cards';
import { seeOther } from './sign-in';

export const NOTIFICATIONS_PATH = '/notifications';

export interface NotificationView {
  id: number;
  /** "bob commented on your plot “Rain”". */
  sentence: string;
  /** Where following it goes: through /notifications/{id}, which marks it read. */
  href: string;
  created: string;
  /** "3 hours ago". */
  age: string;
  unread: boolean;
}

/** The signed-in person's notifications as the page shows them. */
export async function loadNotifications(ctx: SignedInContext): Promise<NotificationView[]> {
  const now = Date.now();
  return (await listNotifications(ctx.db, ctx.viewer.id)).map((item) => ({
    id: item.id,
    sentence: notificationSentence(item),
    href: `${NOTIFICATIONS_PATH}/${item.id}`,
    created: item.created,
    age: relativeAge(item.created, now),
    unread: item.unread,
  }));
}

/** GET /notifications/{id}: marks it read and goes to its file; one that is gone (or not the person's) goes back to the list. */
export async function openNotificationRequest(req: Request, rawId: string): Promise<Response> {
  const db = await getDb();
  const token = sessionToken(req.headers.get('cookie'));
  const user = token ? await sessionViewer(db, token) : null;
  if (!user) return seeOther(signInFirst(NOTIFICATIONS_PATH));
  const id = /^[1-9][0-9]{0,15}$/.test(rawId) ? Number(rawId) : 0;
  const file = Number.isSafeInteger(id) && id > 0 ? await openNotification(db, user.id, id) : null;
  return seeOther(file ? notificationTarget(file) : NOTIFICATIONS_PATH);
}

/** "Mark all as read": the header's count drawn again with the page. */
export const markAllReadForm = formAction(z.object({}), async (_input, { db, viewer }) => {
  const marked = await markAllNotificationsRead(db, viewer.id);
  revalidatePath('/', 'layout');
  return marked ? 'All marked as read.' : 'Nothing was unread.';
});
