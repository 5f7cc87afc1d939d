// The drawing budget under attack (README "Limits"), over HTTP on an app of its own: every hostile
// figure of tests/support/hostile-figures.ts exported through POST /v2/images is answered without
// holding an export page for its 30 s limit. Figures asking for millions of ticks (every axis
// type, tickmode and dtick form) are drawn tamed: 200 and the image. Figures over a limit on repeated
// items or subplots are refused before drawing: 400 naming `figure` and the count. While several run
// at once, the server's memory stays within the resource budget and an unrelated request is answered
// throughout (tests/support/resource-watch.ts). Pages and cards of such figures: e2e/draw-guard.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { basic, expectError, type Answer, type TestUser } from '../support/api';
import { CROWDED_FIGURES, line, SUBPLOTS_FIGURE, TICK_FIGURES, type Figure } from '../support/hostile-figures';
import { MAGIC } from '../support/image-formats';
import { RSS_BUDGET_MB, watch } from '../support/resource-watch';
import { createMigratedDatabase } from '../support/postgres';

// Outcomes, not durations: untamed, each holds its export page to the 30 s limit and answers 400 for
// it; tamed, it is a 200 with the image. A refusal is the guard's 400, not the limit's. How long each
// took is printed (timings belong in bench/, BENCHMARKS.md).

describe('the drawing budget under attack', () => {
  const name = createDatabaseName('drawguard');
  let database: Database;
  let server: Awaited<ReturnType<typeof startServer>>;
  const users: TestUser[] = [];

  beforeAll(async () => {
    await createMigratedDatabase(name);
    database = await openDatabase(adminUrl(name));
    for (const username of ['mallory', 'trudy']) {
      const { user, apiKey } = await createUser(database.db, { username });
      users.push({ username: user.username, apiKey, auth: basic(user.username, apiKey) });
    }
    // No image worker (nothing here is stored): exports start the app's Chromium on first use.
    server = await startServer({
      DATABASE_URL: adminUrl(name),
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      RATE_LIMIT_WRITES_PER_KEY: '0',
      RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    });
    // Starting Chromium and its export pages is not a figure's time.
    const warm = await exportImage(users[0], { data: [line([0, 1])] });
    expect(warm.status, warm.text.slice(0, 300)).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await dropDatabase(name);
  });

  /** POST /v2/images: the answer (its bytes kept as bytes) and how long it took. */
  async function exportImage(user: TestUser, figure: Figure): Promise<Answer & { bytes: Buffer; ms: number }> {
    const started = performance.now();
    const res = await fetch(`${server.url}/v2/images`, {
      method: 'POST',
      headers: { Authorization: user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ figure, format: 'png', width: 700, height: 500 }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - started;
    const text = bytes.toString('utf8');
    const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined;
    return { status: res.status, headers: res.headers, text, json, bytes, ms };
  }

  it.each(Object.entries(TICK_FIGURES))('%s: exported, tamed (not held to the limit)', async (_, figure) => {
    const res = await exportImage(users[0], figure);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(MAGIC.png(res.bytes)).toBe(true);
  });

  const REFUSED: [string, Figure, string][] = [
    ...Object.entries(CROWDED_FIGURES).map(([what, c]): [string, Figure, string] => [what, c.figure, c.says]),
    ['101 subplots', SUBPLOTS_FIGURE, 'the figure has 101 subplots, more than the 100 a figure may draw'],
  ];
  it.each(REFUSED)('%s: refused before drawing, naming figure and the count', async (_, figure, says) => {
    const res = await exportImage(users[0], figure);
    expectError(res, 400, `figure: plotly.js could not draw the figure: ${says}`);
    expect(res.json.errors[0]).toMatchObject({ field: 'figure' });
  });

  it('two users, two hostile exports each at once: all answered as alone, memory within budget, other requests answered', async () => {
    const attacks: [TestUser, Figure, number][] = [
      [users[0], TICK_FIGURES['80,000 tickvals with ticktext'], 200],
      [users[0], TICK_FIGURES['log axis every L1e-6 over 1..1e6 (59 bytes)'], 200],
      [users[1], TICK_FIGURES['5,000 categories ticked every one'], 200],
      [users[1], CROWDED_FIGURES['20,000 annotations'].figure, 400],
    ];
    const answers: { status: number; ms: number }[] = [];
    const result = await watch(server, async () => {
      answers.push(...(await Promise.all(attacks.map(([user, figure]) => exportImage(user, figure)))));
    });
    console.log(
      `hostile exports at once: ${answers.map((a) => `${a.status} in ${a.ms.toFixed(0)} ms`).join(', ')}; slowest unrelated GET ${result.slowestMs.toFixed(0)} ms, RSS +${result.growthMb.toFixed(0)} MiB`,
    );
    expect(answers.map((a) => a.status)).toEqual(attacks.map(([, , status]) => status));
    expect(result.growthMb).toBeLessThan(RSS_BUDGET_MB);
  });
});
