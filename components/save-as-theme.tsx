'use client';
// "Save as theme" and "Save as template" on the owner's plot page: one name field, a button for each;
// a plain form post (no JavaScript needed). The answer says where the new file is, with a link.
import { useActionState, useId } from 'react';
import { MAX_FILENAME_CHARS } from '@/lib/shared/limits';
import type { SaveStyleState } from '@/lib/web/themes';
import { CsrfField } from './csrf-field';

export interface SaveAsThemeProps {
  /** The page's server action (components never import from app/). */
  action: (state: SaveStyleState, form: FormData) => Promise<SaveStyleState>;
  csrf: string;
  fid: string;
}

export function SaveAsTheme({ action, csrf, fid }: SaveAsThemeProps) {
  const [state, formAction, pending] = useActionState<SaveStyleState, FormData>(action, {});
  const id = useId();
  return (
    <section className="save-as-theme" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Reuse this chart</h2>
      <form action={formAction} className="save-as-theme-form">
        <CsrfField token={csrf} />
        <input type="hidden" name="fid" value={fid} />
        <div className="field">
          <label htmlFor={`${id}-name`}>Name of the theme or template</label>
          <input
            id={`${id}-name`}
            name="name"
            maxLength={MAX_FILENAME_CHARS}
            autoComplete="off"
            placeholder="This chart's name followed by “theme” or “template”"
            aria-describedby={`${id}-hint${state.nameError ? ` ${id}-error` : ''}`}
            aria-invalid={state.nameError ? true : undefined}
          />
        </div>
        <div className="button-row">
          <button type="submit" name="as" value="theme" className="secondary" disabled={pending}>
            Save as theme
          </button>
          <button type="submit" name="as" value="template" className="secondary" disabled={pending}>
            Save as template
          </button>
        </div>
        <p id={`${id}-hint`} className="muted">
          A theme keeps the styling alone (colours, fonts, axes, each trace type&rsquo;s look), to apply to other charts in the editor. A template keeps the
          whole chart and which column plays which part, to start a chart of new data from on &ldquo;New chart&rdquo;. Both are private.
        </p>
      </form>
      {state.error && (
        <p id={`${id}-error`} role="alert" className="form-error">
          {state.error}
        </p>
      )}
      {state.saved && (
        <p role="status" className="notice">
          Saved as {state.saved.what === 'theme' ? 'a theme' : 'a template'}: <a href={state.saved.href}>{state.saved.name}</a>
        </p>
      )}
    </section>
  );
}
