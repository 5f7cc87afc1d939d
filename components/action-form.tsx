'use client';
// The owner's forms (share, rename, move, trash...): plain forms posting to server actions, so they
// work without JavaScript; an action's refusal (the API's own words) is shown under its form.
import { useActionState, useEffect, useRef, useState, useTransition, type FormEvent, type ReactNode } from 'react';
import type { FormState } from '@/lib/web/forms';

export type FormAction = (state: FormState, form: FormData) => Promise<FormState>;

/** One form: its fields (server-rendered, hidden ones included), the submit button's text and look. */
export interface FormSpec {
  action: FormAction;
  submit: string;
  fields?: ReactNode;
  className?: string;
  kind?: 'primary' | 'secondary' | 'danger';
}

function FormView({ spec, state, action, pending }: { spec: FormSpec; state: FormState; action: (form: FormData) => void; pending: boolean }) {
  const kind = spec.kind ?? 'secondary';
  // The refusal stands until the person changes the form: then it no longer describes what is there.
  const [fixed, setFixed] = useState<FormState | null>(null);
  const error = fixed === state ? undefined : state.error;
  // React clears a form after its action, refused or not: what the person typed would be lost with
  // the refusal that explains it. So with JavaScript the form is sent here and cleared only once
  // accepted; without it, the plain post still goes to `action`.
  const form = useRef<HTMLFormElement>(null);
  const [, startTransition] = useTransition();
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current && !state.error) form.current?.reset();
    sent.current = false;
  }, [state]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    sent.current = true;
    startTransition(() => action(data));
  };
  return (
    <form
      ref={form}
      action={action}
      onSubmit={submit}
      className={spec.className ? `action-form ${spec.className}` : 'action-form'}
      onInput={() => state.error && setFixed(state)}
      onChange={() => state.error && setFixed(state)}
    >
      {spec.fields}
      <button type="submit" className={kind === 'primary' ? undefined : kind} disabled={pending} aria-busy={pending}>
        {spec.submit}
      </button>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </form>
  );
}

export function ActionForm(spec: FormSpec) {
  const [state, action, pending] = useActionState<FormState, FormData>(spec.action, {});
  return <FormView spec={spec} state={state} action={action} pending={pending} />;
}

/**
 * A workspace row's "Manage" disclosure and its four forms. It holds their states, so that a refused
 * form is shown open, also when the page was rendered for a post without JavaScript.
 */
export function ManageForms({ label, share, rename, move, trash }: { label: ReactNode; share: FormSpec; rename: FormSpec; move: FormSpec; trash: FormSpec }) {
  const forms = [share, rename, move, trash];
  const states = [
    useActionState<FormState, FormData>(share.action, {}),
    useActionState<FormState, FormData>(rename.action, {}),
    useActionState<FormState, FormData>(move.action, {}),
    useActionState<FormState, FormData>(trash.action, {}),
  ];
  const refused = states.some(([state]) => state.error);
  return (
    <details className="file-manage" open={refused || undefined}>
      <summary>{label}</summary>
      <div className="file-actions">
        {forms.map((spec, i) => (
          <FormView key={spec.submit} spec={spec} state={states[i][0]} action={states[i][1]} pending={states[i][2]} />
        ))}
      </div>
    </details>
  );
}
