'use client';
import { useActionState } from 'react';

export interface SignInState {
  error?: string;
  username?: string;
}

/** The sign-in form; `signIn` is the page's server action (components never import from app/). */
export function SignInForm({ next, signIn }: { next: string; signIn: (state: SignInState, form: FormData) => Promise<SignInState> }) {
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
