// The rules of a live stream's writes (chart_studio's `Stream`), in one place: the streaming host
// applies them to the stored stream state (lib/core/streams) and the browser applies the same ones
// to the chart it draws (components/live-streams.ts).

/** Bounds of streaming (docs/limits.md). */
export const STREAM_LIMITS = {
  /** Stream tokens a person may hold. */
  tokensPerPerson: 20,
  /** Bytes of one written line (one JSON object). */
  lineBytes: 64 * 1024,
  /** Points kept per array when no plot of the owner names the token's maxpoints, and at most. */
  defaultMaxpoints: 1000,
  maxMaxpoints: 10_000,
  /** Writes per second of one open stream, and the burst it may send at once. */
  writesPerSecond: 200,
  writeBurst: 1000,
  /** Bytes per second of one open stream, and the burst. */
  bytesPerSecond: 256 * 1024,
  byteBurst: 1024 * 1024,
  /** A stream without a write or heartbeat for this long is ended (408: the client reconnects). */
  silenceMs: 60_000,
  /** Keys of a written object, and its depth (marker: {color: ...} is depth 2). */
  keys: 50,
  depth: 4,
  /** Plots one page follows. */
  plotsPerPage: 50,
} as const;

export type StreamObject = Record<string, unknown>;

/** One write: the trace's keys (scalars append, arrays replace) and the layout update. */
export interface StreamWrite {
  trace: StreamObject;
  layout?: StreamObject;
}

/** What was streamed to one token so far. */
export interface StreamState {
  trace: StreamObject;
  layout: StreamObject;
}

export class StreamLineError extends Error {}

const isObject = (v: unknown): v is StreamObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nested objects are bounded in keys and depth; arrays hold scalars (no objects inside a point). */
function checkObject(value: StreamObject, depth: number, where: string): void {
  const keys = Object.keys(value);
  if (keys.length > STREAM_LIMITS.keys) throw new StreamLineError(`${where} has more than ${STREAM_LIMITS.keys} keys.`);
  for (const key of keys) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new StreamLineError(`${where} names "${key}", which no trace has.`);
    const v = value[key];
    if (isObject(v)) {
      if (depth >= STREAM_LIMITS.depth) throw new StreamLineError(`${where} is nested deeper than ${STREAM_LIMITS.depth} levels.`);
      checkObject(v, depth + 1, `${where}.${key}`);
    }
  }
}

/**
 * One line of the stream's body: null for a heartbeat (an empty line), else the write it says.
 * `type` and `stream` are not the stream's to change and are dropped.
 */
export function parseStreamLine(line: string): StreamWrite | null {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new StreamLineError('A write must be one JSON object per line.');
  }
  if (!isObject(value)) throw new StreamLineError('A write must be a JSON object (the trace\u2019s keys, and optionally "layout").');
  checkObject(value, 1, 'The write');
  const { layout, type: _type, stream: _stream, ...trace } = value;
  if (layout !== undefined && !isObject(layout)) throw new StreamLineError('"layout" must be an object.');
  return layout === undefined ? { trace } : { trace, layout };
}

/** `target` with `write` applied: scalars append (keeping the last `maxpoints`), arrays replace, objects apply key by key. */
function applyObject(target: StreamObject, write: StreamObject, maxpoints: number): StreamObject {
  const out: StreamObject = { ...target };
  for (const [key, v] of Object.entries(write)) {
    if (Array.isArray(v)) out[key] = v.slice(-maxpoints);
    else if (isObject(v)) out[key] = applyObject(isObject(out[key]) ? out[key] : {}, v, maxpoints);
    else {
      const prior = Array.isArray(out[key]) ? (out[key] as unknown[]) : [];
      out[key] = [...prior.slice(prior.length + 1 - maxpoints), v];
    }
  }
  return out;
}

/** Deep merge: layout updates set values (arrays too) as Plotly.relayout does. */
function mergeLayout(target: StreamObject, update: StreamObject): StreamObject {
  const out: StreamObject = { ...target };
  for (const [key, v] of Object.entries(update)) out[key] = isObject(v) && isObject(out[key]) ? mergeLayout(out[key], v) : v;
  return out;
}

export function applyStreamWrite(state: StreamState, write: StreamWrite, maxpoints: number): StreamState {
  return {
    trace: applyObject(state.trace, write.trace, maxpoints),
    layout: write.layout ? mergeLayout(state.layout, write.layout) : state.layout,
  };
}

