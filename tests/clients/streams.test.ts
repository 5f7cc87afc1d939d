// Live streams with the official Python client: chart_studio's `Stream` (vendored, unchanged) writes
// 1,000 points through a front that routes the streaming host (tests/support/stream-front.ts) to an
// app of two processes (as `npm start` runs), while two event streams of the plot's page, each
// likely served by the other process, count the points as they arrive.
import { request } from 'node:http';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@/harness/server';
import { createStreamToken } from '@/lib/core/streams/stream-tokens';
import { appDatabase, createPlot, type TestUser } from '../support/api';
import { python } from '../support/clients';
import { servers } from '../support/servers';
import { startStreamFront, type StreamFront } from '../support/stream-front';

const STREAM_HOST = 'stream.test';

/** Reads a page's event stream, counting the points appended to each trace. */
function eventReader(url: string, user: TestUser) {
  const controller = new AbortController();
  const seen = { points: 0, replaced: 0, layouts: 0 };
  let wake = () => {};
  const ready = fetch(url, { headers: { Authorization: user.auth, Accept: 'text/event-stream' }, signal: controller.signal }).then(async (res) => {
    if (res.status !== 200) throw new Error(`events: ${res.status} ${await res.text()}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    // The first block (retry:) comes once the stream follows the plot.
    const pump = async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.startsWith('data: ')) continue;
          const event = JSON.parse(block.slice(6));
          for (const write of event.writes ?? []) {
            if (typeof write.trace.x === 'number') seen.points++;
            else if (Array.isArray(write.trace.x)) seen.replaced++;
            if (write.layout) seen.layouts++;
          }
          wake();
        }
      }
    };
    const first = await reader.read();
    buffer += first.value ?? '';
    void pump();
  });
  return {
    ready,
    seen,
    until: (test: () => boolean) =>
      new Promise<void>((resolve) => {
        if (test()) return resolve();
        wake = () => test() && resolve();
      }),
    stop: () => controller.abort(),
  };
}

describe('chart_studio Stream against two app processes behind a front', () => {
  let app: { url: string; stop(): Promise<void> };
  let front: StreamFront;
  beforeAll(async () => {
    app = await startServer({
      DATABASE_URL: inject('databaseUrl'),
      WEB_CONCURRENCY: '2',
      STREAM_HOST,
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      RATE_LIMIT_WRITES_PER_KEY: '0',
      RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    });
    front = await startStreamFront(STREAM_HOST, app.url);
  }, 120_000);
  afterAll(async () => {
    await front?.stop();
    await app?.stop();
  });

  it('1,000 written points reach the stored state and every open page; an unknown token is refused', async () => {
    const [s] = servers();
    const user = await s.newUser('st');
    const { db } = await appDatabase();
    const token = await createStreamToken(db, (await db.query.users.findFirst({ where: (u, { eq }) => eq(u.username, user.username) }))!.id);
    const plot = await createPlot(
      user,
      { figure: { data: [{ type: 'scatter', stream: { token, maxpoints: 5000 } }], layout: {} }, filename: 'live', world_readable: true },
      app.url,
    );
    const events = `${app.url}/v2/streams/events?plots=${encodeURIComponent(plot.fid)}`;
    const env = { PF_STREAM_TOKEN: token, PF_STREAM_HOST: STREAM_HOST, http_proxy: front.url, no_proxy: '127.0.0.1,localhost' };
    // Two connections in a row: the cluster hands them to its two processes in turn.
    const readers = [eventReader(events, user), eventReader(events, user)];
    try {
      await Promise.all(readers.map((r) => r.ready));
      expect(await python(app.url, user, 'thousand_points', 90_000, { script: 'stream_client.py', env })).toEqual({ written: 1000 });
      for (const r of readers) await r.until(() => r.seen.replaced === 1);
      expect(readers.map((r) => r.seen)).toEqual([0, 1].map(() => ({ points: 1000, replaced: 1, layouts: 1 })));
    } finally {
      for (const r of readers) r.stop();
    }

    const [state] = (await db.execute(
      `SELECT trace, layout FROM stream_states s JOIN stream_tokens t ON t.id = s.token_id WHERE t.token = '${token}'`,
    )) as unknown as {
      trace: { x: number[]; y: number[] };
      layout: unknown;
    }[];
    expect(state.trace).toEqual({ x: [1, 2, 3], y: [3, 1, 2] });
    expect(state.layout).toEqual({ title: { text: 'Streamed' } });

    // An unknown token is answered 404 with a sentence. (chart_studio on Python 3 cannot read an
    // answer: its _FakeSocket is a StringIO given bytes, so it reconnects instead of raising it.)
    const refused = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const url = new URL(app.url);
      const req = request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/',
        headers: { Host: STREAM_HOST, 'plotly-streamtoken': 'nosuchtoken0000', 'Transfer-Encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write('{"x": 1}\n');
    });
    expect(refused.status).toBe(404);
    expect(refused.text).toMatch(/Unknown stream token/);
  }, 180_000);
});
