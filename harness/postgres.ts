// Databases of their own for the test suites and the benchmarks, created and dropped beside
// DATABASE_URL's (CI sets it), else on the local server.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

const ADMIN = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function adminUrl(database: string): string {
  const url = new URL(ADMIN);
  url.pathname = `/${database}`;
  return url.toString();
}

export const createDatabaseName = (label: string) => `pf_${label}_${randomBytes(4).toString('hex')}`;

/** Runs `fn` on a connection to the server's admin database (DATABASE_URL's). */
export async function adminSql<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(ADMIN, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

export const createDatabase = (name: string) => adminSql((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
export const dropDatabase = (name: string) => adminSql((sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
