// Users: accounts, API keys (stored only as sha256 hashes) and the spec 2.3 user summary.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { runPrepared, type Db } from '@/db/client';
import { sessions, users } from '@/db/schema';
import { invalid } from './errors';
import { USERNAME, userUrls } from './records';

export const usernameSchema = z.string().regex(USERNAME, 'letters, digits, "_", "." and "-", at most 50, starting with a letter or digit');

export type User = typeof users.$inferSelect;

/** 144 random bits, URL- and header-safe. */
export function generateApiKey(): string {
  return randomBytes(18).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function getUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const [user] = await runPrepared(db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1));
  return user;
}

export async function createUser(
  db: Db,
  input: { username: string; apiKey?: string; email?: string; nickname?: string; bio?: string; website?: string },
): Promise<{ user: User; apiKey: string }> {
  const username = usernameSchema.safeParse(input.username);
  if (!username.success) throw invalid('username', username.error.issues[0].message);
  const apiKey = input.apiKey ?? generateApiKey();
  if (apiKey.length < 16) throw invalid('api_key', 'must be at least 16 characters');
  const [user] = await db
    .insert(users)
    .values({
      username: username.data,
      apiKeyHash: hashApiKey(apiKey),
      email: input.email ?? '',
      nickname: input.nickname ?? '',
      bio: input.bio ?? '',
      website: input.website ?? '',
    })
    .onConflictDoNothing()
    .returning();
  if (!user) throw invalid('username', `a user named '${username.data}' already exists`);
  return { user, apiKey };
}

/** A new key for the user; the old one stops working, and every browser session of theirs ends
 * (a session signed in with a leaked key must not outlive the rotation meant to cut it off). */
export async function rotateApiKey(db: Db, userId: number): Promise<string> {
  const apiKey = generateApiKey();
  await db.transaction(async (tx) => {
    await tx.update(users).set({ apiKeyHash: hashApiKey(apiKey) }).where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  });
  return apiKey;
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
    has_password: self ? false : null,
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
