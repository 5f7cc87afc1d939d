// The rules of a stream's writes (lib/shared/streams.ts): what a line says, and what it does to the state.
import { describe, expect, it } from 'vitest';
import { streamNotices } from '@/lib/core/streams/stream-state';
import {
  applyStreamWrite,
  dropStreamTokens,
  keepStreamTokens,
  parseStreamLine,
  STREAM_LIMITS,
  StreamLineError,
  streamMaxpoints,
  type StreamState,
} from '@/lib/shared/streams';

const empty: StreamState = { trace: {}, layout: {} };
const run = (lines: string[], maxpoints = 3) =>
  lines.reduce((state, line) => {
    const write = parseStreamLine(line);
    return write ? applyStreamWrite(state, write, maxpoints) : state;
  }, empty);

describe('stream writes', () => {
  it('scalars append, keeping the last maxpoints; arrays replace (cut to maxpoints); objects apply key by key', () => {
    expect(run(['{"x":1,"y":10}', '{"x":2,"y":20}', '{"x":3,"y":30}', '{"x":4,"y":40}']).trace).toEqual({ x: [2, 3, 4], y: [20, 30, 40] });
    expect(run(['{"x":1}', '{"x":[7,8,9,10]}']).trace).toEqual({ x: [8, 9, 10] });
    expect(run(['{"x":[1]}', '{"x":2}']).trace).toEqual({ x: [1, 2] });
    expect(run(['{"marker":{"color":"red"}}', '{"marker":{"color":"blue","size":[3]}}']).trace).toEqual({ marker: { color: ['red', 'blue'], size: [3] } });
  });

  it('layout updates merge; type and stream are not the stream\u2019s to change; an empty line is a heartbeat', () => {
    const state = run([
      '{"layout":{"title":{"text":"a"},"xaxis":{"range":[0,1]}}}',
      '',
      '  ',
      '{"type":"bar","stream":{"token":"t"},"layout":{"title":{"font":{"size":9}}}}',
    ]);
    expect(state).toEqual({ trace: {}, layout: { title: { text: 'a', font: { size: 9 } }, xaxis: { range: [0, 1] } } });
    expect(parseStreamLine('\r')).toBeNull();
  });

  it('bad lines are refused with a sentence', () => {
    for (const line of [
      'not json',
      '[1,2]',
      '3',
      '{"layout":5}',
      '{"__proto__":{"x":1}}',
      `{"a":${'{"a":'.repeat(STREAM_LIMITS.depth)}1${'}'.repeat(STREAM_LIMITS.depth)}}`,
    ]) {
      expect(() => parseStreamLine(line), line).toThrow(StreamLineError);
    }
    const many = Object.fromEntries(Array.from({ length: STREAM_LIMITS.keys + 1 }, (_, i) => [`k${i}`, i]));
    expect(() => parseStreamLine(JSON.stringify(many))).toThrow(/more than 50 keys/);
  });

  it('maxpoints: whole numbers within bounds, else the default', () => {
    expect(streamMaxpoints(50)).toBe(50);
    expect(streamMaxpoints('20')).toBe(20);
    expect(streamMaxpoints(1e9)).toBe(STREAM_LIMITS.maxMaxpoints);
    for (const bad of [0, -3, 'x', null, undefined]) expect(streamMaxpoints(bad)).toBe(STREAM_LIMITS.defaultMaxpoints);
  });

  it('notices: writes numbered and split under NOTIFY\u2019s bound, a write too large told as "read the state"', () => {
    const small = Array.from({ length: 500 }, (_, i) => ({ trace: { x: i, y: i * i } }));
    const big = { trace: { x: Array.from({ length: 2000 }, (_, i) => i) } };
    const notices = streamNotices(7, 11, [...small, big, { trace: { x: 1 } }]).map((p) => {
      expect(Buffer.byteLength(p)).toBeLessThan(8000);
      return JSON.parse(p);
    });
    expect(notices.length).toBeGreaterThan(2);
    expect(notices.flatMap((n) => n.writes ?? [null])).toEqual([...small, null, { trace: { x: 1 } }]);
    let seq = 11;
    for (const n of notices) {
      expect(n).toMatchObject({ tokenId: 7, seq });
      seq += n.writes?.length ?? 1;
    }
  });

  it("a collaborator's save keeps the owner's tokens on the streamed traces they kept, and only those", () => {
    const stored = {
      data: [
        { type: 'scatter', name: 'a', stream: { token: 'ta', maxpoints: 5 } },
        { type: 'scatter', name: 'b', stream: { token: 'tb' } },
        { type: 'bar', name: 'c', stream: { token: 'tc' } },
      ],
    };
    const seen = structuredClone(stored);
    dropStreamTokens(seen);
    // a removed, b kept as it was, c restyled (kept by order), a new trace with its own token untouched.
    const saved = { data: [seen.data[1], { ...seen.data[2], name: 'c!' }, { type: 'scatter', stream: { token: 'mine' } }] };
    keepStreamTokens(stored, saved);
    expect(saved.data).toEqual([
      { type: 'scatter', name: 'b', stream: { token: 'tb' } },
      { type: 'bar', name: 'c!', stream: { token: 'tc' } },
      { type: 'scatter', stream: { token: 'mine' } },
    ]);
    // A stream taken off takes its token with it; shapes that are no figure change nothing.
    const off = { data: [{ type: 'scatter', name: 'a' }] };
    keepStreamTokens(stored, off);
    expect(off).toEqual({ data: [{ type: 'scatter', name: 'a' }] });
    for (const odd of [null, 3, { data: 'x' }, { data: [null, [], { stream: [] }] }]) expect(() => keepStreamTokens(stored, odd)).not.toThrow();
  });
});
