// Test databases: each suite gets its own Postgres database (made by harness/postgres.ts) or an
// in-memory PGlite, both migrated with the committed migrations; and dumps for comparisons.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { adminUrl, createDatabase, createDatabaseName, dropDatabase } from '@/harness/postgres';

export type Driver = 'postgres' | 'pglite';
export const DRIVERS: Driver[] = ['postgres', 'pglite'];

/** A fresh, migrated database of the given driver; `dispose()` closes (and drops) it. */
export async function freshDatabase(driver: Driver): Promise<Database & { dispose(): Promise<void> }> {
  if (driver === 'pglite') {
    const database = await openDatabase(undefined, 'memory://');
    await migrateDatabase(database);
    return { ...database, dispose: () => database.close() };
  }
  const name = createDatabaseName('lib');
  await createDatabase(name);
  const database = await openDatabase(adminUrl(name));
  await migrateDatabase(database);
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await dropDatabase(name);
    },
  };
}

/**
 * A fresh database of `driver` for the enclosing `describe` block, made before its tests and disposed
 * after them. Call it before the block's own hooks: before-hooks run in the order they are declared
 * and after-hooks in reverse, so the block's set-up finds the database and its clean-up still has it.
 * The answer reads the database once it is made; reading it outside a hook or a test throws.
 */
export function useDatabase(driver: Driver): Database {
  let fresh: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  beforeAll(async () => {
    fresh = await freshDatabase(driver);
  });
  afterAll(async () => {
    await fresh?.dispose();
  });
  const made = () => {
    if (!fresh) throw new Error('useDatabase: the database is made in beforeAll; read it in a hook or a test');
    return fresh;
  };
  return {
    get db() {
      return made().db;
    },
    driver,
    listen: (channel, onNotify) => made().listen(channel, onNotify),
    close: () => made().close(),
  };
}

/**
 * A data-only pg_dump of a database, as text, for before/after comparisons. Left out: the rows of
 * tables that change by themselves (the image worker's queue and PNGs, rate-limit counters), and
 * sequence positions, which Postgres advances even for a transaction that rolls back.
 */
export function dumpDatabase(url: string): string {
  const excluded = ['image_jobs', 'plot_images', 'rate_limits'].flatMap((t) => ['--exclude-table-data', t]);
  const dump = execFileSync('pg_dump', ['--data-only', '--no-owner', '--no-privileges', '--restrict-key=hardening', ...excluded, url], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return dump
    .split('\n')
    .filter((line) => !line.startsWith('SELECT pg_catalog.setval('))
    .join('\n');
}
