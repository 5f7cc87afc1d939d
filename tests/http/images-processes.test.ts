// Images under `npm start` with PostgreSQL and two app processes (Node's cluster): each process draws
// its image exports in a browser of its own that no other process reaches, and the plots' PNGs (drawn
// by the first process's worker) are served by both. Every request goes over a fresh connection, so
// the cluster's primary hands them to the processes in turn; that each process drew exports is seen
// in its own Chromium child, which only an export starts in the second process.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { basic, type TestUser } from '../support/api';
import { python } from '../support/clients';
import { MAGIC } from '../support/image-formats';
import { inspectPng, MIN_CHART_VARIANCE } from '../support/png';
import { createMigratedDatabase } from '../support/postgres';

const TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml', pdf: 'application/pdf' } as const;
type Format = keyof typeof TYPES;
const FORMATS = Object.keys(TYPES) as Format[];
const SIZES = { '': [700, 500], '?size=block-thumb': [400, 300], '?size=list-thumb': [200, 150] } as const;

const bars = (ys: number[]) => ({ data: [{ type: 'bar', x: ['a', 'b', 'c'], y: ys }], layout: { title: { text: 'Exported' } } });

/** Child processes of `parent` (by their command lines). */
function children(parent: number): { pid: number; cmd: string }[] {
  let out = '';
  try {
    out = execFileSync('pgrep', ['-P', String(parent)], { encoding: 'utf8' }).trim();
  } catch {
    // none (pgrep exits 1)
  }
  return out
    ? out.split('\n').map((pid) => {
        let cmd = '';
        try {
          cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        } catch {
          // exited meanwhile
        }
        return { pid: Number(pid), cmd };
      })
    : [];
}
const browsersOf = (app: number) => children(app).filter((c) => /chrom/i.test(c.cmd));

