// The grid editor's save and CSV download, written off the main thread (serialize-worker.ts): a save
// sends the columns after the edits in one request (POST /v2/grids/{fid}/edits), which the API
// applies all at once or refuses, and then the edits stay here. Refused because someone saved the
// grid meanwhile, the edits can be re-applied onto their data cell by cell (grid-merge.ts). Leaving
// the page with unsaved edits asks first; Ctrl+S saves.
import { useEffect, useRef, useState } from 'react';
import type { GridEditorData } from '@/lib/web/grid-editor';
import { callApi, problemText } from '../api-client';
import { useSaveShortcut, useUnsavedChanges } from '../unsaved-changes';
import { mergeEdits, type Merged } from './grid-merge';
import type { GridModel } from './grid-model';
import { loadColumns } from './use-grid-data';
import type { SerializeAnswer, SerializeAsk } from './serialize-worker';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** One worker writes saves and CSVs; each ask answered by id. */
function useSerializer() {
  const serializer = useRef<{ worker: Worker; next: number; waiting: Map<number, (a: SerializeAnswer) => void> } | null>(null);
  useEffect(() => () => serializer.current?.worker.terminate(), []);
  return (ask: DistributiveOmit<SerializeAsk, 'id'>): Promise<SerializeAnswer> => {
    if (!serializer.current) {
      const worker = new Worker(new URL('./serialize-worker.ts', import.meta.url));
      const waiting = new Map<number, (a: SerializeAnswer) => void>();
      worker.onmessage = (e: MessageEvent<SerializeAnswer>) => {
        waiting.get(e.data.id)?.(e.data);
        waiting.delete(e.data.id);
      };
      serializer.current = { worker, next: 0, waiting };
    }
    const s = serializer.current;
    const id = s.next++;
    return new Promise((resolve) => {
      s.waiting.set(id, resolve);
      s.worker.postMessage({ ...ask, id });
    });
  };
}

interface Saving {
  /** The grid as the page opened it: its name, its columns, and the base a save is made on. */
  name: string;
  cols: { uid: string; name: string }[];
  base: string;
  apiPath: string;
  /** Said on the status line, and as a problem. */
  onStatus: (said: string) => void;
  onProblem: (problem: string | null) => void;
}

export function useGridSaving(model: GridModel | null, { name, cols, base, apiPath, onStatus, onProblem }: Saving) {
  const savedCols = useRef(cols.map((c) => ({ uid: c.uid, name: c.name })));
  const savedBase = useRef(base);
  const [saving, setSaving] = useState(false);
  /** Refused because the grid changed meanwhile: the edits may be re-applied. */
  const [stale, setStale] = useState(false);
  /** What the last re-apply did. */
  const [merged, setMerged] = useState<Merged | null>(null);
  const serialize = useSerializer();
  const dirty = model ? model.changed(savedCols.current) : false;

  useUnsavedChanges(dirty);

  const downloadCsv = async () => {
    if (!model) return;
    const answer = await serialize({ kind: 'csv', source: model.csvSource() });
    if (!('csv' in answer)) return;
    const url = URL.createObjectURL(answer.csv);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name} (edited).csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const save = async () => {
    if (!model || saving) return;
    setSaving(true);
    onProblem(null);
    onStatus('Saving…');
    const kept = ' Nothing was saved; your edits are kept here.';
    try {
      const answer = await serialize({ kind: 'save', url: `${apiPath}/edits`, base: savedBase.current, items: model.saveItems() });
      const outcome = 'save' in answer ? answer.save : { unreachable: true as const };
      onStatus('');
      if ('tooLarge' in outcome) {
        onProblem(`These changes are too large to save at once (over 50 MiB of data).${kept} Download them as CSV.`);
      } else if ('unreachable' in outcome) {
        onProblem(`The save could not reach the server.${kept} Try again.`);
      } else if (outcome.ok && outcome.body?.base && outcome.body.cols) {
        model.saved(outcome.body.cols);
        savedBase.current = outcome.body.base;
        savedCols.current = outcome.body.cols;
        onStatus('Saved. Plots drawn from this grid are drawn again with the new data.');
      } else if (outcome.status === 409) {
        setStale(true);
        onProblem(
          model.rowsReshaped
            ? `Someone else saved this grid since you opened it, so nothing was saved. Your edits added or deleted rows, so they cannot be re-applied to the current data cell by cell: download them as CSV, then reload.`
            : 'Someone else saved this grid since you opened it, so nothing was saved. Your edits are kept here: re-apply them to the current data, cell by cell.',
        );
      } else {
        const said = outcome.ok ? `The save failed (HTTP ${outcome.status}).` : problemText(outcome, (status) => `The save failed (HTTP ${status}).`);
        onProblem(`${said}${kept}`);
      }
    } finally {
      setSaving(false);
    }
  };

  /** Re-applies the edits onto the grid as it is now; they stay unsaved, to check and save. */
  const reapply = async () => {
    if (!model || saving || model.rowsReshaped) return;
    setSaving(true);
    onProblem(null);
    onStatus('Reading the current data…');
    try {
      const now = await callApi<{ base: string; cols: GridEditorData['cols'] }>(`${apiPath}/edits`);
      if (!now.ok) throw new Error(problemText(now, (status) => `The current data could not be read (HTTP ${status}).`));
      const theirs = await loadColumns(now.body.cols, apiPath).done;
      const { base, mine } = model.sinceSave();
      const result = mergeEdits(base, mine, theirs);
      model.rebase(result, theirs);
      savedBase.current = now.body.base;
      savedCols.current = now.body.cols.map((c) => ({ uid: c.uid, name: c.name }));
      setStale(false);
      setMerged(result);
      onStatus(
        `Your edits are re-applied to the current data: ${result.applied.toLocaleString('en')} ${result.applied === 1 ? 'cell' : 'cells'}${result.conflicts.length ? `, and ${result.conflicts.length.toLocaleString('en')} both of you changed (yours kept, listed below)` : ''}. Check them, then save.`,
      );
    } catch (error) {
      onStatus('');
      onProblem(`${error instanceof Error ? error.message : String(error)} Nothing changed here; try again.`);
    } finally {
      setSaving(false);
    }
  };

  useSaveShortcut(() => {
    if (dirty) save();
  });

  return { saving, dirty, save, downloadCsv, stale: stale && !model?.rowsReshaped, reapply, merged, dismissMerged: () => setMerged(null) };
}
