// A page's one connection for every streamed trace it shows (GET /v2/streams/events): server-sent
// events. Each process LISTENs once on plot_streams (lib/core/streams/stream-state.ts) and passes each
// notice to the pages it serves that follow that token, so a write made through any process reaches
// every open page.
import 'server-only';
import { getDatabase, getDb } from '@/db/client';
import { type PlotFollow, stateEvents } from '@/lib/core/streams/plot-follows';
import { readStreamStates, STREAMS_CHANNEL, type StreamNotice } from '@/lib/core/streams/stream-state';
import type { StreamEvent, StreamState, StreamWrite } from '@/lib/shared/streams';
import { onStop } from './stopping';

type Listener = (notice: StreamNotice) => void;

declare global {
  // One LISTEN and one table of listeners per process (kept on globalThis: route bundles are separate module graphs).
  var __plotFilesStreamHub: { listeners: Map<number, Set<Listener>>; listening: Promise<unknown> | null } | undefined;
}

globalThis.__plotFilesStreamHub ??= { listeners: new Map(), listening: null };
const hub = globalThis.__plotFilesStreamHub;

function hear(payload: string): void {
  let notice: StreamNotice;
  try {
    notice = JSON.parse(payload) as StreamNotice;
  } catch {
    return;
  }
  for (const listener of hub.listeners.get(notice.tokenId) ?? []) listener(notice);
}

async function follow(tokenIds: number[], listener: Listener): Promise<() => void> {
  hub.listening ??= getDatabase()
    .then((database) => database.listen(STREAMS_CHANNEL, hear))
    .catch((error: unknown) => {
      hub.listening = null;
      throw error;
    });
  await hub.listening;
  for (const id of tokenIds) {
    const set = hub.listeners.get(id) ?? new Set();
    set.add(listener);
    hub.listeners.set(id, set);
  }
  return () => {
    for (const id of tokenIds) {
      const set = hub.listeners.get(id);
      set?.delete(listener);
      if (set?.size === 0) hub.listeners.delete(id);
    }
  };
}

/** A comment line now and then keeps fronts and browsers from timing the connection out. */
const KEEPALIVE_MS = 25_000;

/**
 * The event stream of `follows`: their states, then each change as it is stored. Answered once the
 * process follows their tokens, so a change stored after the answer's headers is never missed.
 */
export async function streamEventsResponse(follows: PlotFollow[], signal: AbortSignal): Promise<Response> {
  const encoder = new TextEncoder();
  const db = await getDb();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => end(),
  });
  const put = (text: string) => {
    if (!closed) controller.enqueue(encoder.encode(text));
  };
  const send = (event: StreamEvent) => put(`data: ${JSON.stringify(event)}\n\n`);
  // The writes each token's state held when last sent, and the notices in order (a state read waits its turn).
  const seqs = new Map<number, number>();
  // Notices heard before the states are read wait for them (and are then told only past them).
  let statesSent = () => {};
  let queue = new Promise<void>((resolve) => {
    statesSent = resolve;
  });
  const tell = async (notice: StreamNotice) => {
    const held = seqs.get(notice.tokenId) ?? 0;
    let state: StreamState | undefined;
    let writes: StreamWrite[] | undefined;
    if (notice.writes) {
      writes = notice.writes.slice(Math.max(0, held - notice.seq + 1));
      seqs.set(notice.tokenId, Math.max(held, notice.seq + notice.writes.length - 1));
      if (writes.length === 0) return;
    } else {
      const stored = (await readStreamStates(db, [notice.tokenId])).get(notice.tokenId);
      if (!stored || stored.seq <= held) return;
      seqs.set(notice.tokenId, stored.seq);
      state = { trace: stored.trace, layout: stored.layout };
    }
    for (const f of follows) {
      const traces = f.traces.filter((t) => t.tokenId === notice.tokenId).map(({ index, maxpoints }) => ({ index, maxpoints }));
      if (traces.length) send(writes ? { fid: f.fid, traces, writes } : { fid: f.fid, traces, state });
    }
  };
  const listener: Listener = (notice) => {
    queue = queue.then(() => tell(notice)).catch(() => {});
  };
  const unfollow = await follow([...new Set(follows.flatMap((f) => f.traces.map((t) => t.tokenId)))], listener);
  const keepalive = setInterval(() => put(': keepalive\n\n'), KEEPALIVE_MS);
  // At a stop the browser reconnects (`retry`), to a process still serving.
  const forget = onStop(() => end());
  function end() {
    if (closed) return;
    closed = true;
    forget();
    clearInterval(keepalive);
    unfollow();
    try {
      controller.close();
    } catch {
      // the reader went away
    }
  }
  signal.addEventListener('abort', end);
  if (signal.aborted) end();
  put('retry: 2000\n\n');
  try {
    const states = await stateEvents(db, follows);
    for (const [id, seq] of states.seqs) seqs.set(id, seq);
    for (const event of states.events) send(event);
  } finally {
    statesSent();
  }
  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: scripts/serve.mjs's compression must not hold events back; nginx reads X-Accel-Buffering.
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    },
  });
}
