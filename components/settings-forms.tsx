'use client';
// The /settings forms. Each posts to its server action (passed in from the page: components never
// import app/), works without JavaScript, and shows the action's message; the new API key is shown
// here once, with the lines that configure the Python and R clients for this server.
import { useActionState } from 'react';
import type { FormState } from '@/lib/web/forms';
import { PROFILE_LIMITS } from '@/lib/shared/limits';
import type { KeyFormState } from '@/lib/web/settings';
import { CopyField } from './copy-field';
import { CsrfField } from './csrf-field';

type Action<S> = (state: S, form: FormData) => Promise<S>;

export function Outcome({ state }: { state: FormState }) {
  if (state.error)
    return (
      <p role="alert" className="form-error">
        {state.error}
      </p>
    );
  return state.done ? (
    <p role="status" className="form-done">
      {state.done}
    </p>
  ) : null;
}

export interface ProfileValues {
  nickname: string;
  bio: string;
  website: string;
}

export function ProfileForm({ action, csrf, profile }: { action: Action<FormState>; csrf: string; profile: ProfileValues }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="form" aria-labelledby="profile-heading">
      <CsrfField token={csrf} />
      <label>
        Nickname
        <input name="nickname" maxLength={PROFILE_LIMITS.nickname} defaultValue={profile.nickname} autoComplete="nickname" />
      </label>
      <label>
        Bio
        <textarea name="bio" maxLength={PROFILE_LIMITS.bio} rows={4} defaultValue={profile.bio} />
      </label>
      <label>
        Website
        <input name="website" type="url" maxLength={PROFILE_LIMITS.website} defaultValue={profile.website} placeholder="https://" autoComplete="url" />
      </label>
      <Outcome state={state} />
      <button type="submit" disabled={pending}>
        Save profile
      </button>
    </form>
  );
}

/** `length`: the password rules' bounds (lib/core/accounts/passwords.ts, which the browser cannot import). */
export function PasswordForm({
  action,
  csrf,
  hasPassword,
  length,
}: {
  action: Action<FormState>;
  csrf: string;
  hasPassword: boolean;
  length: { min: number; max: number };
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="form" aria-labelledby="password-heading">
      <CsrfField token={csrf} />
      {hasPassword && (
        <label>
          Current password or API key
          <input name="current" type="password" autoComplete="current-password" required maxLength={length.max} />
        </label>
      )}
      <label>
        New password
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={length.min}
          maxLength={length.max}
          aria-describedby="new-password-hint"
        />
      </label>
      <p id="new-password-hint" className="form-hint">
        At least {length.min} characters.
      </p>
      <label>
        New password again
        <input name="password2" type="password" autoComplete="new-password" required minLength={length.min} maxLength={length.max} />
      </label>
      <Outcome state={state} />
      <button type="submit" disabled={pending}>
        {hasPassword ? 'Change password' : 'Set password'}
      </button>
    </form>
  );
}

/** The person's mail setting: `note` says where mail would go (or why none goes). */
export function NotificationsForm({ action, csrf, byEmail, note }: { action: Action<FormState>; csrf: string; byEmail: boolean; note: string }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="form" aria-labelledby="notifications-heading">
      <CsrfField token={csrf} />
      <label className="checkbox">
        <input type="checkbox" name="by_email" value="yes" defaultChecked={byEmail} aria-describedby="notifications-hint" />
        Email me about comments and shares
      </label>
      <p id="notifications-hint" className="form-hint">
        {note}
      </p>
      <Outcome state={state} />
      <button type="submit" disabled={pending}>
        Save
      </button>
    </form>
  );
}

/**
 * What configures the official clients for this server (the key as given, or a placeholder). plotly
 * for R always connects with https:// to the host it is given, so its lines name the https origin.
 */
export function clientLines(origin: string, username: string, apiKey: string) {
  const q = (s: string) => JSON.stringify(s);
  const https = origin.replace(/^http:/, 'https:');
  return {
    python: [
      'import chart_studio.tools as tls',
      `tls.set_credentials_file(username=${q(username)}, api_key=${q(apiKey)})`,
      `tls.set_config_file(plotly_domain=${q(origin)}, plotly_api_domain=${q(origin)})`,
    ].join('\n'),
    r: `Sys.setenv("plotly_username" = ${q(username)}, "plotly_api_key" = ${q(apiKey)},\n           "plotly_domain" = ${q(https)}, "plotly_api_domain" = ${q(https)})`,
  };
}

/** `first`: no key was ever given to the person (a web sign-up), so making one breaks nothing and asks nothing. */
export function ApiKeyForm({
  action,
  csrf,
  origin,
  username,
  first,
}: {
  action: Action<KeyFormState>;
  csrf: string;
  origin: string;
  username: string;
  first: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  // Once this form made the first key, another replaces it: the question comes back.
  const firstKey = first && !state.apiKey;
  const lines = clientLines(origin, username, state.apiKey ?? 'YOUR_API_KEY');
  return (
    <div className="settings-key">
      {state.apiKey && <CopyField id="new-api-key" label="Your new API key" value={state.apiKey} hint="Shown only now: copy it somewhere safe." />}
      <h3>Python (chart_studio)</h3>
      <pre>
        <code>{lines.python}</code>
      </pre>
      <h3>R (plotly)</h3>
      <p id="r-https" className="muted">
        {origin.startsWith('https:') ? (
          <>plotly for R needs https: it connects only over https. This site is served over https, so these lines work as they are.</>
        ) : (
          <>
            plotly for R needs https: it connects only over https, whatever address it is given. This page came over plain http ({origin}), so R cannot use this
            server until it is served over https (behind TLS); the lines name the https address it will then have.
          </>
        )}
      </p>
      <pre aria-describedby="r-https">
        <code>{lines.r}</code>
      </pre>
      <form action={formAction} className="form" aria-labelledby="new-key-heading">
        <CsrfField token={csrf} />
        <h3 id="new-key-heading">{firstKey ? 'Make your API key' : 'Make a new API key'}</h3>
        {firstKey ? (
          <p className="muted">You have no key to use yet: make one, then put it in the lines above.</p>
        ) : (
          <>
            <p className="muted">
              A new key replaces the old one at once: every script, notebook and client (Python, R) still using the old key stops working until you give it the
              new one, and you are signed out everywhere else.
            </p>
            <label className="checkbox">
              <input type="checkbox" name="confirm" value="yes" required />I understand: the old key stops working now
            </label>
          </>
        )}
        <Outcome state={state} />
        <button type="submit" disabled={pending}>
          {firstKey ? 'Make my API key' : 'Make a new API key'}
        </button>
      </form>
    </div>
  );
}
