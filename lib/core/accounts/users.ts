// Users: accounts, API keys (stored only as sha256 hashes), passwords (argon2id, passwords.ts), the
// profile a person edits, and the spec 2.3 user summary.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { z } from 'zod';
import { compiledQuery, runPrepared, type Db } from '@/db/client';
import { sessions, users } from '@/db/schema';
import { invalid } from '../errors';
import { hashPassword, passwordSchema } from './passwords';
import { USERNAME } from '../records';
import { MAX_EMAIL_CHARS, PROFILE_LIMITS } from '@/lib/shared/limits';
import { userUrls } from '@/lib/shared/urls';

export const usernameSchema = z.string().regex(USERNAME, 'letters, digits, "_", "." and "-", at most 50, starting with a letter or digit');
export const emailSchema = z.email('must be an email address').max(MAX_EMAIL_CHARS, `must be at most ${MAX_EMAIL_CHARS} characters`);

/** What a person edits on /settings; the website is a link on their profile, so http(s) only. */
export const profileSchema = z.object({
  nickname: z.string().trim().max(PROFILE_LIMITS.nickname, `must be at most ${PROFILE_LIMITS.nickname} characters`),
  bio: z.string().trim().max(PROFILE_LIMITS.bio, `must be at most ${PROFILE_LIMITS.bio} characters`),
  website: z.union([
    z.literal(''),
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
      .max(PROFILE_LIMITS.website, `must be at most ${PROFILE_LIMITS.website} characters`),
  ]),
});
export type Profile = z.infer<typeof profileSchema>;

export type User = typeof users.$inferSelect;

/** 144 random bits, URL- and header-safe. */
export function generateApiKey(): string {
  return randomBytes(18).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const USER_COLUMNS = Object.entries(getTableColumns(users));

/** A users row from a raw query (`SELECT u.*, ...`) as drizzle maps one (dates, booleans); undefined when its id is null. */
export function userFromRow(raw: Record<string, unknown>): User | undefined {
  if (raw.id === null || raw.id === undefined) return undefined;
  return Object.fromEntries(USER_COLUMNS.map(([key, column]) => [key, raw[column.name] === null ? null : column.mapFromDriverValue(raw[column.name])])) as User;
}

/** The user with this name (case-insensitive), as SQL over the placeholder `username`: also part of
 * the API's one-statement write admission (lib/core/accounts/rate-limit.ts). */
export const userNamedSql = () => sql`SELECT * FROM users WHERE lower(username) = lower(${sql.placeholder('username')}::text) LIMIT 1`;

// Every API request with a key looks its user up: compiled once.
const userNamed = compiledQuery<Record<string, unknown>>(userNamedSql);

export async function getUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const [row] = await userNamed(db, { username });
  return row && userFromRow(row);
}

export async function getUserById(db: Db, id: number): Promise<User | undefined> {
  const [user] = await runPrepared(db.select().from(users).where(eq(users.id, id)).limit(1));
  return user;
}

/** The account a person signs in as: by confirmed email when the name holds an "@" (usernames cannot), else by username. */
export async function getUserByLogin(db: Db, login: string): Promise<User | undefined> {
  if (!login || login.length > MAX_EMAIL_CHARS) return undefined;
  if (!login.includes('@')) return getUserByUsername(db, login);
  const [user] = await runPrepared(
    db.select().from(users).where(sql`lower(${users.email}) = lower(${login}) AND ${users.email} <> '' AND ${users.emailConfirmedAt} IS NOT NULL`).limit(1),
  );
  return user;
}

const firstIssue = (field: string, result: { success: false; error: z.ZodError }) => invalid(field, result.error.issues[0].message);