/** A trace's `maxpoints` as the stream keeps it: a whole number in 1..maxMaxpoints, else the default. */
export function streamMaxpoints(value: unknown): number {
  const n = typeof value === 'number' ? Math.floor(value) : typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  return Number.isFinite(n) && n >= 1 ? Math.min(n, STREAM_LIMITS.maxMaxpoints) : STREAM_LIMITS.defaultMaxpoints;
}

/** What the page's event stream says of one streamed trace: its index in the figure and the writes (or the whole state). */
export interface StreamedTrace {
  index: number;
  maxpoints: number;
}
export interface StreamEvent {
  fid: string;
  traces: StreamedTrace[];
  /** The writes since the last event, in order; absent when `state` is sent instead. */
  writes?: StreamWrite[];
  state?: StreamState;
}

type Trace = { stream?: unknown };

/**
 * Takes the stream tokens out of `figure`'s traces, keeping the rest of each `stream`; whether there
 * were any. Its twin in SQL is `figure_without_stream_tokens` (the plot records' figure), held to it by tests/lib/stream-tokens-twin.test.ts.
 */
export function dropStreamTokens(figure: unknown): boolean {
  const data = typeof figure === 'object' && figure !== null ? (figure as { data?: unknown }).data : undefined;
  let dropped = false;
  for (const t of Array.isArray(data) ? data : []) {
    if (typeof t !== 'object' || t === null) continue;
    const trace = t as Trace;
    if (typeof trace.stream === 'object' && trace.stream !== null && !Array.isArray(trace.stream) && 'token' in trace.stream) {
      const { token: _, ...rest } = trace.stream as Record<string, unknown>;
      trace.stream = rest;
      dropped = true;
    }
  }
  return dropped;
}

/**
 * The figure's text as anyone but its owner reads it: without its stream tokens. A token is the
 * owner's key for writing to the trace (chart_studio's `Stream`), so it is never shown to a reader,
 * and a copy does not carry it (pages follow a stream by the plot, not by its token).
 */
export function figureTextWithoutTokens(text: string): string {
  if (!text.includes('"token"')) return text;
  const figure = JSON.parse(text);
  return dropStreamTokens(figure) ? JSON.stringify(figure) : text;
}

const tokenOf = (trace: unknown): string | undefined => {
  const stream = typeof trace === 'object' && trace !== null ? (trace as Trace).stream : undefined;
  const token = typeof stream === 'object' && stream !== null ? (stream as { token?: unknown }).token : undefined;
  return typeof token === 'string' && token !== '' ? token : undefined;
};

/** A trace with a `stream` object that says no token: how a collaborator saw (and saves) one of the owner's streamed traces. */
const tokenless = (trace: unknown): trace is Trace & { stream: Record<string, unknown> } => {
  const stream = typeof trace === 'object' && trace !== null ? (trace as Trace).stream : undefined;
  return typeof stream === 'object' && stream !== null && !Array.isArray(stream) && !('token' in stream);
};

/**
 * A collaborator's save of the owner's plot (`figure`, read without tokens) keeps the owner's tokens
 * (`stored`'s) on the streamed traces they kept, as srcs they cannot read are kept: each token goes back
 * to a saved trace whose `stream` names no token, first to one the same as its stored trace (without
 * `stream`), then to one of the same type, then in order. A trace whose `stream` was taken off has none.
 */
export function keepStreamTokens(stored: unknown, figure: unknown): void {
  const dataOf = (f: unknown) => (typeof f === 'object' && f !== null && Array.isArray((f as { data?: unknown }).data) ? (f as { data: unknown[] }).data : []);
  const withoutStream = (t: unknown) => JSON.stringify({ ...(t as object), stream: undefined });
  const typeOf = (t: unknown) => String((t as { type?: unknown }).type ?? 'scatter');
  const owned = dataOf(stored).flatMap((t) => {
    const token = tokenOf(t);
    return token ? [{ token, same: withoutStream(t), type: typeOf(t) }] : [];
  });
  const waiting = dataOf(figure).filter(tokenless);
  const passes: ((o: (typeof owned)[number], t: unknown) => boolean)[] = [(o, t) => o.same === withoutStream(t), (o, t) => o.type === typeOf(t), () => true];
  for (const matches of passes) {
    for (const trace of [...waiting]) {
      const i = owned.findIndex((o) => matches(o, trace));
      if (i === -1) continue;
      trace.stream = { token: owned[i].token, ...trace.stream };
      owned.splice(i, 1);
      waiting.splice(waiting.indexOf(trace), 1);
    }
  }
}
