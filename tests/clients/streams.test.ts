// Live streams with the official Python client: chart_studio's `Stream` (vendored, unchanged) writes
// 1,000 points through a front that routes the streaming host (tests/support/stream-front.ts) to an
// app of two processes (as `npm start` runs), while two event streams of the plot's page, each
// likely served by the other process, and the plot's page in Chromium count the points as they
// arrive (the page's latencies are logged, not asserted: BENCHMARKS.md). Then, with raw writes: one
// open stream per token across both processes, and a stream outliving the app's request deadline
// (REQUEST_TIMEOUT_MS, short here) that still ends a stalled upload elsewhere.
import { request } from 'node:http';
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@/harness/server';
import { createStreamToken } from '@/lib/core/streams/stream-tokens';
import { chromiumPath } from '@/lib/render/chromium';
import { appDatabase, createPlot, type TestUser } from '../support/api';
import { python } from '../support/clients';
import { servers } from '../support/servers';
import { startStreamFront, type StreamFront } from '../support/stream-front';

const STREAM_HOST = 'stream.test';
/** The app's request deadline in this test (300 s by default): a stream must outlive it. */
const REQUEST_TIMEOUT_MS = 1500;

/** A stream written as the client writes (one chunk a line), answered only at its end. */
function openStream(app: string, token: string) {
  const url = new URL(app);
  const req = request({
    host: url.hostname,
    port: url.port,
    method: 'POST',
    path: '/',
    headers: { Host: STREAM_HOST, 'plotly-streamtoken': token, 'Transfer-Encoding': 'chunked' },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { write: (line: unknown) => req.write(`${JSON.stringify(line)}\n`), close: () => req.end(), drop: () => req.destroy(), answer };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads a page's event stream, counting the points appended to each trace. */
function eventReader(url: string, user: TestUser) {
  const controller = new AbortController();
  const seen = { points: 0, replaced: 0, layouts: 0 };
  // How long after the client wrote each point (its y: the client's clock) it arrived.
  const latencies: number[] = [];
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
            if (typeof write.trace.x === 'number') {
              seen.points++;
              latencies.push(Date.now() - write.trace.y);
            } else if (Array.isArray(write.trace.x)) seen.replaced++;
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
    latencies,
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
  let browser: Browser;
  const tokenOf = async (user: TestUser) => {
    const { db } = await appDatabase();
    return createStreamToken(db, (await db.query.users.findFirst({ where: (u, { eq }) => eq(u.username, user.username) }))!.id);
  };
  const stateOf = async (token: string) => {
    const { db } = await appDatabase();
    const [state] = (await db.execute(
      `SELECT trace, layout, seq FROM stream_states s JOIN stream_tokens t ON t.id = s.token_id WHERE t.token = '${token}'`,
    )) as unknown as { trace: { x: number[]; y: number[] }; layout: unknown; seq: string | number }[];
    return state;
  };
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
    app = await startServer({
      DATABASE_URL: inject('databaseUrl'),
      WEB_CONCURRENCY: '2',
      STREAM_HOST,
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      RATE_LIMIT_WRITES_PER_KEY: '0',
      RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    });
    front = await startStreamFront(STREAM_HOST, app.url);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await front?.stop();
    await app?.stop();
  });

  it('1,000 written points reach the stored state, every open event stream and the open page, in order; an unknown token is refused', async () => {
    const [s] = servers();
    const user = await s.newUser('st');
    const token = await tokenOf(user);
    const plot = await createPlot(
      user,
      { figure: { data: [{ type: 'scatter', stream: { token, maxpoints: 5000 } }], layout: {} }, filename: 'live', world_readable: true },
      app.url,
    );
    const events = `${app.url}/v2/streams/events?plots=${encodeURIComponent(plot.fid)}`;
    const env = { PF_STREAM_TOKEN: token, PF_STREAM_HOST: STREAM_HOST, http_proxy: front.url, no_proxy: '127.0.0.1,localhost' };
    // Two connections in a row: the cluster hands them to its two processes in turn.
    const readers = [eventReader(events, user), eventReader(events, user)];
    // The plot's page, following once its event stream answers; each point drawn is recorded with how
    // long after the client wrote it (its y: the client's clock in ms) the chart had it.
    const page = await browser.newPage();
    const [owner, n] = plot.fid.split(':');
    const following = page.waitForResponse((res) => res.url().includes('/v2/streams/events') && res.status() === 200);
    await page.goto(`${app.url}/~${owner}/${n}/`);
    await following;
    const chart = page.locator('section.plot-chart .js-plotly-plot');
    await chart.waitFor();
    await chart.evaluate((el) => {
      const gd = el as unknown as { data: { x?: number[]; y?: number[] }[]; on(event: string, f: () => void): void };
      const seen = { xs: [] as number[], latencies: [] as number[], replaced: false };
      (window as unknown as { seen: typeof seen }).seen = seen;
      gd.on('plotly_afterplot', () => {
        const now = Date.now();
        const { x = [], y = [] } = gd.data[0];
        if (seen.replaced || x.length < seen.xs.length) {
          seen.replaced = true;
          return;
        }
        for (let i = seen.xs.length; i < x.length; i++) {
          seen.xs.push(x[i]);
          seen.latencies.push(now - y[i]);
        }
      });
    });
    try {
      await Promise.all(readers.map((r) => r.ready));
      expect(await python(app.url, user, 'thousand_points', 90_000, { script: 'stream_client.py', env })).toEqual({ written: 1000 });
      for (const r of readers) await r.until(() => r.seen.replaced === 1);
      expect(readers.map((r) => r.seen)).toEqual([0, 1].map(() => ({ points: 1000, replaced: 1, layouts: 1 })));
      await page.waitForFunction(() => (window as unknown as { seen: { replaced: boolean } }).seen.replaced);
      const seen = await page.evaluate(() => (window as unknown as { seen: { xs: number[]; latencies: number[] } }).seen);
      expect(seen.xs).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      const spread = (latencies: number[]) => {
        const ms = latencies.sort((a, b) => a - b);
        const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(0);
        return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
      };
      console.log(
        `stream latency from the client's write (1,000 points, 2 processes): drawn in the page ${spread(seen.latencies)}; ` +
          `in the event streams ${readers.map((r) => spread(r.latencies)).join(' / ')}`,
      );
    } finally {
      for (const r of readers) r.stop();
      await page.close();
    }

    const state = await stateOf(token);
    expect(state.trace).toEqual({ x: [1, 2, 3], y: [3, 1, 2] });
    expect(state.layout).toEqual({ title: { text: 'Streamed' } });

    // An unknown token is answered 404 with a sentence. (chart_studio on Python 3 cannot read an
    // answer: its _FakeSocket is a StringIO given bytes, so it reconnects instead of raising it.)
    const refused = openStream(app.url, 'nosuchtoken0000');
    refused.write({ x: 1 });
    const answer = await refused.answer;
    refused.drop();
    expect(answer.status).toBe(404);
    expect(answer.text).toMatch(/Unknown stream token/);
  }, 180_000);

  it('one open stream per token across both processes; a stream outlives the request deadline that ends a stalled upload', async () => {
    const [s] = servers();
    const user = await s.newUser('st2');
    const token = await tokenOf(user);
    await createPlot(user, { figure: { data: [{ type: 'scatter', stream: { token } }] }, filename: 'live two', world_readable: false }, app.url);
    const first = openStream(app.url, token);
    first.write({ x: 0, y: 0 });
    // Written once the stream holds the token.
    while (Number((await stateOf(token))?.seq ?? 0) < 1) await pause(50);
    // Two connections in a row reach both processes: each is refused.
    const others = [openStream(app.url, token), openStream(app.url, token)];
    for (const o of others) o.write({ x: -1, y: -1 });
    const refusals = await Promise.all(others.map((o) => o.answer));
    for (const o of others) o.drop();
    expect(refusals.map((r) => r.status)).toEqual([429, 429]);
    expect(refusals[0].text).toMatch(/already has an open stream/);

    // An upload to the app that stops mid-body is answered 408 at the deadline; the stream, open since
    // before it, goes on being written meanwhile and after.
    const url = new URL(app.url);
    const stalled = request({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path: '/v2/plots',
      headers: { Authorization: user.auth, 'Content-Type': 'application/json', 'Content-Length': 100 },
    });
    const cut = new Promise<number>((resolve) => {
      stalled.on('response', (res) => resolve(res.statusCode ?? 0)).on('error', () => resolve(0));
    });
    stalled.write('{"figure":');
    let x = 0;
    let status = 0;
    void cut.then((code) => (status = code));
    while (status === 0) {
      await pause(100);
      first.write({ x: ++x, y: x });
    }
    expect(status).toBe(408);
    first.write({ x: ++x, y: x });
    first.close();
    expect((await first.answer).status).toBe(200);
    expect((await stateOf(token)).trace.x).toEqual(Array.from({ length: x + 1 }, (_, i) => i));

    // Closed, the token takes a stream again.
    const again = openStream(app.url, token);
    again.write({ x: x + 1, y: 0 });
    again.close();
    expect((await again.answer).status).toBe(200);
    expect((await stateOf(token)).trace.x).toHaveLength(x + 2);
  }, 60_000);
});
