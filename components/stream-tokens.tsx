'use client';
// The stream tokens on /settings: each listed with its Delete button, "New stream token", and the
// credentials line that gives them to the Python client (`stream_ids`). Works without JavaScript.
import { useActionState } from 'react';
import type { FormState } from '@/lib/web/forms';
import { CsrfField } from './csrf-field';
import { Outcome } from './settings-forms';

type Action = (state: FormState, form: FormData) => Promise<FormState>;

function DeleteToken({ action, pending, csrf, id, token }: { action: (form: FormData) => void; pending: boolean; csrf: string; id: number; token: string }) {
  return (
    <form action={action} className="stream-token">
      <CsrfField token={csrf} />
      <input type="hidden" name="id" value={id} />
      <code>{token}</code>{' '}
      <button type="submit" className="secondary" disabled={pending} aria-label={`Delete stream token ${token}`}>
        Delete
      </button>
    </form>
  );
}

export function StreamTokens({
  tokens,
  create,
  remove,
  csrf,
  streamingDomain,
  max,
}: {
  tokens: { id: number; token: string }[];
  create: Action;
  remove: Action;
  csrf: string;
  streamingDomain: string | null;
  max: number;
}) {
  const [state, formAction, pending] = useActionState(create, {});
  // One outcome for every Delete: a deleted token's form is gone once the list is drawn again.
  const [removed, removeAction, removing] = useActionState(remove, {});
  const ids = JSON.stringify(tokens.map((t) => t.token));
  return (
    <div className="settings-streams">
      {tokens.length === 0 ? (
        <p>No stream tokens yet.</p>
      ) : (
        tokens.map((t) => <DeleteToken key={t.id} action={removeAction} pending={removing} csrf={csrf} id={t.id} token={t.token} />)
      )}
      <Outcome state={removed} />
      <form action={formAction}>
        <CsrfField token={csrf} />
        <Outcome state={state} />
        <button type="submit" disabled={pending || tokens.length >= max}>
          New stream token
        </button>
      </form>
      {tokens.length > 0 && (
        <pre>
          <code>
            {`import chart_studio.tools as tls\ntls.set_credentials_file(stream_ids=${ids})`}
            {streamingDomain && `\ntls.set_config_file(plotly_streaming_domain=${JSON.stringify(streamingDomain)})`}
          </code>
        </pre>
      )}
    </div>
  );
}
