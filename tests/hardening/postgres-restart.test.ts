// Faults: PostgreSQL itself is stopped and started again under a load of reads and creates. A private
// cluster (initdb in a temporary directory, its own port) so the shared server is never touched.
// During the outage every answer is a 503 with Retry-After within a second; afterwards the same app
// process serves again, and every create that was answered 200 is in the database.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { freePort } from '@/harness/ports';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { basic } from '../support/api';

const BIN = '/usr/lib/postgresql/15/bin';
const READERS = 6;
const WRITERS = 4;

/** A throwaway PostgreSQL cluster run by the `postgres` OS user (the server refuses to run as root). */
class Cluster {
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'pf-pg-'));
  constructor(readonly port: number) {}
  private pgCtl(...args: string[]) {
    const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
    const [cmd, ...rest] = [...asPostgres, `${BIN}/pg_ctl`, '-D', `${this.dir}/data`, ...args];
    execFileSync(cmd, rest, { stdio: 'pipe' });
  }
  init() {
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', this.dir]);
    const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
    const [cmd, ...rest] = [...asPostgres, `${BIN}/initdb`, '-D', `${this.dir}/data`, '-U', 'postgres', '-A', 'trust', '--no-sync'];
    execFileSync(cmd, rest, { stdio: 'pipe' });
  }
  start() {
    this.pgCtl('-l', `${this.dir}/log`, '-w', '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start');
  }
  stop() {
    this.pgCtl('-m', 'fast', '-w', 'stop');
  }
  remove() {
    try {
      this.stop();
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
}

interface Outcome {
  /** When it was sent and answered (Date.now()); how long it took, for the log only. */
  sent: number;
  at: number;
  ms: number;
  kind: 'read' | 'create';
  status: number;
  retryAfter: string | null;
  code?: string;
  fid?: string;
}

describe('PostgreSQL restarts under load', () => {
  let cluster: Cluster;
  let app: Awaited<ReturnType<typeof startServer>>;
  let auth: string;

  beforeAll(async () => {
    cluster = new Cluster(await freePort());
    cluster.init();
    cluster.start();
    const database = await openDatabase(cluster.url);
    await migrateDatabase(database);
    const { user, apiKey } = await createUser(database.db, { username: 'loader' });
    await database.close();
    auth = basic(user.username, apiKey);
    app = await startServer({
      DATABASE_URL: cluster.url,
      DEMO_SEED: 'false',
      IMAGE_WORKER: 'false',
      RATE_LIMIT_WRITES_PER_KEY: '0',
      RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    });
  });
  afterAll(async () => {
    await app?.stop();
    cluster?.remove();
  });

  it('answers 503 with Retry-After while it is down (never waiting for it), recovers by itself, and loses no answered create', async () => {
    let created = 0;
    const first = await fetch(`${app.url}/v2/plots`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ figure: { data: [] }, filename: 'seed' }),
    });
    expect(first.status).toBe(200);
    const seedFid = (await first.json()).file.fid as string;

    const outcomes: Outcome[] = [];
    let running = true;
    async function one(kind: 'read' | 'create', i: number): Promise<void> {
      const sent = Date.now();
      const started = performance.now();
      const reads = ['/v2/plots', `/v2/plots/${seedFid}`, `/v2/plots/${seedFid}/content`, '/v2/plots/feed'];
      const init: RequestInit =
        kind === 'read'
          ? { signal: AbortSignal.timeout(10_000) }
          : {
              method: 'POST',
              headers: { Authorization: auth, 'Content-Type': 'application/json' },
              body: JSON.stringify({ figure: { data: [{ type: 'bar', name: `c${++created}` }] } }),
              signal: AbortSignal.timeout(10_000),
            };
      let status = 0;
      let retryAfter: string | null = null;
      let body: { errors?: { code: string }[]; file?: { fid: string } } = {};
      try {
        const res = await fetch(`${app.url}${kind === 'read' ? reads[i % reads.length] : '/v2/plots'}`, init);
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        body = await res.json();
      } catch {
        status = -1; // no answer at all (a hang past the timeout, or a dropped connection)
      }
      outcomes.push({ sent, at: Date.now(), ms: performance.now() - started, kind, status, retryAfter, code: body.errors?.[0]?.code, fid: body.file?.fid });
    }
    const loop = async (kind: 'read' | 'create') => {
      for (let i = 0; running; i++) {
        await one(kind, i);
        // Writers pace themselves: the point is answers during the outage, not a flood of rows.
        if (kind === 'create') await new Promise((r) => setTimeout(r, 20));
      }
    };
    const load = [...Array.from({ length: READERS }, () => loop('read')), ...Array.from({ length: WRITERS }, () => loop('create'))];

    await new Promise((r) => setTimeout(r, 1500));
    cluster.stop();
    // Once stopped: requests started from here on meet the outage (one started before may still be served).
    const downAt = Date.now();
    await new Promise((r) => setTimeout(r, 2500));
    const upAt = Date.now();
    cluster.start();
    // Recovery: the same app process answers 200 again, by itself.
    let recoveredAt = 0;
    for (let i = 0; i < 100 && !recoveredAt; i++) {
      if ((await fetch(`${app.url}/v2/plots`)).status === 200) recoveredAt = Date.now();
      else await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1500));
    running = false;
    await Promise.all(load);

    const during = outcomes.filter((o) => o.at - o.ms > downAt + 200 && o.at < upAt);
    // Sent while the database was down and well before it was started again (upAt; one sent just
    // before may meet the database starting): a request that waited for it instead of answering would
    // be answered only after the restart, or not at all.
    const sentWhileDown = outcomes.filter((o) => o.sent > downAt + 200 && o.sent < upAt - 1000);
    const unavailable = outcomes.filter((o) => o.status === 503);
    const slowest = Math.max(...during.map((o) => o.ms));
    console.log(
      `[restart] ${outcomes.length} requests; ${during.length} while down (slowest ${slowest.toFixed(0)} ms), ${unavailable.length} answered 503; ` +
        `serving again ${recoveredAt - upAt} ms after the start command returned`,
    );

    expect(recoveredAt, 'the app never served again').toBeGreaterThan(0);
    expect(sentWhileDown.length).toBeGreaterThan(0);
    // Only answers that were served or refused for the outage: no 500, no dropped connection.
    expect(outcomes.filter((o) => ![200, 503].includes(o.status)).map((o) => `${o.kind} ${o.status}`)).toEqual([]);
    // By order, not by clock: each was refused for the outage or served without the database (an
    // anonymous answer kept in memory) before it came back; none held until the database came back.
    for (const o of sentWhileDown) {
      expect(o.at < upAt && [200, 503].includes(o.status), `a ${o.kind} sent while the database was down waited for it (${o.status})`).toBe(true);
    }
    expect(sentWhileDown.filter((o) => o.status === 503).length, 'no request met the outage').toBeGreaterThan(0);
    for (const o of unavailable) {
      expect(o.code).toBe('SERVICE_UNAVAILABLE');
      expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Served both before and after the restart.
    expect(outcomes.some((o) => o.status === 200 && o.at < downAt)).toBe(true);
    expect(outcomes.some((o) => o.status === 200 && o.at > recoveredAt)).toBe(true);

    // Every create that was answered 200 is in the database.
    const answered = outcomes.filter((o) => o.kind === 'create' && o.status === 200).map((o) => o.fid!);
    expect(answered.length).toBeGreaterThan(10);
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<
        { fid: string }[]
      >`SELECT u.username || ':' || f.n AS fid FROM files f JOIN users u ON u.id = f.owner_id WHERE f.filetype = 'plot'`;
      const stored = new Set(rows.map((r) => r.fid));
      expect(answered.filter((fid) => !stored.has(fid))).toEqual([]);
    } finally {
      await sql.end();
    }
  });
});
