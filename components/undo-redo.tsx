'use client';
// The editors' one undo and redo control (chart editor, grid editor, dashboard builder): the two
// buttons, and the shortcuts anywhere in the editor (Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y
// redo) but in a field marked `data-own-undo`, which undoes its own typing.
import type { KeyboardEvent } from 'react';
import './undo-redo.css';

export interface UndoRedoProps {
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  /** Both buttons off (while loading or saving). */
  disabled?: boolean;
}

export function UndoRedo({ canUndo, canRedo, onUndo, onRedo, disabled = false }: UndoRedoProps) {
  return (
    <fieldset className="undo-redo">
      <legend className="visually-hidden">History</legend>
      <button type="button" className="secondary" onClick={onUndo} disabled={disabled || !canUndo} aria-keyshortcuts="Control+Z Meta+Z">
        Undo
      </button>
      <button type="button" className="secondary" onClick={onRedo} disabled={disabled || !canRedo} aria-keyshortcuts="Control+Shift+Z Control+Y Meta+Shift+Z">
        Redo
      </button>
    </fieldset>
  );
}

/** The editor's key handler for the shortcuts: undoes or redoes, and keeps the browser's own from the key. */
export const undoKeys =
  (onUndo: () => void, onRedo: () => void) =>
  (e: KeyboardEvent): void => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    if (e.target instanceof Element && e.target.closest('[data-own-undo]')) return;
    const key = e.key.toLowerCase();
    if (key === 'z' && !e.shiftKey) onUndo();
    else if ((key === 'z' && e.shiftKey) || key === 'y') onRedo();
    else return;
    e.preventDefault();
  };
