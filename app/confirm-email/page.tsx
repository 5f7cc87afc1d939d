import type { Metadata } from 'next';
import Link from 'next/link';
import { openEmailConfirmation } from '@/lib/core/accounts/email-confirmations';
import { pageContext } from '@/lib/web/page-context';

export const metadata: Metadata = { title: 'Confirm your address', robots: { index: false, follow: false } };
export const dynamic = 'force-dynamic';

// `/confirm-email?token=…`: a mailed link's page. Opening it confirms nothing (mail scanners open
// links): the person presses "Confirm", which posts the token.
export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<{ token?: string; done?: string }> }) {
  const { token, done } = await searchParams;
  if (done) {
    return (
      <main className="narrow">
        <h1>Address confirmed</h1>
        <p>
          It is your account&apos;s now: you can sign in with it and ask for a new password by mail. <Link href="/settings">Settings</Link>
        </p>
      </main>
    );
  }
  const { db } = await pageContext();
  const link = typeof token === 'string' ? await openEmailConfirmation(db, token) : null;
  if (!link) {
    return (
      <main className="narrow">
        <h1>This link no longer works</h1>
        <p>
          The link has expired or was already used. Sign in and ask for a new one on your <Link href="/settings">settings</Link> page.
        </p>
      </main>
    );
  }
  return (
    <main className="narrow">
      <h1>Confirm your address</h1>
      <p>
        Confirm that <strong>{link.email}</strong> is the address of the account <strong>{link.username}</strong>. If you did not make that account, do not
        confirm: close this page and the account never gets your address.
      </p>
      <form method="post" action="/confirm-email/submit" className="form">
        <input type="hidden" name="token" value={token} />
        <button type="submit">Confirm</button>
      </form>
    </main>
  );
}
