// Shared by the operator commands: open and migrate the database, run, close, exit non-zero on error.
// A person's mistake (an unknown name, a missing setting, a refused value) prints its one sentence;
// anything else is a fault of the command and prints in full.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { openDatabase } from '@/db/client';
import type { Db } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { ApiError } from '@/lib/core/errors';

/** A mistake of the person running a command: its message is all they see (no stack trace). */
export class CommandError extends Error {
  name = 'CommandError';
}

export async function runCommand<O extends ParseArgsConfig['options']>(
  usage: string,
  options: O,
  run: (db: Db, args: { values: Record<string, string | boolean | undefined>; positionals: string[] }) => Promise<void>,
): Promise<void> {
  let args: unknown;
  try {
    args = parseArgs({ options, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: ${usage}`);
    process.exit(2);
  }
  const database = await openDatabase(process.env.DATABASE_URL);
  try {
    await migrateDatabase(database);
    await run(database.db, args as never);
  } catch (error) {
    console.error(error instanceof ApiError || error instanceof CommandError ? error.message : error);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}
