// The grid editor's data, fetched off the main thread (load-worker.ts) a group of columns a request,
// into the model the editor edits.
import { useEffect, useState } from 'react';
import type { GridEditorData } from '@/lib/web/grid-editor';
import { GridModel, type LoadedColumn } from './grid-model';
import type { LoadAnswer, LoadAsk } from './load-worker';

/** Data one load request asks for, about. */
const REQUEST_BYTES = 8 * 1024 * 1024;

/** The columns' uids in requests of about REQUEST_BYTES (at most 100 uids each). */
function loadGroups(cols: ColumnList): string[][] {
  const out: string[][] = [];
  let group: string[] = [];
  let size = 0;
  for (const c of cols) {
    if (group.length && (group.length === 100 || size + c.bytes > REQUEST_BYTES)) {
      out.push(group);
      group = [];
      size = 0;
    }
    group.push(c.uid);
    size += c.bytes;
  }
  if (group.length) out.push(group);
  return out;
}

/**
 * The columns `cols` of the grid at `apiPath`, fetched off the main thread in order; `onCount` hears how
 * many have come. Rejects with why loading stopped.
 */
export function loadColumns(cols: ColumnList, apiPath: string, onCount?: (n: number) => void): { done: Promise<LoadedColumn[]>; cancel: () => void } {
  const worker = new Worker(new URL('./load-worker.ts', import.meta.url));
  const byUid = new Map<string, LoadedColumn>();
  const done = new Promise<LoadedColumn[]>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<LoadAnswer>) => {
      const answer = e.data;
      if ('error' in answer) {
        reject(new Error(answer.error));
        worker.terminate();
      } else if ('cols' in answer) {
        for (const c of answer.cols) byUid.set(c.uid, c);
        onCount?.(byUid.size);
      } else {
        resolve(cols.map((c) => byUid.get(c.uid) ?? { uid: c.uid, name: c.name, values: [] }));
        worker.terminate();
      }
    };
  });
  worker.postMessage({ url: `${apiPath}/col`, groups: loadGroups(cols) } satisfies LoadAsk);
  return { done, cancel: () => worker.terminate() };
}

type ColumnList = GridEditorData['cols'];

/** The model once every column is here (null until then), the columns loaded so far, and why loading stopped. */
export function useGridData(cols: ColumnList, apiPath: string): { model: GridModel | null; loaded: number; problem: string | null } {
  const [model, setModel] = useState<GridModel | null>(null);
  const [loaded, setLoaded] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!cols.length) {
      setModel(new GridModel([]));
      return;
    }
    const load = loadColumns(cols, apiPath, setLoaded);
    load.done.then(
      (columns) => setModel(new GridModel(columns)),
      (error: Error) => setProblem(error.message),
    );
    return load.cancel;
  }, [cols, apiPath]);
  return { model, loaded, problem };
}
