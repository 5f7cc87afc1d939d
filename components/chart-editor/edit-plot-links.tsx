'use client';
// A plot page's way into the chart editor: "Edit" for its owner; "Edit a copy" for anyone else signed
// in who may read it (a private copy of theirs with source_fid, opened in the editor; a plain form
// post, so it works without JavaScript too).
import Link from 'next/link';
import { useActionState } from 'react';
import type { FormState } from '@/lib/web/forms';
import { CsrfField } from '../csrf-field';

export interface EditPlotLinksProps {
  /** The owner's editor (`/~owner/n/edit`), or null for others. */
  editHref: string | null;
  /** "Edit a copy" for a signed-in reader: the page's server action and what it posts. */
  copy: { action: (state: FormState, form: FormData) => Promise<FormState>; csrf: string; fid: string; shareKey: string | null } | null;
}

export function EditPlotLinks({ editHref, copy }: EditPlotLinksProps) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(copy?.action ?? (async () => ({})), {});
  if (editHref) {
    return (
      <Link className="button plot-edit" href={editHref}>
        Edit
      </Link>
    );
  }
  if (!copy) return null;
  return (
    <form action={formAction} className="plot-edit">
      <CsrfField token={copy.csrf} />
      <input type="hidden" name="fid" value={copy.fid} />
      {copy.shareKey && <input type="hidden" name="share_key" value={copy.shareKey} />}
      <button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? 'Copying…' : 'Edit a copy'}
      </button>
      {state.error && (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      )}
    </form>
  );
}
