'use client';
// "Copy to my files" on a plot page: a plain form post (no JavaScript needed) that lands on the new
// copy's page; the message says why when it cannot. Anonymous visitors get a way to sign in first.
import { useActionState } from 'react';
import type { FormState } from '@/lib/web/forms';
import { CsrfField } from './csrf-field';
import { signInFirst } from '@/lib/shared/urls';

export interface CopyToMyFilesProps {
  /** The page's server action (components never import from app/). */
  action: (state: FormState, form: FormData) => Promise<FormState>;
  /** The signed-in viewer's anti-forgery token; null for an anonymous visitor. */
  csrf: string | null;
  fid: string;
  /** The secret link's key the page was opened with, which lets its holder copy the plot. */
  shareKey: string | null;
  /** The viewer owns the plot: the copy is a duplicate. */
  own: boolean;
  /** This page, to come back to after signing in. */
  here: string;
}

const HINT = 'Makes a private copy in your files, with its own copy of the data.';

export function CopyToMyFiles({ action, csrf, fid, shareKey, own, here }: CopyToMyFilesProps) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  if (!csrf) {
    return (
      <section className="plot-copy" aria-label="Copy">
        <a className="button secondary" href={signInFirst(here)}>
          Sign in to copy
        </a>
        <span className="muted">{HINT}</span>
      </section>
    );
  }
  const label = own ? 'Duplicate' : 'Copy to my files';
  return (
    <section className="plot-copy" aria-label="Copy">
      <form action={formAction}>
        <CsrfField token={csrf} />
        <input type="hidden" name="fid" value={fid} />
        {shareKey && <input type="hidden" name="share_key" value={shareKey} />}
        <button type="submit" className="secondary" disabled={pending} aria-describedby="plot-copy-hint">
          {pending ? 'Copying…' : label}
        </button>
        <span id="plot-copy-hint" className="muted">
          {HINT}
        </span>
      </form>
      {state.error && (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      )}
    </section>
  );
}
