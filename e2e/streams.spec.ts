// Live streams, as a person uses them: a stream token made on /settings, a plot whose trace follows
// it, and a writer (a chunked POST to the streaming host, as chart_studio's Stream sends) whose every
// point the open plot page draws within a second; then the token is deleted.
import http from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { E2E_USER, basicAuth, expect, expectChartDrawn, plotPath, signIn, test, unique } from './support';

const STREAM_HOST = 'stream.e2e.test';
const MAXPOINTS = 20;

/** An open stream: each write one chunk of JSON and a newline, as the Python client sends. */
function openStream(baseURL: string, token: string) {
  const url = new URL(baseURL);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    method: 'POST',
    path: '/',
    headers: { Host: STREAM_HOST, 'plotly-streamtoken': token, 'Transfer-Encoding': 'chunked' },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { write: (line: unknown) => req.write(`${JSON.stringify(line)}\n`), close: () => req.end(), answer };
}

test('live streams: a token from settings, a streamed plot drawing each write as it comes', async ({ page, request, baseURL, pageErrors }, testInfo) => {
  await signIn(page);
  await page.goto('/settings');
  const section = page.locator('section[aria-labelledby="streams-heading"]');
  const before = await section.locator('.stream-token code').allTextContents();
  await section.getByRole('button', { name: 'New stream token' }).click();
  await expect(section.getByRole('status')).toContainText('New stream token made');
  await expect(section.locator('.stream-token code')).toHaveCount(before.length + 1);
  const token = (await section.locator('.stream-token code').allTextContents()).find((t) => !before.includes(t))!;
  await expect(section.locator('pre code')).toContainText(`stream_ids=`);
  expect((await new AxeBuilder({ page }).include('section[aria-labelledby="streams-heading"]').withTags(['wcag2a', 'wcag2aa']).analyze()).violations).toEqual(
    [],
  );
  await page.screenshot({ path: testInfo.outputPath('settings-streams.png'), fullPage: true });

  const created = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: {
      filename: `live ${unique()}`,
      world_readable: true,
      figure: { data: [{ type: 'scatter', mode: 'lines+markers', stream: { token, maxpoints: MAXPOINTS } }], layout: { title: { text: 'Live' } } },
    },
  });
  expect(created.status()).toBe(200);
  const { fid } = (await created.json()).file as { fid: string };
  // The token is the owner's key to write: another reader never sees it (content, record, lists), its owner does.
  for (const path of [`/v2/plots/${fid}/content?inline_data=true`, `/v2/plots/${fid}`, `/v2/plots?page_size=20`]) {
    const seen = await (await request.get(path)).text();
    expect(seen, path).not.toContain(token);
  }
  expect(await (await request.get(`/v2/plots/${fid}/content`, { headers: { Authorization: basicAuth(E2E_USER) } })).text()).toContain(token);

  // The page follows the plot once its event stream answers (the server follows the token first).
  const following = page.waitForResponse((res) => res.url().includes('/v2/streams/events') && res.status() === 200);
  await page.goto(plotPath(fid));
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  await following;

  const chart = page.locator('section.plot-chart .js-plotly-plot');
  const drawn = () => chart.evaluate((el) => ((el as unknown as { data: { x?: number[] }[] }).data[0].x ?? []).slice());
  const stream = openStream(baseURL!, token);
  // Each point is waited for before the next is written: every point arrives, in order, keeping
  // maxpoints. How long each took is recorded (an annotation), not asserted: timings belong in BENCHMARKS.md.
  const took: number[] = [];
  for (let i = 1; i <= MAXPOINTS + 10; i++) {
    const sent = performance.now();
    stream.write({ x: i, y: i * i });
    const expected = Array.from({ length: Math.min(i, MAXPOINTS) }, (_, k) => i - Math.min(i, MAXPOINTS) + 1 + k);
    await expect.poll(drawn, { timeout: 10_000, intervals: [20], message: `point ${i} drawn` }).toEqual(expected);
    took.push(performance.now() - sent);
  }
  took.sort((a, b) => a - b);
  testInfo.annotations.push({ type: 'stream latency (ms)', description: `median ${Math.round(took[took.length >> 1])}, max ${Math.round(took.at(-1)!)}` });
  stream.write({ x: [1, 2, 3], y: [3, 1, 2], layout: { title: { text: 'Live now' } } });
  await expect.poll(drawn, { timeout: 10_000, intervals: [20] }).toEqual([1, 2, 3]);
  await expect(page.locator('section.plot-chart .gtitle')).toHaveText('Live now');
  stream.close();
  expect(await stream.answer).toBe(200);
  for (const [name, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: testInfo.outputPath(`streamed-plot-${name}.png`) });
  }

  // A writer with a token nobody holds is told.
  const stranger = openStream(baseURL!, 'nosuchtoken0000');
  expect(await stranger.answer).toBe(404);
  stranger.close();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/settings');
  await section.getByRole('button', { name: `Delete stream token ${token}` }).click();
  await expect(section.getByRole('status')).toContainText('Stream token deleted');
  await expect(section.locator('.stream-token code', { hasText: token })).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