export async function createUser(
  db: Db,
  input: {
    username: string;
    apiKey?: string;
    password?: string;
    email?: string;
    /** false: the address waits for its confirmation link (open sign-up with mail, lib/core/accounts/email-confirmations.ts). */
    emailConfirmed?: boolean;
    /** false: the key is not given to the person now (a sign-up on the web); their first key is made on the settings page. */
    keyGiven?: boolean;
    nickname?: string;
    bio?: string;
    website?: string;
  },
): Promise<{ user: User; apiKey: string }> {
  const username = usernameSchema.safeParse(input.username);
  if (!username.success) throw firstIssue('username', username);
  const email = input.email ? emailSchema.safeParse(input.email) : null;
  if (email && !email.success) throw firstIssue('email', email);
  const password = input.password === undefined ? null : passwordSchema.safeParse(input.password);
  if (password && !password.success) throw firstIssue('password', password);
  const apiKey = input.apiKey ?? generateApiKey();
  if (apiKey.length < 16) throw invalid('api_key', 'must be at least 16 characters');
  // An address waiting for confirmation may repeat unconfirmed ones, never one an account holds.
  if (email && input.emailConfirmed === false && (await emailHeld(db, email.data))) throw invalid('email', 'an account with this email address already exists');
  const passwordHash = password ? await hashPassword(password.data) : null;
  const [user] = await db
    .insert(users)
    .values({
      username: username.data,
      apiKeyHash: hashApiKey(apiKey),
      passwordHash,
      email: email?.data ?? '',
      emailConfirmedAt: email && input.emailConfirmed !== false ? sql`now()` : null,
      apiKeyGivenAt: input.keyGiven === false ? null : sql`now()`,
      nickname: input.nickname ?? '',
      bio: input.bio ?? '',
      website: input.website ?? '',
    })
    .onConflictDoNothing()
    .returning();
  if (!user) {
    // Which unique index refused it: the name, else the email address.
    if (await getUserByUsername(db, username.data)) throw invalid('username', `a user named '${username.data}' already exists`);
    throw invalid('email', 'an account with this email address already exists');
  }
  if (user.emailConfirmedAt) await releaseUnconfirmed(db, user.id, user.email);
  return { user, apiKey };
}

/** Whether an account holds `email` (confirmed). */
async function emailHeld(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) AND ${users.email} <> '' AND ${users.emailConfirmedAt} IS NOT NULL`)
    .limit(1);
  return rows.length > 0;
}

/**
 * The address is now `userId`'s, confirmed: accounts that only typed it (unconfirmed) lose it, so it
 * reaches, and signs in, one account.
 */
export async function releaseUnconfirmed(db: Db, userId: number, email: string): Promise<void> {
  await db
    .update(users)
    .set({ email: '' })
    .where(sql`lower(${users.email}) = lower(${email}) AND ${users.email} <> '' AND ${users.emailConfirmedAt} IS NULL AND ${users.id} <> ${userId}`);
}

/** A new password (validated, hashed); every browser session of the user ends, as with a new key. */
export async function setPassword(db: Db, userId: number, password: string): Promise<void> {
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) throw firstIssue('password', parsed);
  const passwordHash = await hashPassword(parsed.data);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  });
}

/** Nickname, bio and website, as shown on the profile page and in the user record. */
export async function updateProfile(db: Db, userId: number, input: Record<keyof Profile, unknown>): Promise<Profile> {
  const parsed = profileSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(String(issue.path[0] ?? 'body'), issue.message);
  }
  await db.update(users).set(parsed.data).where(eq(users.id, userId));
  return parsed.data;
}

/** A new key for the user; the old one stops working, and every browser session of theirs ends
 * (a session signed in with a leaked key must not outlive the rotation meant to cut it off). */
export async function rotateApiKey(db: Db, userId: number): Promise<string> {
  const apiKey = generateApiKey();
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ apiKeyHash: hashApiKey(apiKey), apiKeyGivenAt: sql`now()` })
      .where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  });
  return apiKey;
}

/** The person's first key, when none was ever given to them (nothing anyone holds stops working, and
 * no session ends); null when one was (then only rotateApiKey, after they confirmed, makes another). */
export async function giveFirstApiKey(db: Db, userId: number): Promise<string | null> {
  const apiKey = generateApiKey();
  const given = await db
    .update(users)
    .set({ apiKeyHash: hashApiKey(apiKey), apiKeyGivenAt: sql`now()` })
    .where(sql`${users.id} = ${userId} AND ${users.apiKeyGivenAt} IS NULL`)
    .returning({ id: users.id });
  return given.length ? apiKey : null;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's date_joined form. */
export function formatDateJoined(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Spec 2.3. The private fields are filled only for the user themself (`/v2/users/current`). */
export function userRecord(origin: string, user: User, self: boolean) {
  return {
    username: user.username,
    ...userUrls(origin, user.username),
    bio: user.bio,
    nickname: user.nickname,
    website: user.website,
    date_joined: formatDateJoined(user.dateJoined),
    stream_tokens: self ? [] : null,
    feature_set_id: null,
    csrf_token: null,
    map_access_tokens: self ? [] : null,
    has_password: self ? user.passwordHash !== null : null,
    email: self ? user.email : null,
    is_active: self ? user.isActive : null,
    readonly: self ? false : null,
    is_dash_creator: self ? false : null,
    dash_created_count: self ? 0 : null,
    is_chart_creator: self ? true : null,
    charts_created_count: null,
  };
}

/** GET /v2/users/current */
export async function getCurrentUser(db: Db, viewer: { id: number }, origin: string) {
  const [user] = await db.select().from(users).where(eq(users.id, viewer.id));
  return userRecord(origin, user, true);
}
