// Test databases: each suite gets its own Postgres database (made by harness/postgres.ts) or an
// in-memory PGlite, both copies of one migrated template made once per set of migrations (migrating
// every suite's database took most of a short suite's time); and dumps for comparisons.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database, type Db } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import * as schema from '@/db/schema';
import { adminSql, adminUrl, createDatabase, createDatabaseName, dropDatabase } from '@/harness/postgres';

export type Driver = 'postgres' | 'pglite';
/** Both drivers: for tests where the driver matters (how values are encoded and read back, streams,
 * transactions, locks and the job queue). */
export const DRIVERS: Driver[] = ['postgres', 'pglite'];
/** One driver: for rules that are the SQL's and the library's. PGlite runs the same PostgreSQL; its
 * driver is held by the DRIVERS tests and, as the app runs it, by tests/http/embedded.test.ts. */
export const SQL_DRIVER: Driver[] = ['postgres'];

/** PF_TEST_MIGRATE_EACH=1: every database migrated on its own, as before the templates (to compare
 * timings, or to rule the templates out). */
const migrateEach = process.env.PF_TEST_MIGRATE_EACH === '1';

/** Names the committed migrations: a template made from other migrations is never used. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update('\0').update(readFileSync(full)).update('\0');
    }
  };
  walk(path.resolve(process.cwd(), 'db/migrations'));
  return hash.digest('hex').slice(0, 12);
}

let templateName: Promise<string> | undefined;

/**
 * The migrated template database of this set of migrations, made by the first suite that needs it
 * (in any process: an advisory lock lets one make it while the others wait) and kept for later runs.
 * It is built under a name of its own and renamed once complete, so an interrupted build is never
 * cloned and a run beside another DATABASE_URL (another lock) never disturbs this one's build; it
 * accepts no connections, so nothing can stop a clone (Postgres copies only an unused template).
 * Drop `pf_tpl_*` databases at will (`ALTER DATABASE ... IS_TEMPLATE false` first): the next run
 * makes its own again.
 */
export function postgresTemplate(): Promise<string> {
  templateName ??= (async () => {
    const name = `pf_tpl_${migrationsHash()}`;
    await adminSql(async (sql) => {
      const exists = async () => (await sql`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0;
      await sql`SELECT pg_advisory_lock(727275)`;
      try {
        if (await exists()) return;
        const building = createDatabaseName('tplbuild');
        await createDatabase(building);
        const database = await openDatabase(adminUrl(building));
        try {
          await migrateDatabase(database);
        } finally {
          await database.close();
        }
        await sql.unsafe(`ALTER DATABASE "${building}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
        try {
          await sql.unsafe(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
        } catch (error) {
          await sql.unsafe(`ALTER DATABASE "${building}" WITH IS_TEMPLATE false`);
          await dropDatabase(building);
          if (!(await exists())) throw error; // (else another run's build was renamed first: use it)
        }
      } finally {
        await sql`SELECT pg_advisory_unlock(727275)`;
      }
    });
    return name;
  })();
  return templateName;
}

/** A new Postgres database `name`, a copy of the migrated template. */
export async function createMigratedDatabase(name: string): Promise<void> {
  if (migrateEach) {
    await createDatabase(name);
    const database = await openDatabase(adminUrl(name));
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
    return;
  }
  const template = await postgresTemplate();
  await adminSql((sql) => sql.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
}

/** A PGlite (in memory unless `dataDir` names a directory), as db/client.ts opens one, started from
 * `loadDataDir` when given. */
async function openPglite(loadDataDir?: Blob, dataDir = 'memory://') {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const client = new PGlite(dataDir, loadDataDir ? { loadDataDir } : undefined);
  await client.waitReady;
  const database: Database = {
    db: drizzle(client, { schema }) as unknown as Db,
    driver: 'pglite',
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    close: () => client.close(),
  };
  return { client, database };
}

let pgliteDump: Promise<Blob> | undefined;

/**
 * A migrated PGlite data directory as a tarball, made once per set of migrations and kept in the
 * system's temporary directory (racing processes each write a whole file and rename it into place).
 */
function pgliteTemplate(): Promise<Blob> {
  pgliteDump ??= (async () => {
    // Named for PGlite's version too: a data directory is read by the version that wrote it.
    const { version } = JSON.parse(readFileSync(path.resolve(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'), 'utf8'));
    const file = path.join(tmpdir(), `pf-pglite-tpl-${version}-${migrationsHash()}.tar`);
    if (!existsSync(file)) {
      const { client, database } = await openPglite();
      try {
        await migrateDatabase(database);
        const dump = await client.dumpDataDir('none');
        const part = `${file}.${randomBytes(4).toString('hex')}`;
        writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
        renameSync(part, file);
      } finally {
        await client.close();
      }
    }
    return new Blob([readFileSync(file)]);
  })();
  return pgliteDump;
}

/** A migrated PGlite in the new directory `dataDir` (for an app to serve once it is closed). */
export async function migratedPgliteDir(dataDir: string): Promise<Database> {
  if (migrateEach) {
    const database = await openDatabase(undefined, dataDir);
    await migrateDatabase(database);
    return database;
  }
  return (await openPglite(await pgliteTemplate(), dataDir)).database;
}

/** A fresh, migrated database of the given driver; `dispose()` closes (and drops) it. */
export async function freshDatabase(driver: Driver): Promise<Database & { dispose(): Promise<void> }> {
  if (driver === 'pglite') {
    const { database } = await openPglite(migrateEach ? undefined : await pgliteTemplate());
    if (migrateEach) await migrateDatabase(database);
    return { ...database, dispose: () => database.close() };
  }
  const name = createDatabaseName('lib');
  await createMigratedDatabase(name);
  const database = await openDatabase(adminUrl(name));
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
