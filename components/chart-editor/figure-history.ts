// The chart editor's undo history of its figure (components/undo-history.ts), as setIn copies;
// changes to the same attribute in a row (typing a title) are one step.
import { type History, record, redo, startHistory as start, undo } from '../undo-history';
import { setIn } from './figure-path';
import type { PreviewFigure } from './preview-data';

export type EditorFigure = PreviewFigure;

export type HistoryAction =
  | { type: 'change'; path: string; value: unknown }
  | { type: 'set'; figure: EditorFigure }
  /** A pure change of the figure as it is when it applies (a theme fetched meanwhile); changes of one `key` in a row are one step. */
  | { type: 'apply'; apply: (figure: EditorFigure) => EditorFigure; key?: string }
  | { type: 'undo' }
  | { type: 'redo' };

export const startHistory = (figure: EditorFigure): History<EditorFigure> => start(figure);

export function historyReducer(h: History<EditorFigure>, action: HistoryAction): History<EditorFigure> {
  switch (action.type) {
    case 'change':
      return record(h, setIn(h.present, action.path, action.value), action.path);
    case 'set':
      return record(h, action.figure);
    case 'apply':
      return record(h, action.apply(h.present), action.key ?? null);
    case 'undo':
      return undo(h);
    case 'redo':
      return redo(h);
  }
}
