// The account commands an operator runs (`npm run user:…`), as child processes against a real
// PostgreSQL database, checked in the database they changed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { invitations, sessions } from '@/db/schema';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { openPasswordReset, resetPassword } from '@/lib/core/accounts/password-resets';
import { verifyPassword } from '@/lib/core/accounts/passwords';
import { createSession } from '@/lib/core/accounts/sessions';
import { createUser, getUserById } from '@/lib/core/accounts/users';
import { createMigratedDatabase } from '../support/postgres';

const name = createDatabaseName('ops');
let database: Database;

beforeAll(async () => {
  await createMigratedDatabase(name);
  database = await openDatabase(adminUrl(name));
});
afterAll(async () => {
  await database?.close();
  await dropDatabase(name);
});

/** Runs scripts/<script>.ts as `npm run` does; answers its output and exit code. */
async function command(script: string, args: string[], env: Record<string, string> = {}) {
  const { PUBLIC_URL: _, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)('node_modules/.bin/tsx', ['--conditions=react-server', `scripts/${script}.ts`, ...args], {
      env: { ...inherited, DATABASE_URL: adminUrl(name), ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const error = e as { code: number; stdout: string; stderr: string };
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

describe('npm run user:reset-password', () => {
  it('sets a new random password, printed once, and ends the user’s sessions; the API key still works', async () => {
    const { db } = database;
    const { user, apiKey } = await createUser(db, { username: 'forgetful', password: 'the old password' });
    await createSession(db, user.id);
    const run = await command('user-reset-password', ['Forgetful']);
    expect(run.code).toBe(0);
    const password = run.stdout.match(/New password for forgetful .*: (\S+)\n$/)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const after = await getUserById(db, user.id);
    expect(await verifyPassword(after?.passwordHash, password!)).toBe(true);
    expect(await verifyPassword(after?.passwordHash, 'the old password')).toBe(false);
    expect(after?.apiKeyHash).toBe(user.apiKeyHash);
    expect(apiKey).toBeTruthy();
    const [{ n }] = await db.select({ n: count() }).from(sessions).where(eq(sessions.userId, user.id));
    expect(n).toBe(0);

    // Again: another password.
    const again = await command('user-reset-password', ['forgetful']);
    expect(again.stdout).not.toContain(password);
  });

  it('with --link, prints a one-time link on PUBLIC_URL instead, which sets the password once (or says PUBLIC_URL is needed)', async () => {
    const { db } = database;
    const { user } = await createUser(db, { username: 'linked', password: 'the old password' });
    const needs = await command('user-reset-password', ['linked', '--link']);
    expect(needs.code).toBe(1);
    expect(needs.stderr).toContain('PUBLIC_URL is needed');
    const run = await command('user-reset-password', ['linked', '--link'], { PUBLIC_URL: 'https://plots.example.org' });
    expect(run.code).toBe(0);
    const token = run.stdout.match(/^https:\/\/plots\.example\.org\/reset-password\?token=([A-Za-z0-9_-]{43})$/m)?.[1];
    expect(token).toBeTruthy();
    // Nothing changed yet; the link sets it, once.
    expect(await verifyPassword((await getUserById(db, user.id))?.passwordHash, 'the old password')).toBe(true);
    expect(await openPasswordReset(db, token!)).toEqual({ username: 'linked' });
    await resetPassword(db, token!, 'chosen by them');
    expect(await verifyPassword((await getUserById(db, user.id))?.passwordHash, 'chosen by them')).toBe(true);
    expect(await openPasswordReset(db, token!)).toBeNull();
  });

  it('refuses an unknown user and a missing name, changing nothing', async () => {
    const unknown = await command('user-reset-password', ['nobody-here']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("No user named 'nobody-here'.\n");
    const none = await command('user-reset-password', []);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Usage: npm run user:reset-password -- <username> [--link');
  });
});

describe('npm run user:invite', () => {
  it('prints a link on PUBLIC_URL', async () => {
    const run = await command('user-invite', ['someone@invite.example'], { PUBLIC_URL: 'https://plots.example.org/' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^https:\/\/plots\.example\.org\/signup\?invite=[A-Za-z0-9_-]{43}$/m);
  });

  it('without PUBLIC_URL, says it is needed and makes no invitation', async () => {
    const { db } = database;
    const before = await db.select({ n: count() }).from(invitations);
    const run = await command('user-invite', ['other@invite.example']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PUBLIC_URL is needed');
    expect(run.stdout).not.toContain('invite=');
    expect(await db.select({ n: count() }).from(invitations)).toEqual(before);
    const bad = await command('user-invite', ['other@invite.example'], { PUBLIC_URL: 'plots.example.org' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not an http:// or https:// address');
  });
});

// A person's mistake at any command is its one sentence on stderr (no stack trace) and a non-zero exit.
describe("a person's mistake", () => {
  it.each([
    ['user-reset-password', ['nobody-here'], "No user named 'nobody-here'."],
    ['user-reset-password', ['nobody-here', '--link'], "No user named 'nobody-here'.", { PUBLIC_URL: 'https://plots.example.org' }],
    ['user-rotate-key', ['nobody-here'], "No user named 'nobody-here'."],
    ['user-rotate-key', [], 'Usage: npm run user:rotate-key -- <username>'],
    ['user-invite', ['a@b.example', '--days', '0'], '--days must be a whole number from 1 to 365'],
    ['user-invite', ['a@b.example'], 'PUBLIC_URL is needed to print the links'],
    ['plot-curate', ['nobody-here:1', '--quality', '5'], "No live plot 'nobody-here:1'."],
    ['plot-curate', ['not a fid', '--quality', '5'], "'not a fid' is not a fid (owner:number)"],
    ['plot-curate', ['x:1'], 'Usage: npm run plot:curate'],
  ] as [string, string[], string, Record<string, string>?][])('%s %j: %s', async (script, args, sentence, env) => {
    const run = await command(script, args, env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(sentence);
    expect(run.stderr, 'no stack trace').not.toMatch(/^\s+at /m);
    expect(run.stdout).toBe('');
  });
});
