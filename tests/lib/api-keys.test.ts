// The API key check in its two forms, held to one table of cases on PostgreSQL and PGlite: keyHolder
// (apiKeyMatches: every request with a key, and web sign-in by key) and apiKeyMatchesSql (the API
// write's one admission statement, which counts a user's writes only for its right key).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import { apiKeyMatchesSql, keyHolder, verifyApiKey, type ApiKeyCredentials } from '@/lib/core/accounts/auth';
import { createUser, getUserByUsername, hashApiKey } from '@/lib/core/accounts/users';
import { SQL_DRIVER, useDatabase } from '../support/postgres';

const KEYS = { active: 'the-active-users-key', retired: 'the-retired-users-key' };

// [what, credentials, the user they name (null: none)]
const CASES: [string, ApiKeyCredentials, string | null][] = [
  ['the right key', { username: 'active', key: KEYS.active }, 'active'],
  ['the right key, the name in another case', { username: 'ACTIVE', key: KEYS.active }, 'active'],
  ['another user’s key', { username: 'active', key: KEYS.retired }, null],
  ['a wrong key', { username: 'active', key: 'not-the-key-at-all' }, null],
  ['an empty key', { username: 'active', key: '' }, null],
  ['the key its hash', { username: 'active', key: hashApiKey(KEYS.active) }, null],
  ['an inactive user’s right key', { username: 'retired', key: KEYS.retired }, null],
  ['no such user', { username: 'nobody', key: KEYS.active }, null],
  ['no name', { username: '', key: KEYS.active }, null],
  ['a name longer than any username', { username: 'a'.repeat(51), key: KEYS.active }, null],
];

describe.each(SQL_DRIVER)('the API key check in TypeScript and SQL (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;

  beforeAll(async () => {
    db = database.db;
    await createUser(db, { username: 'active', apiKey: KEYS.active });
    const { user } = await createUser(db, { username: 'retired', apiKey: KEYS.retired });
    await db.execute(sql`UPDATE users SET is_active = false WHERE id = ${user.id}`);
  });

  it.each(CASES)('%s', async (_what, credentials, holder) => {
    const found = await getUserByUsername(db, credentials.username);
    expect(keyHolder(credentials, found)?.username ?? null).toBe(holder);
    expect((await verifyApiKey(db, credentials))?.username ?? null).toBe(holder);
    // The statement's rule over the row the name found (no row matches nothing).
    const [row] = await queryRows<{ matches: boolean }>(
      db,
      sql`SELECT coalesce((SELECT ${apiKeyMatchesSql(sql`u`, sql`${hashApiKey(credentials.key)}`)} FROM users u WHERE u.id = ${found?.id ?? -1}), false) AS matches`,
    );
    expect(row.matches).toBe(holder !== null);
  });
});
