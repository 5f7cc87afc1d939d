// What a key pressed on the grid editor's grid (not in its cell input) does, as the ARIA grid
// pattern and spreadsheets have it: arrows, Page Up/Down, Home/End (with Ctrl: to the ends) move,
// Shift with them selects; Tab moves along the row and leaves the grid at its ends; Enter or F2
// edits, typing edits from the key typed; Delete and Backspace clear.
import type { Selection } from './grid-edits';

export type KeyCommand =
  | { type: 'select'; r: number; c: number; extend: boolean }
  | { type: 'edit'; text?: string }
  | { type: 'clear' }
  /** Not the grid's key: the browser's way (Tab out of the grid, shortcuts). */
  | null;

interface Key {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export function gridKey(e: Key, sel: Selection, rows: number, ncols: number, page: number): KeyCommand {
  const ctrl = e.ctrlKey || e.metaKey;
  const moves: Record<string, [number, number]> = {
    ArrowUp: [-1, 0],
    ArrowDown: [1, 0],
    ArrowLeft: [0, -1],
    ArrowRight: [0, 1],
    PageUp: [-page, 0],
    PageDown: [page, 0],
  };
  if (e.key in moves) {
    const [dr, dc] = moves[e.key];
    const from = e.shiftKey ? { r: sel.r2, c: sel.c2 } : sel;
    if (ctrl) return { type: 'select', r: dr ? (dr < 0 ? 0 : rows - 1) : from.r, c: dc ? (dc < 0 ? 0 : ncols - 1) : from.c, extend: e.shiftKey };
    return { type: 'select', r: from.r + dr, c: from.c + dc, extend: e.shiftKey };
  }
  if (e.key === 'Home' || e.key === 'End') {
    const end = e.key === 'End';
    return { type: 'select', r: ctrl ? (end ? rows - 1 : 0) : sel.r, c: ctrl ? sel.c : end ? ncols - 1 : 0, extend: false };
  }
  if (e.key === 'Tab') {
    const to = sel.c + (e.shiftKey ? -1 : 1);
    return to < 0 || to >= ncols ? null : { type: 'select', r: sel.r, c: to, extend: false };
  }
  if (e.key === 'Enter' || e.key === 'F2') return { type: 'edit' };
  if (e.key === 'Delete' || e.key === 'Backspace') return { type: 'clear' };
  if (e.key.length === 1 && !ctrl && !e.altKey) return { type: 'edit', text: e.key };
  return null;
}
