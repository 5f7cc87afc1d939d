// The data import's store, in its worker: the table as a grid through the API (POST /v2/grids, then
// POST /v2/grids/{fid}/col for the columns past one request's size), the next request's body built
// while the server stores this one; a grid left short of columns is deleted again.
import { apiFilePath } from '@/lib/shared/urls';
import { type ApiAnswer, callApi } from '../api-client';
import { freeName, nameTaken } from '../free-name';
import type { Sharing, ToWorker } from './messages';
import { InputError, rowNumber, type Table } from './read-table';
import { columnJson, columnNames } from './table-data';
import { progress } from './worker-progress';

/** A request's columns at most, in bytes: well under the API's 50 MiB grid body, and small enough
 * that the next request's body is built while the server stores this one. */
const BATCH_BYTES = 12 * 1024 * 1024;
/** "Busy" answers (429) waited out before one is the answer. */
const BUSY_RETRIES = 5;

const encoder = new TextEncoder();

/** A refused request's first problem as a sentence, and the field it names (the name: said at its field). */
function refusal(answer: Extract<ApiAnswer<unknown>, { ok: false }>): InputError & { field?: 'filename' } {
  const first = answer.errors[0];
  // The API's messages begin with the field they name.
  const message = first?.field ? first.message.replace(`${first.field}: `, '') : first?.message;
  if (first?.field === 'filename') return Object.assign(new InputError(`${message}. Choose another name.`), { field: 'filename' as const });
  if (!first) return new InputError(`The grid was not stored (error ${answer.status}).`);
  // A message of sentences (a person's storage full) keeps its own ending.
  const said = `${message}${first.field ? ` (${first.field})` : ''}`;
  return new InputError(`The grid was not stored: ${said}${/[.!?]$/.test(said) ? '' : '.'}`);
}

/**
 * One request body from text and bytes, as bytes: sent from memory as it is, where a Blob body would
 * go through the browser's blob store first.
 */
function bodyOf(parts: (string | Uint8Array<ArrayBuffer>)[]): Uint8Array<ArrayBuffer> {
  const chunks = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** POSTs a body, waiting out the server's "busy" answers. */
const send = <T>(url: string, body: Uint8Array<ArrayBuffer>) => callApi<T>(url, { method: 'POST', body, busyRetries: BUSY_RETRIES });

/** Stores the table as a grid: the first batch of columns creates it, the rest are appended. */
export async function store(t: Table, message: Extract<ToWorker, { type: 'import' }>): Promise<{ owner: string; n: number }> {
  const start = message.header ? 1 : 0;
  const total = t.width;
  const names = columnNames(message.header ? Array.from({ length: total }, (_, k) => t.cell(k, 0)) : null, total);
  let next = 0;
  /** The next batch: columns' json as bytes, up to BATCH_BYTES (at least one column). */
  const batch = () => {
    const parts: { name: string; order: number; bytes: Uint8Array<ArrayBuffer> }[] = [];
    let size = 0;
    while (next < total && (parts.length === 0 || size < BATCH_BYTES)) {
      let bytes = message.types[next] === 'number' ? t.plainJson(next, start) : null;
      if (!bytes) {
        const cells = start ? t.column(next).slice(start) : t.column(next);
        const json = columnJson(cells, message.types[next]);
        if (!('text' in json)) throw new InputError(`Column '${names[next]}', row ${rowNumber(t, json.index + start)}: ${json.message}.`);
        bytes = encoder.encode(json.text);
      }
      parts.push({ name: names[next], order: next, bytes });
      size += bytes.length;
      next++;
    }
    return parts;
  };
  const sharing: Record<Sharing, object> = {
    private: { world_readable: false },
    public: { world_readable: true },
    secret: { world_readable: false, share_key_enabled: true },
  };
  const first = batch();
  // Data that fits one request goes in the create. More is appended to a grid created empty: the
  // column verb's body is parsed as it is, while a create's is first scanned for repeated names.
  const whole = next === total;
  const createBody = (fields: string) =>
    bodyOf([
      `${fields},"data":{"cols":{`,
      ...(whole ? first : []).flatMap((c, i) => [`${i ? ',' : ''}${JSON.stringify(c.name)}:{"order":${c.order},"data":`, c.bytes, '}']),
      '}}}',
    ]);
  progress('store', 0.05);
  // A name already taken is numbered ("sales (2)"), as file managers name a second copy.
  let created: ApiAnswer<{ file: { fid: string } }>;
  for (let tries = 0; ; tries++) {
    const fields = JSON.stringify({ filename: await freeName(message.filename), ...sharing[message.sharing] }).slice(0, -1);
    created = await send<{ file: { fid: string } }>('/v2/grids', createBody(fields));
    if (created.ok || tries >= 2 || !nameTaken(created.errors)) break;
  }
  if (!created.ok) throw refusal(created);
  let stored = whole ? first.length : 0;
  let upcoming = whole ? null : first;
  const { file } = created.body;
  const at = file.fid.lastIndexOf(':');
  const grid = { owner: file.fid.slice(0, at), n: Number(file.fid.slice(at + 1)) };
  try {
    while (upcoming) {
      progress('store', stored / total);
      const body = bodyOf(['{"cols":[', ...upcoming.flatMap((c, i) => [`${i ? ',' : ''}{"name":${JSON.stringify(c.name)},"data":`, c.bytes, '}']), ']}']);
      const sent = upcoming.length;
      const pending = send(`${apiFilePath('grids', grid.owner, grid.n)}/col`, body);
      upcoming = next < total ? batch() : null;
      const res = await pending;
      if (!res.ok) throw refusal(res);
      stored += sent;
    }
  } catch (e) {
    // A grid missing columns is no import: it goes, and the person sees why.
    await callApi(apiFilePath('grids', grid.owner, grid.n), { method: 'DELETE' }).catch(() => {});
    throw e;
  }
  progress('store', 1);
  return grid;
}
