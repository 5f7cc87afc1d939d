// Fetches a grid's columns off the main thread, a group of columns a request, and answers each
// group's values compacted (number columns as Float64Arrays, handed over without a copy).
import { callApi } from '../api-client';
import { compactValues } from './grid-values';

export interface LoadAsk {
  /** `/v2/grids/owner:n/col`, and each request's uids. */
  url: string;
  groups: string[][];
}

export type LoadAnswer = { cols: { uid: string; name: string; values: Float64Array | unknown[] }[] } | { done: true } | { error: string };

const scope = self as unknown as { onmessage: ((e: MessageEvent<LoadAsk>) => void) | null; postMessage(message: LoadAnswer, transfer?: Transferable[]): void };

scope.onmessage = async (e) => {
  const { url, groups } = e.data;
  try {
    for (const uids of groups) {
      const answer = await callApi<{ cols: { uid: string; name: string; data: unknown }[] }>(`${url}?uid=${uids.map(encodeURIComponent).join(',')}`);
      if (!answer.ok) throw new Error(`the grid's data could not be read (HTTP ${answer.status}); reload to try again`);
      const cols = answer.body.cols.map((c) => ({ uid: c.uid, name: c.name, values: compactValues(Array.isArray(c.data) ? c.data : [c.data]) }));
      scope.postMessage(
        { cols },
        cols.flatMap((c) => (c.values instanceof Float64Array ? [c.values.buffer] : [])),
      );
    }
    scope.postMessage({ done: true });
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
