// Starts the built app (`next build` ran first) against a fresh Postgres database for the HTTP
// tests, and drops that database afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { createUser } from '@/lib/core/users';
import { adminUrl, createDatabaseName, dropDatabase, createDatabase } from './support/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    /** The same app on embedded PGlite (tests/support/servers.ts), with users made before it started. */
    pgliteUrl: string;
    pgliteUsers: { username: string; apiKey: string }[];
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function startServer(env: Record<string, string>): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn('node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/v2/plots?page_size=1`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next start did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, process: child, stop };
}

// The suites write far faster than any person (hundreds of creates in a burst, all from 127.0.0.1):
// rate limits are off here and tested on servers of their own (rate-limit.test.ts).
const UNLIMITED = { DEMO_SEED: 'false', RATE_LIMIT_WRITES_PER_KEY: '0', RATE_LIMIT_WRITES_PER_ADDRESS: '0' };

/** Users made in a PGlite directory before its server starts (PGlite is single-process). */
export const PGLITE_USERS = 200;

/** The app on a fresh embedded database with `count` users (test keys, never used elsewhere). */
export async function startPgliteServer(count: number, env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-http-pglite-'));
  const dataDir = path.join(dir, 'pglite');
  const database = await openDatabase(undefined, dataDir);
  const users: { username: string; apiKey: string }[] = [];
  try {
    await migrateDatabase(database);
    for (let i = 0; i < count; i++) {
      const user = { username: `pg${i}${randomBytes(3).toString('hex')}`, apiKey: randomBytes(18).toString('base64url') };
      await createUser(database.db, user);
      users.push(user);
    }
  } finally {
    await database.close();
  }
  const server = await startServer({ ...UNLIMITED, ...env, DATABASE_URL: '', PGLITE_DIR: dataDir });
  return {
    ...server,
    users,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const name = createDatabaseName('http');
  await createDatabase(name);
  const databaseUrl = adminUrl(name);
  const [server, pglite] = await Promise.all([
    startServer({ ...UNLIMITED, DATABASE_URL: databaseUrl }),
    startPgliteServer(PGLITE_USERS),
  ]);
  project.provide('baseUrl', server.url);
  project.provide('databaseUrl', databaseUrl);
  project.provide('pgliteUrl', pglite.url);
  project.provide('pgliteUsers', pglite.users);
  return async () => {
    rmSync(path.join(tmpdir(), `pf-pglite-claims-${new URL(pglite.url).port}`), { recursive: true, force: true });
    await Promise.all([server.stop(), pglite.stop()]);
    await dropDatabase(name);
  };
}
