// Who is asking: HTTP Basic `username:api_key` in Authorization, or in Plotly-Authorization when the
// client runs behind a proxy (then Authorization carries the proxy's own credentials); else a
// browser's session cookie.
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { badApiKey } from '../errors';
import type { Viewer } from '../permissions';
import { sessionToken, sessionViewer } from './sessions';
import { getUserByUsername, hashApiKey, type User } from './users';

export type { Viewer } from '../permissions';

/** Who the API key credentials name: a username, and the key. */
export interface ApiKeyCredentials {
  username: string;
  key: string;
}

/** Whether a name given with an API key can be an account's (usernames are 1 to 50 characters): no other is looked up. */
const accountName = (username: string) => username !== '' && username.length <= 50;

/** The user with this name and API key, or null (compared in constant time). */
export async function verifyApiKey(db: Db, credentials: ApiKeyCredentials): Promise<User | null> {
  return keyHolder(credentials, accountName(credentials.username) ? await getUserByUsername(db, credentials.username) : undefined);
}

/** `found` (the user the credentials' name looked up) when it is active and the key is its API key, else null. */
export function keyHolder(credentials: ApiKeyCredentials, found: User | undefined): User | null {
  const user = accountName(credentials.username) ? found : undefined;
  return apiKeyMatches(user, credentials.key) ? user! : null;
}

/** Whether `key` is the API key of this active user (constant time; the same comparison when there is no user). */
export function apiKeyMatches(user: User | undefined, key: string): boolean {
  const given = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(user?.apiKeyHash ?? '0'.repeat(64), 'hex');
  return timingSafeEqual(given, stored) && !!user?.isActive;
}

/** apiKeyMatches in SQL, over a users row `user` and the key's hash (hashApiKey): for statements that decide in the database. */
export const apiKeyMatchesSql = (user: SQL, keyHash: SQL | Placeholder) => sql`${user}.is_active AND ${user}.api_key_hash = ${keyHash}::text`;

/**
 * The HTTP Basic credentials a request names: null when it has no Authorization header (its session
 * cookie may name the caller), 'anonymous' for the empty ones the official client sends when none
 * are configured, 'malformed' for a header that is no Basic credentials (a 401).
 */
export function basicCredentials(headers: Headers): ApiKeyCredentials | 'anonymous' | 'malformed' | null {
  const header = headers.get('plotly-authorization') ?? headers.get('authorization');
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(header);
  if (!match) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  const key = colon < 0 ? '' : decoded.slice(colon + 1);
  return !username && !key ? 'anonymous' : { username, key };
}

/** What identifies a caller: the request's method and headers, and the site's public origin (a
 * session cookie counts for a write only when the request comes from our own pages). */
export interface CallerRequest {
  method: string;
  headers: Headers;
  origin: string;
}

/**
 * The caller: HTTP Basic credentials (null for the empty ones the official client sends when none
 * are configured; 401 when wrong), else the session cookie, else null. Called once per request, by
 * the API wrapper or the page context.
 */
export async function authenticate(db: Db, req: CallerRequest): Promise<Viewer | null> {
  const credentials = basicCredentials(req.headers);
  if (credentials === null) return cookieViewer(db, req);
  if (credentials === 'malformed') throw badApiKey();
  if (credentials === 'anonymous') return null;
  return viewerOf(await verifyApiKey(db, credentials));
}

/** The Viewer of a verified key's user; 401 without one. */
export function viewerOf(user: User | null): Viewer {
  if (!user) throw badApiKey();
  return { id: user.id, username: user.username };
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A session cookie identifies the caller for reads, and for writes only when the request comes
 * from our own pages (Origin, else Referer, is ours): a cross-site form or script acts anonymously.
 */
async function cookieViewer(db: Db, req: CallerRequest): Promise<Viewer | null> {
  const token = sessionToken(req.headers.get('cookie'));
  if (!token) return null;
  if (!SAFE.has(req.method) && !fromOrigin(req.headers, req.origin)) return null;
  return sessionViewer(db, token);
}

/** Whether a request comes from a page of `origin`: its Origin header, else its Referer's origin. */
export function fromOrigin(headers: Headers, origin: string): boolean {
  const from = headers.get('origin') ?? refererOrigin(headers.get('referer'));
  return from !== null && from === origin;
}

/** The origin of a Referer header, or null when there is none or it is not a URL. */
function refererOrigin(referer: string | null): string | null {
  try {
    return referer ? new URL(referer).origin : null;
  } catch {
    return null;
  }
}
