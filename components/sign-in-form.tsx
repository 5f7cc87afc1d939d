'use client';
import { useActionState } from 'react';
import { signIn, type SignInState } from '@/app/signin/actions';

export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, {});
  return (
    <form action={action} className="form" noValidate>
      <input type="hidden" name="next" value={next} />
      <label>
        Username
        <input name="username" autoComplete="username" required defaultValue={state.username} />
      </label>
      <label>
        API key
        <input name="api_key" type="password" autoComplete="current-password" required />
      </label>
      {state.error && (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
