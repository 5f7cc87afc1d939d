import type { Metadata } from 'next';
import { ActionForm } from '@/components/action-form';
import { CsrfField } from '@/components/csrf-field';
import { NOTIFICATIONS_PER_PERSON } from '@/lib/core/files/notifications';
import { loadNotifications, NOTIFICATIONS_PATH } from '@/lib/web/notifications';
import { signedInPage } from '@/lib/web/page-context';
import { markAllReadAction } from '@/app/_actions/notifications';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Notifications', robots: { index: false, follow: false } };

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

// `/notifications`: comments on the person's plots and on plots they commented on, and files shared with
// them, newest first; each links (through /notifications/{id}, which marks it read) to its file.
export default async function NotificationsPage() {
  const ctx = await signedInPage(NOTIFICATIONS_PATH);
  const items = await loadNotifications(ctx);
  const unread = items.filter((item) => item.unread).length;
  return (
    <main className="narrow notifications-page">
      <div className="notifications-head">
        <h1>Notifications</h1>
        {unread > 0 && <ActionForm action={markAllReadAction} submit="Mark all as read" fields={<CsrfField token={ctx.csrf} />} />}
      </div>
      <p className="muted">
        Comments on your plots and on plots you commented on, and files shared with you: the latest {NOTIFICATIONS_PER_PERSON}. Following one marks it read.
      </p>
      {items.length ? (
        <ol className="notification-list">
          {items.map((item) => (
            <li key={item.id} className={item.unread ? 'notification unread' : 'notification'}>
              {item.unread && <span className="badge">New</span>}
              <a href={item.href}>
                {item.unread && <span className="visually-hidden">Unread: </span>}
                {item.sentence}
              </a>
              <time dateTime={item.created} title={`${dateFormat.format(new Date(item.created))} UTC`} className="muted">
                {item.age}
              </time>
            </li>
          ))}
        </ol>
      ) : (
        <div className="empty-state">
          <p>Nothing yet. When someone comments on your plots or shares a file with you, it shows here.</p>
        </div>
      )}
    </main>
  );
}
