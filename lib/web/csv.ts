// CSV downloads (the one format of lib/shared/csv-text.ts, as the grid editor's "Download CSV") of grid columns, within a memory budget: each column's stored JSON text is read once and
// walked value by value (never parsed into arrays of values), a download holds at most
// CSV_MAX_BYTES of column text, and at most CSV_CONCURRENCY downloads of a process are built at once.
import 'server-only';
import pLimit from 'p-limit';
import type { Db } from '@/db/client';
import { csvColumnBytes, type CsvColumn } from '@/lib/core/plots/csv-columns';
import { columnTextList } from '@/lib/core/grids/column-reads';
import { csvCell, csvLine } from '@/lib/shared/csv-text';

export const CSV_MAX_BYTES = 64 * 1024 * 1024;
const CSV_CONCURRENCY = 2;
/** Downloads waiting for a turn; past it the download is refused for now (a 503 with Retry-After). */
const CSV_QUEUE = 16;
const ROWS_A_CHUNK = 1000;
/** How long one download may hold its turn. */
const CSV_SECONDS = 300;

export class CsvTooLargeError extends Error {
  name = 'CsvTooLargeError';
}
export class CsvBusyError extends Error {
  name = 'CsvBusyError';
}

const gate = pLimit(CSV_CONCURRENCY);

/** A turn to build a download: resolves with the function that ends it. */
function turn(): Promise<() => void> {
  if (gate.pendingCount >= CSV_QUEUE) throw new CsvBusyError('too many CSV downloads are being built; try again shortly');
  return new Promise((granted) => void gate(() => new Promise<void>((done) => granted(done))));
}

/** One CSV field from a value's JSON text (csvCell: a string a spreadsheet would run as a formula gets a leading '). */
export function csvField(json: string | undefined): string {
  if (json === undefined || json === 'null') return '';
  const isText = json.startsWith('"');
  return csvCell(isText ? (JSON.parse(json) as string) : json, isText);
}

const WS = new Set([32, 9, 10, 13]);

/** The JSON texts of a JSON array's items, one at a time (a lone value is a one-item column). */
export function* jsonItems(text: string): Generator<string> {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  };
  skip();
  if (text[i] !== '[') {
    yield text.trim();
    return;
  }
  i++;
  for (;;) {
    skip();
    if (i >= text.length || text[i] === ']') return;
    const start = i;
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
      } else if (c === 91 || c === 123) depth++;
      else if (c === 93 || c === 125) {
        if (depth === 0) break;
        depth--;
      } else if (c === 44 && depth === 0) break;
    }
    yield text.slice(start, i).trimEnd();
    skip();
    if (text[i] === ',') i++;
  }
}

/** The CSV rows of these columns, aligned (shorter columns leave empty fields), in chunks of rows. */
async function* rows(db: Db, columns: CsvColumn[]): AsyncGenerator<string> {
  yield csvLine(columns.map((c) => csvField(JSON.stringify(c.header))));
  const items: Iterator<string>[] = [];
  // Every column at once (rows take a value of each), read in batches rather than a statement a column.
  for (const text of await columnTextList(
    db,
    columns.map((c) => c.columnId),
  ))
    items.push(jsonItems(text));
  for (let more = true; more; ) {
    let chunk = '';
    for (let r = 0; r < ROWS_A_CHUNK && more; r++) {
      const fields = items.map((it) => it.next().value);
      more = fields.some((f) => f !== undefined);
      if (more) chunk += csvLine(fields.map(csvField));
    }
    if (chunk) yield chunk;
  }
}

/**
 * The download of these columns: refused (CsvTooLargeError) past CSV_MAX_BYTES of column text, and
 * built when a turn is free (CsvBusyError when too many wait). The turn ends with the stream: read to
 * the end, cancelled, failed, or past CSV_SECONDS (a client that stops reading cannot keep it).
 */
export interface CsvStream {
  next(): Promise<IteratorResult<string, undefined>>;
  /** Ends the download early (the client went away). */
  return(): Promise<IteratorResult<string, undefined>>;
}

export async function csvDownload(db: Db, columns: CsvColumn[]): Promise<CsvStream> {
  if (!columns.length) {
    const none = async () => ({ done: true, value: undefined }) as const;
    return { next: none, return: none };
  }
  const bytes = await csvColumnBytes(db, columns);
  if (bytes > CSV_MAX_BYTES) throw new CsvTooLargeError(`${(bytes / 2 ** 20).toFixed(0)} MiB of data`);
  const done = await turn();
  const source = rows(db, columns);
  let open = true;
  const end = () => {
    if (open) done();
    open = false;
  };
  const timer = setTimeout(() => {
    end();
    void source.return(undefined);
  }, CSV_SECONDS * 1000);
  const finish = () => {
    clearTimeout(timer);
    end();
  };
  return {
    async next() {
      if (!open) return { done: true, value: undefined };
      try {
        const step = await source.next();
        if (!step.done) return step;
        finish();
        return { done: true, value: undefined };
      } catch (error) {
        finish();
        throw error;
      }
    },
    async return() {
      finish();
      await source.return(undefined);
      return { done: true, value: undefined };
    },
  };
}
