import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { openPasswordReset } from '@/lib/core/accounts/password-resets';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/lib/shared/limits';
import { pageContext } from '@/lib/web/page-context';
import { RESET_ERRORS } from '@/lib/web/sign-in';

export const metadata: Metadata = { title: 'Choose a new password' };
export const dynamic = 'force-dynamic';

// The form a working reset link opens (/reset-password sends it here, and answers 410 for the rest).
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string; error?: string }> }) {
  const { token, error } = await searchParams;
  const { db } = await pageContext();
  const reset = typeof token === 'string' ? await openPasswordReset(db, token) : null;
  // Used, expired or unknown (or spent since the link was opened): the link's own URL answers its 410.
  if (!reset) redirect(`/reset-password?token=${encodeURIComponent(typeof token === 'string' ? token : '')}`);
  const problem = typeof error === 'string' && Object.hasOwn(RESET_ERRORS, error) ? RESET_ERRORS[error] : null;
  const at = (field: string, hint?: string) => {
    const here = problem?.field === field;
    const describedBy = [hint, here && `${field}-error`].filter(Boolean).join(' ');
    return {
      input: { 'aria-invalid': here || undefined, 'aria-describedby': describedBy || undefined },
      message: here ? (
        <p id={`${field}-error`} role="alert" className="form-error">
          {problem.message}
        </p>
      ) : null,
    };
  };
  const password = at('password', 'password-hint');
  const password2 = at('password2');
  return (
    <main className="narrow">
      <h1>Choose a new password</h1>
      <p className="muted">
        For the account <strong>{reset.username}</strong>. Setting it signs this account out everywhere; then sign in with the new password.
      </p>
      <form method="post" action="/reset-password/submit" className="form">
        <input type="hidden" name="token" value={token} />
        {/* For password managers: which account the new password is for. */}
        <input type="hidden" name="username" autoComplete="username" value={reset.username} />
        <label>
          New password
          <input name="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} {...password.input} />
        </label>
        <p id="password-hint" className="form-hint">
          At least {PASSWORD_MIN} characters.
        </p>
        {password.message}
        <label>
          New password again
          <input name="password2" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} {...password2.input} />
        </label>
        {password2.message}
        <button type="submit">Set the new password</button>
      </form>
    </main>
  );
}
