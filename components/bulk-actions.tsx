'use client';
// The workspace's selection: the rows' boxes belong to this form (their `form` attribute), so ticking
// some and pressing "Move", "Save sharing" or "Move to trash" works without JavaScript. Its controls
// fold away (a disclosure) so that the list starts on the first screen; with JavaScript, ticking a box
// opens them, a box selects every file on the page and the form says how many are selected.
import { useActionState, useEffect, useState } from 'react';
import { VISIBILITIES, VISIBILITY_LABEL } from '@/lib/shared/sharing';
import type { FormState } from '@/lib/web/forms';
import type { FormAction } from './action-form';
import { CsrfField } from './csrf-field';
import { FolderSelect, type View, ViewFields } from './file-forms';

export const BULK_FORM_ID = 'workspace-bulk';

interface Props {
  action: FormAction;
  csrf: string;
  back: string;
  view: View;
  destinations: { n: number; path: string }[];
  current: number;
}

/** The page's row boxes (they sit outside the form, tied to it by their `form` attribute). */
const rowBoxes = () => Array.from(document.querySelectorAll<HTMLInputElement>(`input[type=checkbox][name=n][form=${BULK_FORM_ID}]`));

export function BulkActions({ action, csrf, back, view, destinations, current }: Props) {
  const [state, submit, pending] = useActionState<FormState, FormData>(action, {});
  const [counts, setCounts] = useState<{ selected: number; total: number } | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const recount = (event?: Event) => {
      const boxes = rowBoxes();
      const selected = boxes.filter((b) => b.checked).length;
      setCounts({ selected, total: boxes.length });
      if (event && selected > 0) setOpen(true);
    };
    recount();
    document.addEventListener('change', recount);
    return () => document.removeEventListener('change', recount);
  }, []);
  const all = counts !== null && counts.total > 0 && counts.selected === counts.total;
  const selectAll = (on: boolean) => {
    for (const box of rowBoxes()) box.checked = on;
    setCounts((c) => c && { ...c, selected: on ? c.total : 0 });
  };
  return (
    <form id={BULK_FORM_ID} action={submit} className="bulk-actions" aria-labelledby="bulk-heading">
      <CsrfField token={csrf} />
      <input type="hidden" name="back" value={back} />
      <ViewFields view={view} />
      {/* A refusal keeps them open: its message is there. */}
      <details className="bulk-details" open={open || Boolean(state.error)} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <span id="bulk-heading" className="bulk-heading">
            Selected files
          </span>
          {counts && <output aria-live="polite">{counts.selected} selected</output>}
        </summary>
        {counts ? (
          <div className="bulk-select">
            <label>
              <input type="checkbox" checked={all} onChange={(e) => selectAll(e.currentTarget.checked)} /> Select all on this page
            </label>
          </div>
        ) : (
          <p className="muted bulk-hint">Tick files below, then choose what to do with them.</p>
        )}
        <div className="bulk-ops">
          <FolderSelect label="Move to" current={current} destinations={destinations} />
          <button type="submit" name="op" value="move" className="secondary" disabled={pending}>
            Move
          </button>
          <label>
            Sharing
            <select name="sharing" defaultValue="private">
              {VISIBILITIES.map((v) => (
                <option key={v} value={v}>
                  {VISIBILITY_LABEL[v]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" name="op" value="share" className="secondary" disabled={pending}>
            Save sharing
          </button>
          <label className="confirm">
            <input type="checkbox" name="grids" value="yes" defaultChecked /> Trash with plots the grids only they use
          </label>
          <button type="submit" name="op" value="trash" className="danger" disabled={pending}>
            Move to trash
          </button>
        </div>
      </details>
      {state.error && (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      )}
    </form>
  );
}
