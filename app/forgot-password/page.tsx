import type { Metadata } from 'next';
import Link from 'next/link';
import { RESET_MINUTES } from '@/lib/core/accounts/password-resets';
import { passwordResetOpen } from '@/lib/web/sign-in';

export const metadata: Metadata = { title: 'Forgot password' };
export const dynamic = 'force-dynamic';

export default async function ForgotPasswordPage({ searchParams }: { searchParams: Promise<{ sent?: string; error?: string }> }) {
  if (!passwordResetOpen()) return <AskTheOperator />;
  const { sent, error } = await searchParams;
  const invalid = error === 'email';
  return (
    <main className="narrow">
      <h1>Forgot password</h1>
      {sent ? (
        <p className="notice" role="status">
          If an account uses that address, we sent a link to it. The link works once, within {RESET_MINUTES} minutes. No mail? Check your spam folder, or ask
          again in a while.
        </p>
      ) : (
        <p className="muted">Enter the email address of your account: we mail you a link to choose a new password.</p>
      )}
      <form method="post" action="/forgot-password/submit" className="form">
        <label>
          Email
          <input
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? 'email-error' : undefined}
          />
        </label>
        {invalid && (
          <p id="email-error" role="alert" className="form-error">
            Enter a valid email address.
          </p>
        )}
        <button type="submit">{sent ? 'Send another link' : 'Send me a link'}</button>
      </form>
      <p className="muted">
        Remembered it? <Link href="/signin">Sign in</Link>.
      </p>
    </main>
  );
}

/** Without mail, the way back is the operator's: say so, with the command they run. */
function AskTheOperator() {
  return (
    <main className="narrow">
      <h1>Forgot password</h1>
      <p>
        This server sends no mail, so a new password comes from the person who runs it. Ask them to run{' '}
        <code>npm run user:reset-password -- your-username</code>: it gives you a new password, or with <code>--link</code> a one-time link where you choose
        one. Your API key keeps working meanwhile, and you can sign in with it.
      </p>
      <p className="muted">
        Remembered it? <Link href="/signin">Sign in</Link>.
      </p>
    </main>
  );
}
