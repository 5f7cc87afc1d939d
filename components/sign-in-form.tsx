// The sign-in form: a plain post to /signin/submit (a route handler, so it works without JavaScript
// and a throttled attempt answers 429). One secret field takes the password or the API key.
import { MAX_EMAIL_CHARS, PASSWORD_MAX } from '@/lib/shared/limits';

export function SignInForm({ next, error, login = '' }: { next: string; error?: string; login?: string }) {
  return (
    <form method="post" action="/signin/submit" className="form">
      <input type="hidden" name="next" value={next} />
      <label>
        Username or email
        <input
          name="username"
          autoComplete="username"
          required
          maxLength={MAX_EMAIL_CHARS}
          defaultValue={login}
          aria-describedby={error ? 'signin-error' : undefined}
        />
      </label>
      <label>
        Password or API key
        <input name="password" type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} />
      </label>
      {error && (
        <p id="signin-error" role="alert" className="form-error">
          {error}
        </p>
      )}
      <button type="submit">Sign in</button>
    </form>
  );
}
