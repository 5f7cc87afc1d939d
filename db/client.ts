import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import * as schema from './schema';

/** Either driver's database (or a transaction on it): every query in lib/ takes one of these first. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  driver: 'postgres' | 'pglite';
  /** LISTEN on a channel (postgres.js keeps one connection for it and re-listens after an outage); each notice's payload is passed on. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * What one person's files may hold, in bytes (STORAGE_PER_PERSON_MB, default 1024; 0: no bound).
 * Every connection carries it, as STORAGE_SETTING, to the trigger that applies it (migration person_storage).
 */
export function personStorageBytes(): number {
  const raw = process.env.STORAGE_PER_PERSON_MB;
  const mb = raw === undefined || raw === '' ? 1024 : Number(raw);
  if (!Number.isFinite(mb) || mb < 0) throw new Error(`STORAGE_PER_PERSON_MB must be a number >= 0 (got "${raw}")`);
  return Math.round(mb * 1024 * 1024);
}
const STORAGE_SETTING = 'plot_files.storage_bytes';

/**
 * Opens a database: postgres.js on `url` when given, else embedded PGlite in `dataDir`
 * (`memory://` for a throwaway one). Migrations are not applied here; see db/migrate.ts.
 */
/** Where the embedded database keeps its files when no DATABASE_URL is given. */
export const embeddedDataDir = () => process.env.PGLITE_DIR ?? '.data/pglite';

