// What was streamed to each token, kept in stream_states (never in the figure or its grids), and the
// notice every app process hears when it changes (LISTEN plot_streams: lib/http/stream-events.ts).
// A trace shows a token's stream when the trace's `stream.token` names it and the plot's owner holds
// the token: nobody else's plots are touched by a writer.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { streamMaxpoints, type StreamObject, type StreamState, type StreamWrite, type StreamedTrace } from '@/lib/shared/streams';

export const STREAMS_CHANNEL = 'plot_streams';
/** NOTIFY's payload must stay under 8000 bytes: longer batches say only "read the state". */
const MAX_PAYLOAD = 7000;

/** The notice of writes to a token's state: `seq` numbers the first of `writes`; without `writes` (one write too large to
 * tell) the state up to `seq` is to be read. */
export interface StreamNotice {
  tokenId: number;
  seq: number;
  writes?: StreamWrite[];
}

/** A token's state and the number of writes in it. */
export interface StoredStream extends StreamState {
  seq: number;
}

export const EMPTY_STATE: StoredStream = { trace: {}, layout: {}, seq: 0 };

/** The payloads telling `writes` (numbered from `seq`): as many writes to each as fit under NOTIFY's bound, in order. */
export function streamNotices(tokenId: number, seq: number, writes: StreamWrite[]): string[] {
  const payloads: string[] = [];
  let batch: StreamWrite[] = [];
  let first = seq;
  let bytes = 0;
  const close = () => {
    if (batch.length) payloads.push(JSON.stringify({ tokenId, seq: first, writes: batch } satisfies StreamNotice));
    first += batch.length;
    batch = [];
    bytes = 0;
  };
  for (const write of writes) {
    const size = Buffer.byteLength(JSON.stringify(write)) + 1;
    if (size > MAX_PAYLOAD - 100) {
      close();
      payloads.push(JSON.stringify({ tokenId, seq: first } satisfies StreamNotice));
      first++;
      continue;
    }
    if (bytes + size > MAX_PAYLOAD - 100) close();
    batch.push(write);
    bytes += size;
  }
  close();
  return payloads;
}

/** The maxpoints the owner's live plots give the traces streamed by `token` (the largest; the default when none). */
export async function streamMaxpointsOf(db: Db, userId: number, token: string): Promise<number> {
  const rows = await queryRows<{ m: unknown }>(
    db,
    sql`SELECT t.value->'stream'->'maxpoints' AS m
        FROM files f JOIN plots p ON p.file_id = f.id,
             jsonb_array_elements(CASE WHEN jsonb_typeof(p.figure->'data') = 'array' THEN p.figure->'data' ELSE '[]'::jsonb END) t
        WHERE f.owner_id = ${userId} AND f.trashed_at IS NULL AND t.value->'stream'->>'token' = ${token}
        LIMIT 100`,
  );
  return rows.length === 0 ? streamMaxpoints(undefined) : Math.max(...rows.map((r) => streamMaxpoints(r.m)));
}

export async function readStreamStates(db: Db, tokenIds: number[]): Promise<Map<number, StoredStream>> {
  if (tokenIds.length === 0) return new Map();
  const rows = await queryRows<{ token_id: string | number; trace: StreamObject; layout: StreamObject; seq: string | number }>(
    db,
    sql`SELECT token_id, trace, layout, seq FROM stream_states WHERE token_id IN (${sql.join(
      tokenIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((r) => [Number(r.token_id), { trace: r.trace, layout: r.layout, seq: Number(r.seq) }]));
}

/** Stores a token's state (`state.seq` counting `writes`, the last ones) and tells every process (delivered at commit, in order). */
export async function saveStreamState(db: Db, tokenId: number, state: StoredStream, writes: StreamWrite[]): Promise<void> {
  const notices = streamNotices(tokenId, state.seq - writes.length + 1, writes);
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`INSERT INTO stream_states (token_id, trace, layout, seq, updated_at)
          VALUES (${tokenId}, ${JSON.stringify(state.trace)}::jsonb, ${JSON.stringify(state.layout)}::jsonb, ${state.seq}, now())
          ON CONFLICT (token_id) DO UPDATE SET trace = excluded.trace, layout = excluded.layout, seq = excluded.seq, updated_at = now()`,
    );
    for (const payload of notices) await tx.execute(sql`SELECT pg_notify(${STREAMS_CHANNEL}, ${payload})`);
  });
}

/** A streamed trace of a plot, with the token it follows (server side only: pages never learn tokens). */
export interface PlotStream extends StreamedTrace {
  tokenId: number;
}

/** The traces of `figure` (a plot owned by `ownerId`) that follow one of the owner's stream tokens. */
export async function plotStreams(db: Db, ownerId: number, figure: unknown): Promise<PlotStream[]> {
  const data = (figure as { data?: unknown })?.data;
  if (!Array.isArray(data)) return [];
  const named = data.flatMap((trace, index) => {
    const stream = (trace as { stream?: { token?: unknown; maxpoints?: unknown } } | null)?.stream;
    return typeof stream?.token === 'string' && stream.token !== '' ? [{ index, token: stream.token, maxpoints: streamMaxpoints(stream.maxpoints) }] : [];
  });
  if (named.length === 0) return [];
  const held = await queryRows<{ id: string | number; token: string }>(
    db,
    sql`SELECT id, token FROM stream_tokens WHERE user_id = ${ownerId} AND token IN (${sql.join(
      [...new Set(named.map((n) => n.token))].map((t) => sql`${t}`),
      sql`, `,
    )})`,
  );
  const ids = new Map(held.map((h) => [h.token, Number(h.id)]));
  return named.flatMap(({ index, token, maxpoints }) => (ids.has(token) ? [{ index, maxpoints, tokenId: ids.get(token)! }] : []));
}

/** A plot's figure, by file id (the caller checked the reader rule). */
export async function plotFigureOf(db: Db, fileId: number): Promise<unknown> {
  const [row] = await queryRows<{ figure: unknown }>(db, sql`SELECT figure FROM plots WHERE file_id = ${fileId}`);
  return row?.figure;
}
