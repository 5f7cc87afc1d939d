import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './client';

const migrationsFolder = path.resolve(process.cwd(), 'db/migrations');

/** Applies the committed drizzle-kit migrations. Several processes may start at once: a
 * transaction-scoped advisory lock (Postgres) lets one migrate while the others wait. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.driver === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder });
    return;
  }
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727274)`);
    // The migrator runs on the pool's other connections; this one only holds the lock.
    await migrate(database.db as never, { migrationsFolder });
  });
}
