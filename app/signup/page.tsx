import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { openInvitation } from '@/lib/core/accounts/invitations';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/lib/shared/limits';
import { pageContext } from '@/lib/web/page-context';
import { SIGN_UP_ERROR_FIELDS, SIGN_UP_ERRORS, signUpDraft, signUpOpen } from '@/lib/web/sign-in';

export const metadata: Metadata = { title: 'Sign up' };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ invite?: string; error?: string }> }) {
  const { invite, error } = await searchParams;
  const token = typeof invite === 'string' ? invite : '';
  if (!token && !signUpOpen()) notFound();
  const { db, viewer } = await pageContext();
  const invitation = token ? await openInvitation(db, token) : null;
  if (token && !invitation) {
    return (
      <main className="narrow">
        <h1>This invitation no longer works</h1>
        <p>
          The link has expired or was already used. Ask for a new one, or <Link href="/signin">sign in</Link>.
        </p>
      </main>
    );
  }
  const code = typeof error === 'string' && Object.hasOwn(SIGN_UP_ERRORS, error) ? error : null;
  // What the refused attempt typed comes back with its error; a fresh visit starts empty.
  const draft = code ? await signUpDraft() : { username: '', email: '' };
  /** The error shown at `field`, and the attributes that tie its input to it. */
  const at = (field: string, hint?: string) => {
    const here = code !== null && SIGN_UP_ERROR_FIELDS[code] === field;
    const describedBy = [hint, here && `${field}-error`].filter(Boolean).join(' ');
    return {
      input: { 'aria-invalid': here || undefined, 'aria-describedby': describedBy || undefined },
      message: here ? (
        <p id={`${field}-error`} role="alert" className="form-error">
          {SIGN_UP_ERRORS[code]}
        </p>
      ) : null,
    };
  };
  const username = at('username', 'username-hint');
  const email = at('email');
  const password = at('password', 'password-hint');
  const password2 = at('password2');
  return (
    <main className="narrow">
      <h1>Sign up</h1>
      {viewer && <p className="notice">You are signed in as {viewer.username}; signing up makes another account.</p>}
      <form method="post" action="/signup/submit" className="form">
        {invitation && <input type="hidden" name="invite" value={token} />}
        <label>
          Username
          <input
            name="username"
            autoComplete="username"
            required
            maxLength={50}
            pattern="[A-Za-z0-9][A-Za-z0-9_.\-]*"
            defaultValue={draft.username}
            {...username.input}
          />
        </label>
        <p id="username-hint" className="form-hint">
          Letters, digits, “_”, “.” and “-”; it is in your plots’ addresses.
        </p>
        {username.message}
        {invitation ? (
          <p>
            Email: <strong>{invitation.email}</strong> (the address this invitation was sent to)
          </p>
        ) : (
          <label>
            Email
            <input name="email" type="email" autoComplete="email" required maxLength={254} defaultValue={draft.email} {...email.input} />
          </label>
        )}
        {email.message}
        <label>
          Password
          <input name="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} {...password.input} />
        </label>
        <p id="password-hint" className="form-hint">
          At least {PASSWORD_MIN} characters.
        </p>
        {password.message}
        <label>
          Password again
          <input name="password2" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} {...password2.input} />
        </label>
        {password2.message}
        <button type="submit">Sign up</button>
      </form>
      <p className="muted">
        Have an account? <Link href="/signin">Sign in</Link>.
      </p>
    </main>
  );
}
