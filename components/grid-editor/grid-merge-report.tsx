'use client';
// After a refused save: the offer to re-apply the edits onto the current data, and then what that did:
// notes, and the cells both people changed (yours kept), each with a way to take theirs back.
import { useState } from 'react';
import { type GridEdit, takeTheirs } from './grid-edits';
import type { Merged } from './grid-merge';
import { cellText } from './grid-values';

interface MergeReportProps {
  stale: boolean;
  merged: Merged | null;
  busy: boolean;
  onReapply: () => void;
  onDismiss: () => void;
  run: (edit: GridEdit) => void;
}

export function GridMergeReport({ stale, merged, busy, onReapply, onDismiss, run }: MergeReportProps) {
  const [taken, setTaken] = useState<Set<number>>(new Set());
  if (stale) {
    return (
      <div className="ge-merge button-row">
        <button type="button" onClick={onReapply} disabled={busy}>
          Re-apply my edits to the current data
        </button>
      </div>
    );
  }
  if (!merged || (!merged.conflicts.length && !merged.notes.length)) return null;
  const chooseTheirs = (i: number) => {
    run(takeTheirs(merged.conflicts[i]));
    setTaken((t) => new Set(t).add(i));
  };
  return (
    <section className="ge-merge" aria-labelledby="ge-merge-heading">
      <h2 id="ge-merge-heading">Your edits on the current data</h2>
      {merged.notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
      {merged.conflicts.length > 0 && (
        <table className="ge-conflicts">
          <caption>Cells you both changed: yours are kept until you use theirs.</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Row</th>
              <th scope="col">Theirs</th>
              <th scope="col">Yours</th>
              <th scope="col">
                <span className="visually-hidden">Choice</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {merged.conflicts.map((c, i) => (
              <tr key={`${c.column}:${c.row}`}>
                <td>{c.column}</td>
                <td>{c.row + 1}</td>
                <td>{cellText(c.theirs) || <em>empty</em>}</td>
                <td>{cellText(c.yours) || <em>empty</em>}</td>
                <td>
                  {taken.has(i) ? (
                    'Theirs used'
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => chooseTheirs(i)}
                      disabled={busy}
                      aria-label={`Use theirs in row ${c.row + 1} of ${c.column}`}
                    >
                      Use theirs
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" className="secondary" onClick={onDismiss}>
        Hide this list
      </button>
    </section>
  );
}
