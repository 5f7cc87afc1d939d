// Starts the built app (`next build` ran first) against a fresh Postgres database for the HTTP
// tests, and drops that database afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { createUser } from '@/lib/core/accounts/users';
import { createMigratedDatabase, migratedPgliteDir } from './support/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    /** The same app on embedded PGlite (tests/support/servers.ts), with users made before it started; not in the hardening project. */
    pgliteUrl: string;
    pgliteUsers: { username: string; apiKey: string }[];
  }
}

// The suites write far faster than any person (hundreds of creates in a burst, all from 127.0.0.1):
// rate limits are off here and tested on servers of their own (rate-limit.test.ts).
const UNLIMITED = { DEMO_SEED: 'false', RATE_LIMIT_WRITES_PER_KEY: '0', RATE_LIMIT_WRITES_PER_ADDRESS: '0' };

/** Users made in a PGlite directory before its server starts (PGlite is single-process); the http and clients projects share them. */
export const PGLITE_USERS = 400;

/** The app on a fresh embedded database with `count` users (test keys, never used elsewhere). */
export async function startPgliteServer(count: number, env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-http-pglite-'));
  const dataDir = path.join(dir, 'pglite');
  const database = await migratedPgliteDir(dataDir);
  const users: { username: string; apiKey: string }[] = [];
  try {
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

interface Apps {
  databaseUrl: string;
  server: Awaited<ReturnType<typeof startServer>>;
  stop(): Promise<void>;
}

async function startApps(): Promise<Apps> {
  const name = createDatabaseName('http');
  await createMigratedDatabase(name);
  const databaseUrl = adminUrl(name);
  const server = await startServer({ ...UNLIMITED, DATABASE_URL: databaseUrl });
  return {
    databaseUrl,
    server,
    stop: async () => {
      await server.stop();
      await dropDatabase(name);
    },
  };
}

// vitest runs a project's global setup once per project (http and clients each name this file, and
// load it apart), all in its one main process: the projects of one run share the apps through that
// process's global object, started by the first project's setup that needs each and stopped by the
// last teardown (vitest tears down once every project's tests are done). Every test makes users of its own.
const shared = globalThis as {
  pfTestApps?: { apps: Promise<Apps>; pglite?: Promise<Awaited<ReturnType<typeof startPgliteServer>>>; projects: number };
};

export default async function setup(project: TestProject) {
  shared.pfTestApps ??= { apps: startApps(), projects: 0 };
  const current = shared.pfTestApps;
  current.projects++;
  // The hardening suite speaks to the PostgreSQL app alone.
  if (project.name !== 'hardening') current.pglite ??= startPgliteServer(PGLITE_USERS);
  const [{ databaseUrl, server }, pglite] = await Promise.all([current.apps, current.pglite]);
  project.provide('baseUrl', server.url);
  project.provide('databaseUrl', databaseUrl);
  if (pglite) {
    project.provide('pgliteUrl', pglite.url);
    project.provide('pgliteUsers', pglite.users);
  }
  return async () => {
    if (--current.projects > 0) return;
    shared.pfTestApps = undefined;
    const stopPglite = async () => {
      const app = await current.pglite;
      if (!app) return;
      rmSync(path.join(tmpdir(), `pf-pglite-claims-${new URL(app.url).port}`), { recursive: true, force: true });
      await app.stop();
    };
    await Promise.all([(await current.apps).stop(), stopPglite()]);
  };
}
