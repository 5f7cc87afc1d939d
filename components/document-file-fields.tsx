'use client';
// The dashboard builder's and the deck editor's "File name" and "Sharing" fields (sharing for the
// owner only: null hides it), each with its hint or its problem; their Undo, Redo and Save; and their one save: the server
// action's answer is a refusal's problems, its redirect the way on to the saved document's page.
import { MAX_FILENAME_CHARS } from '@/lib/shared/limits';
import { type Visibility, VISIBILITIES, VISIBILITY_LABEL, visibilityHint } from '@/lib/shared/sharing';
import type { SaveProblem, SaveState } from '@/lib/web/document-save';
import { UndoRedo } from './undo-redo';

interface DocumentFileFieldsProps {
  /** The fields' ids: `<prefix>-filename`, `<prefix>-sharing`. */
  prefix: string;
  noun: 'dashboard' | 'presentation';
  filename: string;
  filenameHint: string;
  sharing: Visibility | null;
  problemAt: (field: string) => string | undefined;
  onFilename: (filename: string) => void;
  onSharing: (sharing: Visibility) => void;
}

export function DocumentFileFields({ prefix, noun, filename, filenameHint, sharing, problemAt, onFilename, onSharing }: DocumentFileFieldsProps) {
  const nameProblem = problemAt('filename');
  const sharingProblem = problemAt('sharing');
  return (
    <>
      <div className={`field${nameProblem ? ' has-error' : ''}`}>
        <label htmlFor={`${prefix}-filename`}>File name</label>
        <input
          id={`${prefix}-filename`}
          type="text"
          data-own-undo=""
          value={filename}
          maxLength={MAX_FILENAME_CHARS}
          onChange={(e) => onFilename(e.target.value)}
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby={nameProblem ? `${prefix}-filename-error` : `${prefix}-filename-hint`}
        />
        {nameProblem ? (
          <p id={`${prefix}-filename-error`} className="field-error">
            {nameProblem}
          </p>
        ) : (
          <p id={`${prefix}-filename-hint`} className="field-hint muted">
            {filenameHint}
          </p>
        )}
      </div>
      {sharing !== null && (
        <div className={`field${sharingProblem ? ' has-error' : ''}`}>
          <label htmlFor={`${prefix}-sharing`}>Sharing</label>
          <select
            id={`${prefix}-sharing`}
            value={sharing}
            onChange={(e) => onSharing(e.target.value as Visibility)}
            aria-describedby={`${prefix}-sharing-hint`}
            aria-invalid={sharingProblem ? true : undefined}
          >
            {VISIBILITIES.map((v) => (
              <option key={v} value={v}>
                {VISIBILITY_LABEL[v]}
              </option>
            ))}
          </select>
          <p id={`${prefix}-sharing-hint`} className="field-hint muted">
            {sharingProblem ?? `${visibilityHint(sharing, { noun, own: true })} Each plot in it shows only to people who may see that plot.`}
          </p>
        </div>
      )}
    </>
  );
}

/** Sends an editor's save; `done` gets a refusal's problems (none on success, whose redirect goes on to the saved page). */
export async function sendSave(save: (form: FormData) => Promise<SaveState>, form: FormData, done: (problems: SaveProblem[]) => void): Promise<void> {
  try {
    const answer = await save(form);
    // A save that succeeded went on to the document's page; an answer is a refusal.
    done(answer.problems.length ? answer.problems : [{ field: null, message: 'Saving failed; try again.' }]);
  } catch (e) {
    // Next's redirect after a save is not a failure.
    if (e && typeof e === 'object' && 'digest' in e && String((e as { digest: unknown }).digest).startsWith('NEXT_REDIRECT')) {
      done([]);
      throw e;
    }
    done([{ field: null, message: 'The server could not be reached; nothing was lost, try saving again.' }]);
  }
}

/** An editor bar's end: Undo and Redo over `history`, and Save. */
export function SaveControls({
  history,
  saving,
  dispatch,
  onSave,
}: {
  history: { past: unknown[]; future: unknown[] };
  saving: boolean;
  dispatch: (action: { type: 'undo' | 'redo' }) => void;
  onSave: () => void;
}) {
  return (
    <>
      <UndoRedo
        canUndo={history.past.length > 0}
        canRedo={history.future.length > 0}
        onUndo={() => dispatch({ type: 'undo' })}
        onRedo={() => dispatch({ type: 'redo' })}
      />
      <button type="button" className="dashboard-save" onClick={onSave} disabled={saving} aria-busy={saving}>
        {saving ? 'Saving…' : 'Save'}
      </button>
    </>
  );
}
