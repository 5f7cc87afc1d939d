// Undo and redo over immutable states (the chart editor's figure, the dashboard builder's layout and
// title): every state shown, each sharing what did not change with the one before. Changes to the
// same thing in a row (typing a title) are one step. (The grid editor's data is too large to copy:
// its edits undo themselves, grid-editor/grid-model.ts.)

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** What the last change wrote, to fold the next change to it into the same step. */
  last: string | null;
}

/** Steps kept to undo. */
const MAX_STEPS = 200;

export const startHistory = <T>(present: T): History<T> => ({ past: [], present, future: [], last: null });

/** `present` as the next step; a change of `key` right after another of it joins that step. */
export function record<T>(h: History<T>, present: T, key: string | null = null): History<T> {
  if (key !== null && h.last === key) return { ...h, present, future: [] };
  return { past: [...h.past, h.present].slice(-MAX_STEPS), present, future: [], last: key };
}

export function undo<T>(h: History<T>): History<T> {
  if (!h.past.length) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future], last: null };
}

export function redo<T>(h: History<T>): History<T> {
  if (!h.future.length) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1), last: null };
}
