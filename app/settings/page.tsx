import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ApiKeyForm, NotificationsForm, PasswordForm, ProfileForm } from '@/components/settings-forms';
import { mailSettings } from '@/lib/core/accounts/mail';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/lib/shared/limits';
import { profilePath, signInFirst } from '@/lib/shared/urls';
import { getUserById } from '@/lib/core/accounts/users';
import { bytesText, storageOf } from '@/lib/core/accounts/storage';
import { signedInPage } from '@/lib/web/page-context';
import {
  changePasswordAction,
  deleteStreamTokenAction,
  newApiKeyAction,
  newStreamTokenAction,
  saveNotificationsAction,
  saveProfileAction,
} from '@/app/_actions/settings';
import { StreamTokens } from '@/components/stream-tokens';
import { listStreamTokens } from '@/lib/core/streams/stream-tokens';
import { STREAM_LIMITS } from '@/lib/shared/streams';

export const metadata: Metadata = { title: 'Settings' };
export const dynamic = 'force-dynamic';

export default async function SettingsPage({ searchParams }: { searchParams: Promise<{ welcome?: string; confirm?: string }> }) {
  const { db, viewer, origin, csrf } = await signedInPage('/settings');
  const user = await getUserById(db, viewer.id);
  // An account deleted since its session was read: signing in again is all there is.
  if (!user) redirect(signInFirst('/settings'));
  const { welcome, confirm } = await searchParams;
  const unconfirmed = user.email !== '' && user.emailConfirmedAt === null;
  const storage = await storageOf(db, viewer.id);
  return (
    <main className="narrow settings">
      <h1>Settings</h1>
      {welcome && (
        <p className="notice" role="status">
          Welcome, {user.username}! Your account is ready. To use the Python or R client, make your API key below.
        </p>
      )}
      <p className="muted">
        Signed in as <Link href={profilePath(user.username)}>~{user.username}</Link>
        {user.email && <> ({user.email})</>}.
      </p>
      <p className="muted">
        Storage: {bytesText(storage.used)}
        {storage.bound > 0 && <> of {bytesText(storage.bound)}</>} used (your files, trash included).
      </p>
      {unconfirmed && (
        <section className="notice" aria-labelledby="confirm-heading">
          <h2 id="confirm-heading">Confirm your address</h2>
          <p>{user.email} is not confirmed yet: until you open the link we mailed to it, it receives no password reset mail and does not sign you in.</p>
          {confirm === 'sent' && <p role="status">If the address takes mail, a new link is on its way (a few an hour at most).</p>}
          {mailSettings() && (
            <form method="post" action="/confirm-email/resend">
              <button type="submit" className="secondary">
                Send the link again
              </button>
            </form>
          )}
        </section>
      )}

      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <p className="muted">Shown on your profile page.</p>
        <ProfileForm action={saveProfileAction} csrf={csrf} profile={{ nickname: user.nickname, bio: user.bio, website: user.website }} />
      </section>

      <section aria-labelledby="notifications-heading">
        <h2 id="notifications-heading">Notifications</h2>
        <p className="muted">
          Comments on your plots and on plots you commented on, and files shared with you, are listed on <Link href="/notifications">Notifications</Link>.
        </p>
        <NotificationsForm action={saveNotificationsAction} csrf={csrf} byEmail={user.notifyByEmail} note={mailNote(user, mailSettings() !== null)} />
      </section>

      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <p className="muted">
          {user.passwordHash === null
            ? 'Your account has no password yet: set one to sign in with it instead of your API key.'
            : 'Changing it signs you out everywhere else.'}
        </p>
        <PasswordForm action={changePasswordAction} csrf={csrf} hasPassword={user.passwordHash !== null} length={{ min: PASSWORD_MIN, max: PASSWORD_MAX }} />
      </section>

      <section aria-labelledby="key-heading">
        <h2 id="key-heading">API key</h2>
        <p className="muted">
          The Python (<code>chart_studio</code>) and R (<code>plotly</code>) clients sign in with your username and API key. The key is stored only as a hash,
          so it is shown once, when it is made. Configure the clients for this server with:
        </p>
        <ApiKeyForm action={newApiKeyAction} csrf={csrf} origin={origin} username={user.username} first={user.apiKeyGivenAt === null} />
      </section>

      <section aria-labelledby="streams-heading">
        <h2 id="streams-heading">Stream tokens</h2>
        <p className="muted">
          A trace with{' '}
          <code>
            stream: {'{'}token, maxpoints{'}'}
          </code>{' '}
          draws what chart_studio&rsquo;s <code>Stream</code> writes with that token, live on every page that shows it. At most {STREAM_LIMITS.tokensPerPerson}.
        </p>
        <StreamTokens
          tokens={await listStreamTokens(db, viewer.id)}
          create={newStreamTokenAction}
          remove={deleteStreamTokenAction}
          csrf={csrf}
          streamingDomain={process.env.STREAM_HOST?.trim() || null}
          max={STREAM_LIMITS.tokensPerPerson}
        />
      </section>
    </main>
  );
}

/** Where mail about comments and shares goes, or why none does. */
function mailNote(user: { email: string; emailConfirmedAt: Date | string | null }, mailOn: boolean): string {
  if (!mailOn) return 'This server sends no mail; the setting counts once it does.';
  if (!user.email) return 'Your account has no email address, so no mail is sent.';
  if (!user.emailConfirmedAt) return `Mail goes to ${user.email} once you confirm it.`;
  return `Mail goes to ${user.email}.`;
}