describe('npm start with two processes: image exports and plot images on every process', () => {
  const name = createDatabaseName('imgproc');
  let database: Database;
  let app: Awaited<ReturnType<typeof startServer>>;
  let users: TestUser[];
  const appProcesses = () => children(app.process.pid!).map((c) => c.pid);

  /** One request over a connection of its own. */
  const send = (method: string, path: string, user: TestUser | null, body?: unknown) =>
    new Promise<{ status: number; type: string; state: string; bytes: Buffer }>((resolve, reject) => {
      const headers: Record<string, string> = { Connection: 'close' };
      if (user) headers.Authorization = user.auth;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const req = request(new URL(path, app.url), { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            state: String(res.headers['x-image-state'] ?? ''),
            bytes: Buffer.concat(chunks),
          }),
        );
      });
      // Past the server's own bounds (a page's start-up, the wait for a page, the drawing), so that a
      // slow answer shows as the server's error rather than as the test giving up first.
      req.setTimeout(150_000, () => req.destroy(new Error(`${method} ${path}: no answer in 150 s`)));
      req.on('error', reject).end(body === undefined ? undefined : JSON.stringify(body));
    });

  /** An export of `format` at 300 x 200, checked to be that image. */
  async function expectExport(user: TestUser, format: Format, ys: number[]): Promise<void> {
    const res = await send('POST', '/v2/images', user, { figure: bars(ys), format, width: 300, height: 200 });
    expect(res.status, `${format}: ${res.bytes.toString('utf8').slice(0, 300)}`).toBe(200);
    expect(res.type).toBe(TYPES[format]);
    expect(MAGIC[format](res.bytes), `${format} signature`).toBe(true);
    if (format === 'png') {
      const png = inspectPng(res.bytes);
      expect([png.width, png.height]).toEqual([300, 200]);
      expect(png.variance).toBeGreaterThan(MIN_CHART_VARIANCE);
    }
    if (format === 'svg') expect(res.bytes.toString('utf8')).toMatch(/^<svg[^>]* width="300" height="200"/);
  }

  /** A bar plot of `ys` over a grid of its own: its fid. */
  async function plot(user: TestUser, ys: number[]): Promise<string> {
    const json = (res: Awaited<ReturnType<typeof send>>, status: number) => {
      expect(res.status, res.bytes.toString('utf8').slice(0, 300)).toBe(status);
      return JSON.parse(res.bytes.toString('utf8')) as { file: { fid: string; cols: { uid: string }[] } };
    };
    const grid = await json(
      await send('POST', '/v2/grids', user, { data: { cols: { x: { data: ['a', 'b', 'c'], order: 0 }, y: { data: ys, order: 1 } } } }),
      201,
    );
    const [x, y] = grid.file.cols.map((c) => `${grid.file.fid}:${c.uid}`);
    return (await json(await send('POST', '/v2/plots', user, { figure: { data: [{ type: 'bar', xsrc: x, ysrc: y }] } }), 200)).file.fid;
  }

  beforeAll(async () => {
    await createMigratedDatabase(name);
    database = await openDatabase(adminUrl(name));
    users = [];
    for (const username of ['ana', 'ben', 'cy']) {
      const { apiKey } = await createUser(database.db, { username });
      users.push({ username, apiKey, auth: basic(username, apiKey) });
    }
    app = await startServer({
      DATABASE_URL: adminUrl(name),
      WEB_CONCURRENCY: '2',
      DEMO_SEED: 'false',
      IMAGE_POLL_MS: '200',
      RATE_LIMIT_WRITES_PER_KEY: '0',
      RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await database?.close();
    await dropDatabase(name);
  });

  it('exports in every format are 200 with the image, whichever process answers; each process draws in its own browser', { timeout: 300_000 }, async () => {
    await expect.poll(() => appProcesses().length, { timeout: 30_000 }).toBe(2);
    // No plots yet, so no thumbnails: a browser appears in a process only for the exports it serves.
    for (const pid of appProcesses()) expect(browsersOf(pid)).toEqual([]);
    for (let i = 0; i < 12; i++) await expectExport(users[0], FORMATS[i % FORMATS.length], [i, 1, 2]);
    for (const pid of appProcesses()) expect(browsersOf(pid), `app process ${pid}`).toHaveLength(1);
  });

  it("plots' PNGs are served by both processes while exports run beside the renders", { timeout: 300_000 }, async () => {
    const fids: string[] = [];
    for (let i = 0; i < 3; i++) fids.push(await plot(users[1], [3, i, 1]));
    // Two users' exports, two in flight each (their limit), while the worker draws the plots.
    const exporting = Promise.all(
      [users[0], users[2]].flatMap((user) =>
        [0, 1].map(async (lane) => {
          for (let i = 0; i < 3; i++) await expectExport(user, FORMATS[(lane * 3 + i) % FORMATS.length], [lane, i, 4]);
        }),
      ),
    );
    const drawn = (async () => {
      for (const fid of fids) {
        const path = `/~${fid.replace(':', '/')}.png?size=list-thumb`;
        await expect.poll(async () => (await send('GET', path, null)).state, { timeout: 90_000, interval: 200 }).toBe('rendered');
      }
    })();
    await Promise.all([exporting, drawn]);
    for (const fid of fids) {
      for (const [query, size] of Object.entries(SIZES)) {
        for (let i = 0; i < 2; i++) {
          const res = await send('GET', `/~${fid.replace(':', '/')}.png${query}`, null);
          expect(res.status).toBe(200);
          expect(res.state).toBe('rendered');
          expect(res.type).toBe('image/png');
          const png = inspectPng(res.bytes);
          expect([png.width, png.height]).toEqual(size);
          expect(png.variance).toBeGreaterThan(MIN_CHART_VARIANCE);
        }
      }
    }
  });

  it("the Python client's py.image.get and save_as through both processes", { timeout: 180_000 }, async () => {
    const username = 'py';
    const { apiKey } = await createUser(database.db, { username });
    const result = await python<{ get: Record<string, { head: string }>; sized: { head: string }; saved: Record<string, { head: string }> }>(
      app.url,
      { username, apiKey, auth: basic(username, apiKey) },
      'images',
      150_000,
    );
    const head = (h: string) => Buffer.from(h, 'hex');
    expect(Object.keys(result.get).sort()).toEqual(['emf', 'jpeg', 'pdf', 'png', 'svg']);
    for (const [format, image] of Object.entries(result.get)) {
      // The head is the first 64 bytes: an SVG's end and a JPEG's or PDF's trailer are not in it.
      const b = head(image.head);
      const starts: Record<string, boolean> = {
        png: MAGIC.png(b),
        jpeg: b[0] === 0xff && b[1] === 0xd8,
        svg: /^<svg[\s>]/.test(b.toString('utf8')),
        pdf: b.subarray(0, 5).toString('latin1') === '%PDF-',
        emf: MAGIC.emf(b),
      };
      expect(starts[format], `${format}: ${image.head}`).toBe(true);
    }
    expect(MAGIC.png(head(result.sized.head))).toBe(true);
    expect(Object.keys(result.saved)).toEqual(['x.png', 'y.jpeg', 'z.pdf']);
  });
});
