import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { avatarPath, NEW_CHART_PATH, profilePath } from '@/lib/shared/urls';
import { pageContext } from '@/lib/web/page-context';
import { signUpOpen } from '@/lib/web/sign-in';
import { countUnreadNotifications } from '@/lib/core/files/notifications';
// The site's styles by feature, in cascade order (a later file's rules win over an earlier one's of equal weight);
// a component that owns its styles imports them itself.
import './_styles/base.css';
import './_styles/charts.css';
import './_styles/file-pages.css';
import './_styles/plot-lists.css';
import './_styles/workspace.css';
import './_styles/owner-forms.css';
import './_styles/settings.css';
import './_styles/data-import.css';
import './_styles/versions.css';
import './_styles/comments.css';
import './_styles/people.css';

export const metadata: Metadata = {
  title: { default: 'Plot Files', template: '%s · Plot Files' },
  description: 'A self-hosted home for Plotly charts: a public gallery and the Chart Studio v2 API.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#3b5bdb' };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const { db, viewer } = await pageContext();
  // The header's one query (an indexed count, bounded per person): signed-in pages only.
  const unread = viewer ? await countUnreadNotifications(db, viewer.id) : 0;
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#content">
          Skip to content
        </a>
        <header className="site-header">
          <nav aria-label="Main" className="site-nav">
            <Link href="/" className="brand">
              <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24">
                <path d="M3 20h18M6 16v-5M11 16V6M16 16v-8M21 16v-3" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" fill="none" />
              </svg>
              Plot Files
            </Link>
            <Link href="/">Gallery</Link>
            <Link href="/feed">Feed</Link>
            <Link href="/docs/api">API</Link>
            <span className="spacer" />
            {viewer ? (
              <>
                <Link href={NEW_CHART_PATH} className="new-chart">
                  New chart
                </Link>
                <Link href={profilePath(viewer.username)} className="me">
                  <img src={avatarPath(viewer.username)} alt="" width={24} height={24} />
                  {viewer.username}
                </Link>
                <Link href="/notifications" className="notifications-link" aria-label={unread ? `Notifications, ${unread} unread` : undefined}>
                  Notifications
                  {unread > 0 && <span className="count">{unread}</span>}
                </Link>
                <Link href="/settings">Settings</Link>
                <form method="post" action="/signout">
                  <button type="submit" className="link-button">
                    Sign out
                  </button>
                </form>
              </>
            ) : (
              <>
                {signUpOpen() && <Link href="/signup">Sign up</Link>}
                <Link href="/signin">Sign in</Link>
              </>
            )}
          </nav>
        </header>
        <div id="content">{children}</div>
        <footer className="site-footer">
          <p>
            Plot Files · the Chart Studio v2 API at <code>/v2/</code> (<Link href="/docs/api">API reference</Link>) · point <code>chart_studio</code> or R{' '}
            <code>plotly</code> here
          </p>
        </footer>
      </body>
    </html>
  );
}
