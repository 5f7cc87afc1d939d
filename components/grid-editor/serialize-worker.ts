// Turns the editor's columns into text off the main thread (a million numbers take a second to
// write): a save's body, sent from here (POST /v2/grids/{fid}/edits, with the page's session), and
// the CSV download.
import { type ApiAnswer, callApi } from '../api-client';
import { type CsvSource, csvParts, type SaveItem, saveBodyText } from './grid-text';

/** The API's limit on a grid body. */
const MAX_SAVE_BYTES = 50 * 1024 * 1024;

export type SerializeAsk = { id: number; kind: 'save'; url: string; base: string; items: SaveItem[] } | { id: number; kind: 'csv'; source: CsvSource };

/** A saved grid, as the API answers a save: its new base and its columns in order. */
export interface SavedGrid {
  base: string;
  cols: { name: string; uid: string }[];
}
export type SaveAnswer = { tooLarge: true } | { unreachable: true } | ApiAnswer<SavedGrid>;
export type SerializeAnswer = { id: number } & ({ save: SaveAnswer } | { csv: Blob });

const scope = self as unknown as { onmessage: ((e: MessageEvent<SerializeAsk>) => void) | null; postMessage(message: SerializeAnswer): void };

async function save(url: string, base: string, items: SaveItem[]): Promise<SaveAnswer> {
  const body = saveBodyText(base, items);
  // A UTF-16 length under-counts UTF-8 bytes: the API's own 413 answers the rest.
  if (body.length > MAX_SAVE_BYTES) return { tooLarge: true };
  try {
    return await callApi<SavedGrid>(url, { method: 'POST', body });
  } catch {
    return { unreachable: true };
  }
}

scope.onmessage = async (e) => {
  const ask = e.data;
  if (ask.kind === 'save') scope.postMessage({ id: ask.id, save: await save(ask.url, ask.base, ask.items) });
  else scope.postMessage({ id: ask.id, csv: new Blob(csvParts(ask.source), { type: 'text/csv' }) });
};