export async function openDatabase(url: string | undefined, dataDir = embeddedDataDir()): Promise<Database> {
  if (url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const client = postgres(url, {
      max: Number(process.env.DB_POOL_MAX ?? 10),
      // A database that is away refuses connections at once (503 at once); one that is unreachable, or
      // starting up and accepting connections it does not answer yet, would keep a request waiting:
      // this bounds that wait. It is not tighter because a loaded machine can take a good part of a
      // second to open a connection, and a request that met this bound is answered 503.
      connect_timeout: Number(process.env.DB_CONNECT_TIMEOUT ?? 3),
      // postgres.js waits up to 20 s between reconnect attempts once it has failed a few times: a
      // query queued meanwhile hangs, and the service takes that long to notice the database is back.
      // A quarter second (with jitter) keeps outage answers prompt and recovery quick.
      backoff: () => 0.2 + Math.random() * 0.1,
      idle_timeout: 60,
      onnotice: () => {},
      connection: { application_name: 'plot-files', statement_timeout: 30_000, [STORAGE_SETTING]: String(personStorageBytes()) },
    });
    return {
      db: drizzle(client, { schema }) as unknown as Db,
      driver: 'postgres',
      listen: async (channel, onNotify) => {
        const { unlisten } = await client.listen(channel, onNotify);
        return unlisten;
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (!dataDir.startsWith('memory://')) {
    // PGlite creates only the last directory of its path.
    mkdirSync(path.dirname(path.resolve(/*turbopackIgnore: true*/ dataDir)), { recursive: true });
  }
  const client = new PGlite(dataDir);
  await client.waitReady;
  await client.query(`SELECT set_config('${STORAGE_SETTING}', $1, false)`, [String(personStorageBytes())]);
  return {
    db: drizzle(client, { schema }) as unknown as Db,
    driver: 'pglite',
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    close: () => client.close(),
  };
}

declare global {
  // One database per process, shared by every route (and surviving Next's dev reloads).
  var __plotFilesDb: Promise<Database> | undefined;
  // What the process does with its database before the first query (set at start; see prepareWith).
  var __plotFilesPrepare: ((database: Database) => Promise<void>) | undefined;
}

/**
 * Sets what getDatabase does to a newly opened database before handing it out: the app's start
 * (instrumentation.ts) migrates and seeds, the image worker migrates. The client knows neither.
 * Kept on globalThis: Next loads instrumentation and routes as separate module graphs.
 */
export function prepareWith(prepare: (database: Database) => Promise<void>): void {
  globalThis.__plotFilesPrepare = prepare;
}

/** The app's database, opened (and prepared, see prepareWith) on first use. */
export function getDatabase(): Promise<Database> {
  globalThis.__plotFilesDb ??= (async () => {
    const database = await openDatabase(process.env.DATABASE_URL);
    try {
      await globalThis.__plotFilesPrepare?.(database);
    } catch (error) {
      await database.close().catch(() => {});
      throw error;
    }
    return database;
  })().catch((error) => {
    // Let the next request try again (the database may come back) rather than caching the failure.
    globalThis.__plotFilesDb = undefined;
    throw error;
  });
  return globalThis.__plotFilesDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

interface PreparedQuery {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

interface Preparable {
  dialect: { sqlToQuery(query: SQL): { sql: string } };
  session: { prepareQuery(query: unknown, fields: undefined, name: string | undefined, arrayMode: boolean): PreparedQuery };
}

const preparing = () => process.env.DB_PREPARE !== 'false';

/** A query builder's statement (select, insert, update, delete): it runs unprepared, or prepared under a name. */
interface Statement<T> {
  execute(): Promise<T>;
  prepare(name: string): { execute(): Promise<T> };
}

/**
 * Runs a query builder's statement prepared, as `queryRows` runs raw ones: drizzle's postgres.js
 * driver prepares only named statements, and an unnamed one costs a describe round trip and a plan
 * on every run. For the hot paths (`DB_PREPARE=false` turns it off).
 */
export function runPrepared<T>(query: Statement<T>): Promise<T> {
  return preparing() ? query.prepare('q').execute() : query.execute();
}

/**
 * Whether a raw statement's text may be prepared (named): postgres.js keeps a named statement for the
 * connection's life, and Postgres keeps its parsed query and plan (200-350 KB for a list page's), with
 * no way to let one go. Texts that vary with the request (page sizes, the number of search words or
 * of grids named) must not grow those caches without bound: a process prepares its first
 * MAX_PREPARED_TEXTS distinct texts, and runs any other unnamed (planned on each run, nothing kept).
 */
function mayPrepare(text: string): boolean {
  if (!preparing()) return false;
  if (preparedTexts.has(text)) return true;
  if (preparedTexts.size >= MAX_PREPARED_TEXTS) return false;
  preparedTexts.add(text);
  if (preparedTexts.size === MAX_PREPARED_TEXTS) console.warn(`${MAX_PREPARED_TEXTS} statement texts prepared: new ones run unprepared from now on.`);
  return true;
}
const MAX_PREPARED_TEXTS = 200;
const preparedTexts = new Set<string>();

/**
 * Rows of a raw query on either driver (postgres.js answers an array, PGlite `{ rows }`). Named, so
 * postgres.js prepares it once per connection (the record-building queries cost more to plan than
 * to run), while `mayPrepare` allows. `DB_PREPARE=false` turns that off (e.g. behind PgBouncer in
 * transaction mode).
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const { session, dialect } = db as unknown as Preparable;
  const compiled = dialect.sqlToQuery(query);
  const result = (!mayPrepare(compiled.sql) ? await db.execute(query) : await session.prepareQuery(compiled, undefined, 'raw', false).execute()) as
    | T[]
    | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** A raw statement compiled once: run it with its placeholders' values (`sql.placeholder(name)`). */
export type CompiledQuery<T> = (db: Db, values?: Record<string, unknown>) => Promise<T[]>;

/**
 * A raw statement whose text never changes, compiled from drizzle's SQL once per database session
 * (not once per run) and prepared as `queryRows` prepares: for the hot paths, where building and
 * compiling the SQL object cost the app more CPU than Postgres spends running the statement. What
 * varies goes in as `sql.placeholder(name)`s, given to each run. `build` runs on first use. Its text
 * is one per call site, so it is always prepared (`DB_PREPARE=false` aside); `prepare: false` for a
 * statement built from request-chosen parts (see mayPrepare) runs it unnamed.
 */
export function compiledQuery<T>(build: () => SQL, opts: { prepare?: boolean } = {}): CompiledQuery<T> {
  let query: SQL | undefined;
  const bySession = new WeakMap<object, PreparedQuery>();
  return async (db, values = {}) => {
    const { session, dialect } = db as unknown as Preparable;
    let prepared = bySession.get(session);
    if (!prepared) {
      query ??= build();
      prepared = session.prepareQuery(dialect.sqlToQuery(query), undefined, preparing() && opts.prepare !== false ? 'raw' : undefined, false);
      bySession.set(session, prepared);
    }
    const result = (await prepared.execute(values)) as T[] | { rows: T[] };
    return Array.isArray(result) ? result : result.rows;
  };
}
