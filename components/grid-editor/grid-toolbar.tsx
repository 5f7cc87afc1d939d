'use client';
// The grid editor's toolbar: undo and redo, the column and row commands, the active column's name,
// the CSV download and the save.
import { MAX_COLUMN_NAME_CHARS } from '@/lib/shared/limits';
import { type FormEvent, useEffect, useState } from 'react';
import { UndoRedo } from '../undo-redo';
import { addColumn, addRow, deleteColumn, deleteRows, type GridEdit, moveColumn, redoEdit, renameColumn, undoEdit } from './grid-edits';
import type { GridModel } from './grid-model';

interface ToolbarProps {
  model: GridModel | null;
  /** The active column. */
  column: number;
  /** Loading or saving: no edits. */
  busy: boolean;
  saving: boolean;
  dirty: boolean;
  run: (edit: GridEdit) => void;
  onDownload: () => void;
  onSave: () => void;
}

export function GridToolbar({ model, column, busy, saving, dirty, run, onDownload, onSave }: ToolbarProps) {
  const ncols = model?.columns.length ?? 0;
  const hasCol = ncols > 0;
  return (
    <div className="ge-toolbar">
      <UndoRedo canUndo={!!model?.canUndo} canRedo={!!model?.canRedo} onUndo={() => run(undoEdit)} onRedo={() => run(redoEdit)} disabled={busy} />
      <fieldset className="button-row">
        <legend className="visually-hidden">Columns</legend>
        <button type="button" className="secondary" onClick={() => run(addColumn)} disabled={busy}>
          Add column
        </button>
        <button type="button" className="secondary" onClick={() => run(deleteColumn)} disabled={busy || !hasCol}>
          Delete column
        </button>
        <button type="button" className="secondary" onClick={() => run(moveColumn(-1))} disabled={busy || column <= 0}>
          Move column left
        </button>
        <button type="button" className="secondary" onClick={() => run(moveColumn(1))} disabled={busy || column >= ncols - 1}>
          Move column right
        </button>
      </fieldset>
      <fieldset className="button-row">
        <legend className="visually-hidden">Rows</legend>
        <button type="button" className="secondary" onClick={() => run(addRow)} disabled={busy || !hasCol}>
          Add row
        </button>
        <button type="button" className="secondary" onClick={() => run(deleteRows)} disabled={busy || !model?.rows}>
          Delete selected rows
        </button>
      </fieldset>
      <RenameColumn name={model?.columns[column]?.name ?? ''} disabled={busy || !hasCol} onRename={(name) => run(renameColumn(name))} />
      <div className="button-row ge-save">
        <button type="button" className="secondary" onClick={onDownload} disabled={!model}>
          Download CSV
        </button>
        <button type="button" onClick={onSave} disabled={busy || !dirty}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </div>
  );
}

/** The active column's name, to rename it. */
function RenameColumn({ name, disabled, onRename }: { name: string; disabled: boolean; onRename: (name: string) => void }) {
  const [draft, setDraft] = useState('');
  useEffect(() => setDraft(name), [name]);
  const rename = (e: FormEvent) => {
    e.preventDefault();
    onRename(draft);
  };
  return (
    <form className="ge-rename" onSubmit={rename}>
      <label htmlFor="ge-column-name">Column name</label>
      <input
        id="ge-column-name"
        data-own-undo=""
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        disabled={disabled}
        maxLength={MAX_COLUMN_NAME_CHARS}
      />
      <button type="submit" className="secondary" disabled={disabled || draft === name}>
        Rename column
      </button>
    </form>
  );
}
