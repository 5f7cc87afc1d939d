// A page's one connection for every streamed trace it shows (GET /v2/streams/events): server-sent
// events. Each process LISTENs once on plot_streams (lib/core/streams/stream-state.ts) and passes each
// notice to the pages it serves that follow that token, so a write made through any process reaches
// every open page.
import 'server-only';
import { getDatabase, getDb } from '@/db/client';
import { type PlotFollow, stateEvents } from '@/lib/core/streams/plot-follows';
import { readStreamStates, STREAMS_CHANNEL, type StreamNotice } from '@/lib/core/streams/stream-state';
import type { StreamEvent } from '@/lib/shared/streams';
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
  const listener: Listener = (notice) => {
    for (const f of follows) {
      const traces = f.traces.filter((t) => t.tokenId === notice.tokenId).map(({ index, maxpoints }) => ({ index, maxpoints }));
      if (traces.length === 0) continue;
      if (notice.writes) send({ fid: f.fid, traces, writes: notice.writes });
      else
        void readStreamStates(db, [notice.tokenId])
          .then((states) => {
            const state = states.get(notice.tokenId);
            if (state) send({ fid: f.fid, traces, state });
          })
          .catch(() => {});
    }
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
  for (const event of await stateEvents(db, follows)) send(event);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: scripts/serve.mjs's compression must not hold events back; nginx reads X-Accel-Buffering.
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    },
  });
}
