// The editor's undo history: every figure it showed, as setIn copies (each shares what did not
// change with the one before). Changes to the same attribute in a row (typing a title) are one step.
import { setIn } from './figure-path';
import type { PreviewFigure } from './preview-data';

export type EditorFigure = PreviewFigure;

export interface History {
  past: EditorFigure[];
  present: EditorFigure;
  future: EditorFigure[];
  /** The attribute the last change wrote, to fold the next change to it into the same step. */
  last: string | null;
}

export type HistoryAction =
  | { type: 'change'; path: string; value: unknown }
  | { type: 'set'; figure: EditorFigure }
  /** A pure change of the figure as it is when it applies (a theme fetched meanwhile). */
  | { type: 'apply'; apply: (figure: EditorFigure) => EditorFigure }
  | { type: 'undo' }
  | { type: 'redo' };

/** Steps kept to undo. */
const MAX_STEPS = 200;

export const startHistory = (figure: EditorFigure): History => ({ past: [], present: figure, future: [], last: null });

export function historyReducer(h: History, action: HistoryAction): History {
  switch (action.type) {
    case 'change': {
      const present = setIn(h.present, action.path, action.value);
      if (h.last === action.path) return { ...h, present, future: [] };
      return { past: [...h.past, h.present].slice(-MAX_STEPS), present, future: [], last: action.path };
    }
    case 'set':
    case 'apply': {
      const present = action.type === 'set' ? action.figure : action.apply(h.present);
      return { past: [...h.past, h.present].slice(-MAX_STEPS), present, future: [], last: null };
    }
    case 'undo':
      if (!h.past.length) return h;
      return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future], last: null };
    case 'redo':
      if (!h.future.length) return h;
      return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1), last: null };
  }
}
