import type { Metadata } from 'next';
import Link from 'next/link';
import { SignInForm } from '@/components/sign-in-form';
import { safeNext, SIGN_IN_ERRORS, signInDraft, signUpOpen } from '@/lib/web/sign-in';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string; reset?: string }> }) {
  const { next, error, reset } = await searchParams;
  return (
    <main className="narrow">
      <h1>Sign in</h1>
      {reset && (
        <p className="notice" role="status">
          Your password is changed, and the account signed out everywhere: sign in with the new password.
        </p>
      )}
      <p className="muted">Use your username or email address with your password, or with your API key (the one you give the Plotly clients).</p>
      <SignInForm
        next={safeNext(next) ?? ''}
        error={typeof error === 'string' ? SIGN_IN_ERRORS[error] : undefined}
        login={typeof error === 'string' ? await signInDraft() : ''}
      />
      <p>
        <Link href="/forgot-password">Forgot password?</Link>
      </p>
      <p className="muted">
        {signUpOpen() ? (
          <>
            No account yet? <Link href="/signup">Sign up</Link>.
          </>
        ) : (
          <>
            Accounts are made by invitation: ask the operator (<code>npm run user:invite</code>).
          </>
        )}
      </p>
    </main>
  );
}
