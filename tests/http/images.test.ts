// Plot images over HTTP, rendered by the app's own worker in Debian's Chromium: a created plot's
// three PNGs at the contract's URLs, caching, an update replacing them, the plot's permissions,
// and a renderer that crashes or times out never taking the service down.
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '@/db/client';
import { adminUrl, createDatabase, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { basic, baseUrl, call, createPlot, newUser, uploadGrid, type TestUser } from '../support/api';
import { inspectPng, MIN_CHART_VARIANCE } from '../support/png';

const SIZES = { default: [700, 500], 'block-thumb': [400, 300], 'list-thumb': [200, 150] } as const;
type Size = keyof typeof SIZES;

const imagePath = (fid: string, size: Size) => {
  const [owner, n] = fid.split(':');
  return `/~${owner}/${n}.png${size === 'default' ? '' : `?size=${size}`}`;
};

async function fetchImage(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers });
  return { res, body: new Uint8Array(await res.arrayBuffer()) };
}

/** Polls an image URL until it answers the rendered image (not the placeholder). */
async function rendered(base: string, path: string, headers: Record<string, string> = {}, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await fetchImage(base, path, headers);
    expect(answer.res.status).toBe(200);
    if (answer.res.headers.get('x-image-state') === 'rendered') return answer;
    if (Date.now() > deadline) throw new Error(`${path} still a placeholder after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function barPlot(user: TestUser, ys: number[], extra: Record<string, unknown> = {}) {
  const grid = await uploadGrid(user, { x: ['a', 'b', 'c', 'd'], y: ys }, extra);
  return createPlot(user, { figure: { data: [{ type: 'bar', xsrc: grid.src('x'), ysrc: grid.src('y') }], layout: { title: { text: 'Bars' } } }, ...extra });
}

describe('plot images', () => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await newUser('img');
    bob = await newUser('imgother');
  });

  it('a created plot gets its three PNGs at the image URLs: decoded, the right sizes, not blank', async () => {
    const plot = await barPlot(alice, [3, 1, 4, 1]);
    expect(plot.image_urls).toEqual({
      default: `${baseUrl()}${imagePath(plot.fid, 'default')}`,
      'block-thumb': `${baseUrl()}${imagePath(plot.fid, 'block-thumb')}`,
      'list-thumb': `${baseUrl()}${imagePath(plot.fid, 'list-thumb')}`,
    });
    for (const size of Object.keys(SIZES) as Size[]) {
      const { res, body } = await rendered(baseUrl(), imagePath(plot.fid, size));
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('etag')).toMatch(/^"1-/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=30');
      const png = inspectPng(body);
      expect([png.width, png.height]).toEqual(SIZES[size]);
      expect(png.variance, `${size} is not blank`).toBeGreaterThan(MIN_CHART_VARIANCE);
    }
  });

  it('answers 304 to a matching If-None-Match, and lets a versioned URL be cached for good', async () => {
    const plot = await barPlot(alice, [2, 7, 1, 8]);
    const { res } = await rendered(baseUrl(), imagePath(plot.fid, 'list-thumb'));
    const again = await fetchImage(baseUrl(), imagePath(plot.fid, 'list-thumb'), { 'If-None-Match': res.headers.get('etag')! });
    expect(again.res.status).toBe(304);
    expect(again.body.length).toBe(0);
    const versioned = await fetchImage(baseUrl(), `${imagePath(plot.fid, 'list-thumb')}&v=abc`);
    expect(versioned.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('If-None-Match is compared weakly (RFC 9110): a W/ tag, `*` or a list naming the ETag is a 304; others are not', async () => {
    const plot = await barPlot(alice, [1, 6, 1, 8]);
    const path = imagePath(plot.fid, 'block-thumb');
    const { res, body } = await rendered(baseUrl(), path);
    const etag = res.headers.get('etag')!;
    expect(etag).toBe('"1-block-thumb"');
    for (const ifNoneMatch of [`W/${etag}`, '*', `"0-other", ${etag}`, `"0-other",W/${etag}`]) {
      const again = await fetchImage(baseUrl(), path, { 'If-None-Match': ifNoneMatch });
      expect(again.res.status, ifNoneMatch).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.res.headers.get('etag')).toBe(etag);
      expect(again.res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=30');
      expect(again.res.headers.get('x-image-state')).toBe('rendered');
    }
    for (const ifNoneMatch of ['"1-list-thumb"', 'W/"2-block-thumb"', '1-block-thumb']) {
      const other = await fetchImage(baseUrl(), path, { 'If-None-Match': ifNoneMatch });
      expect(other.res.status, ifNoneMatch).toBe(200);
      expect(Buffer.compare(Buffer.from(other.body), Buffer.from(body))).toBe(0);
    }
  });

  it('before its image exists, a URL answers a placeholder PNG that no cache keeps', async () => {
    const plot = await barPlot(alice, [1, 1, 2, 3]);
    // Straight after the create the render is at best in flight; either answer is a PNG.
    const { res, body } = await fetchImage(baseUrl(), imagePath(plot.fid, 'block-thumb'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    if (res.headers.get('x-image-state') === 'pending') {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
    }
    expect(inspectPng(body)).toMatchObject({ width: 400, height: 300 });
  });

  it('an update replaces the images, and the older ones are never served again', async () => {
    const plot = await barPlot(alice, [5, 5, 5, 5]);
    const before = await rendered(baseUrl(), imagePath(plot.fid, 'default'));
    const grid = await uploadGrid(alice, { x: ['a', 'b', 'c', 'd'], y: [1, 9, 2, 8] });
    const put = await call('PUT', `/v2/plots/${plot.fid}`, {
      user: alice,
      body: { figure: { data: [{ type: 'scatter', mode: 'lines+markers', xsrc: grid.src('x'), ysrc: grid.src('y') }], layout: { width: 640, height: 360 } } },
    });
    expect(put.status).toBe(200);
    const straightAfter = await fetchImage(baseUrl(), imagePath(plot.fid, 'default'));
    expect(straightAfter.res.headers.get('etag')).not.toBe(before.res.headers.get('etag'));
    const after = await rendered(baseUrl(), imagePath(plot.fid, 'default'));
    expect(after.res.headers.get('etag')).toBe('"2-default"');
    const png = inspectPng(after.body);
    // The figure's own size now.
    expect([png.width, png.height]).toEqual([640, 360]);
    expect(Buffer.compare(Buffer.from(after.body), Buffer.from(before.body))).not.toBe(0);
  });

  it("a private plot's images are a 404 to others, exactly like a missing plot; its owner and share key see them", async () => {
    const secret = await barPlot(alice, [4, 3, 2, 1], { world_readable: false, share_key_enabled: true });
    const path = imagePath(secret.fid, 'list-thumb');
    const owner = await rendered(baseUrl(), path, { Authorization: alice.auth });
    expect(owner.res.headers.get('cache-control')).toBe('private, no-cache');
    const missing = await fetchImage(baseUrl(), imagePath(`${alice.username}:999999`, 'list-thumb'));
    expect(missing.res.status).toBe(404);
    const callers: Record<string, string>[] = [{}, { Authorization: bob.auth }, { Authorization: basic(alice.username, 'wrong-key') }];
    for (const headers of callers) {
      const denied = await fetchImage(baseUrl(), path, headers);
      expect(denied.res.status).toBe(404);
      expect(Buffer.from(denied.body).equals(Buffer.from(missing.body))).toBe(true);
      expect(denied.res.headers.get('content-type')).toBe(missing.res.headers.get('content-type'));
    }
    const wrongKey = await fetchImage(baseUrl(), `${path}&share_key=not-the-key`);
    expect(wrongKey.res.status).toBe(404);
    const shared = await rendered(baseUrl(), `${path}&share_key=${secret.share_key}`);
    expect(Buffer.compare(Buffer.from(shared.body), Buffer.from(owner.body))).toBe(0);
  });
});

/** Processes whose parent chain reaches `root` (the app server and what it started). */
function descendants(root: number): { pid: number; cmd: string }[] {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      parent.set(pid, Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]));
      cmd.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // exited meanwhile
    }
  }
  const under = (pid: number): boolean => pid > 1 && (parent.get(pid) === root || under(parent.get(pid) ?? 0));
  return [...parent.keys()].filter(under).map((pid) => ({ pid, cmd: cmd.get(pid) ?? '' }));
}

/** An app server of its own on a fresh database, with one user (these tests kill and starve its renderer). */
async function ownServer(env: Record<string, string>) {
  const name = createDatabaseName('img');
  await createDatabase(name);
  const url = adminUrl(name);
  const server = await startServer({ DATABASE_URL: url, DEMO_SEED: 'false', IMAGE_POLL_MS: '200', ...env });
  const database: Database = await openDatabase(url);
  const { apiKey } = await createUser(database.db, { username: 'carol' });
  const auth = basic('carol', apiKey);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { file: { fid: string; cols: { uid: string }[] } } };
  };
  const plot = async (ys: number[]) => {
    const grid = await post('/v2/grids', { data: { cols: { x: { data: ['a', 'b', 'c'], order: 0 }, y: { data: ys, order: 1 } } } });
    const [x, y] = grid.json.file.cols.map((c) => `${grid.json.file.fid}:${c.uid}`);
    const res = await post('/v2/plots', { figure: { data: [{ type: 'bar', xsrc: x, ysrc: y }] } });
    expect(res.status).toBe(200);
    return res.json.file.fid;
  };
  return {
    server,
    database,
    auth,
    plot,
    dispose: async () => {
      await database.close();
      await server.stop();
      await dropDatabase(name);
    },
  };
}

describe('a renderer that crashes or hangs', () => {
  let crashing: Awaited<ReturnType<typeof ownServer>>;
  let hanging: Awaited<ReturnType<typeof ownServer>>;
  beforeAll(async () => {
    crashing = await ownServer({});
    hanging = await ownServer({ RENDER_TIMEOUT_MS: '1' });
  });
  afterAll(async () => {
    await crashing?.dispose();
    await hanging?.dispose();
  });

  it('a killed browser is replaced: the service keeps answering and later plots still get images', async () => {
    const first = await crashing.plot([1, 2, 3]);
    await rendered(crashing.server.url, imagePath(first, 'list-thumb'));
    const browsers = descendants(crashing.server.process.pid!).filter((p) => /chrom/i.test(p.cmd));
    expect(browsers.length).toBeGreaterThan(0);
    for (const { pid } of browsers) process.kill(pid, 'SIGKILL');

    const second = await crashing.plot([3, 2, 1]);
    const list = await fetch(`${crashing.server.url}/v2/plots?page_size=5`);
    expect(list.status).toBe(200);
    const { body } = await rendered(crashing.server.url, imagePath(second, 'default'));
    expect(inspectPng(body).variance).toBeGreaterThan(MIN_CHART_VARIANCE);
    expect(crashing.server.process.exitCode).toBeNull();
  });

  it('renders that time out are abandoned: placeholders, one retry with more time, then "could not be drawn", and a service that stays up', {
    timeout: 120_000,
  }, async () => {
    const fid = await hanging.plot([1, 2, 3]);
    // The first attempt runs out of time: it gives its attempt back (a busy machine is no broken
    // chart) and is retried after a back-off with more time; wait for that first failure.
    const deadline = Date.now() + 30_000;
    let first: { attempts: number; last_error: string | null } | undefined;
    while (Date.now() < deadline && !first) {
      const [job] = await queryRows<{ attempts: number; last_error: string | null; locked_until: string | null }>(
        hanging.database.db,
        sql`SELECT attempts, last_error, locked_until FROM image_jobs`,
      );
      if (job?.last_error && !job.locked_until) first = job;
      else await new Promise((r) => setTimeout(r, 200));
    }
    expect(first?.last_error).toMatch(/^out of time: render took over 1 ms/);
    expect(first?.attempts).toBe(0);
    const image = await fetchImage(hanging.server.url, imagePath(fid, 'list-thumb'));
    expect(image.res.status).toBe(200);
    expect(image.res.headers.get('x-image-state')).toBe('pending');
    expect(inspectPng(image.body)).toMatchObject({ width: 200, height: 150 });
    const page = await fetch(`${hanging.server.url}/~carol/`);
    expect(page.status).toBe(200);
    expect(hanging.server.process.exitCode).toBeNull();

    // One retry (10 s later, with three times the time), then the plot is one that could not be drawn: its URLs answer that
    // placeholder, its page shows that image and no live chart, and its owner sees it listed.
    const failed = Date.now() + 40_000;
    let state = '';
    while (Date.now() < failed && state !== 'failed') {
      state = (await fetchImage(hanging.server.url, imagePath(fid, 'list-thumb'))).res.headers.get('x-image-state') ?? '';
      if (state !== 'failed') await new Promise((r) => setTimeout(r, 500));
    }
    expect(state).toBe('failed');
    // A placeholder has no ETag: even `*` (any current copy) gets it again, never a 304.
    const starred = await fetchImage(hanging.server.url, imagePath(fid, 'list-thumb'), { 'If-None-Match': '*' });
    expect(starred.res.status).toBe(200);
    expect(starred.res.headers.get('x-image-state')).toBe('failed');
    expect(starred.res.headers.get('etag')).toBeNull();
    const [job] = await queryRows<{ attempts: number }>(hanging.database.db, sql`SELECT attempts FROM image_jobs`);
    expect(job.attempts).toBe(2);
    const n = fid.split(':')[1];
    const plotPage = await (await fetch(`${hanging.server.url}/~carol/${n}/`)).text();
    expect(plotPage).toContain('This chart could not be drawn');
    expect(plotPage).toContain('class="plot-static"');
    const own = await (await fetch(`${hanging.server.url}/~carol/`, { headers: { Authorization: hanging.auth } })).text();
    expect(own).toContain('Charts that could not be drawn');
    expect(own).toContain(`href="/~carol/${n}/"`);
    const others = await (await fetch(`${hanging.server.url}/~carol/`)).text();
    expect(others).not.toContain('Charts that could not be drawn');
  });
});
