// Who is asking: HTTP Basic `username:api_key` in Authorization, or in Plotly-Authorization when the
// client runs behind a proxy (then Authorization carries the proxy's own credentials); else a
// browser's session cookie.
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '@/db/client';
import { badApiKey } from './errors';
import { sessionToken, sessionViewer } from './sessions';
import { getUserByUsername, hashApiKey, type User } from './users';

export interface Viewer {
  id: number;
  username: string;
}

/** The user with this name and API key, or null (compared in constant time). */
export async function verifyApiKey(db: Db, username: string, key: string): Promise<User | null> {
  const user = username && username.length <= 50 ? await getUserByUsername(db, username) : undefined;
  const given = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(user?.apiKeyHash ?? '0'.repeat(64), 'hex');
  return user && user.isActive && timingSafeEqual(given, stored) ? user : null;
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
  const header = req.headers.get('plotly-authorization') ?? req.headers.get('authorization');
  if (!header) return cookieViewer(db, req);
  const match = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(header);
  if (!match) throw badApiKey();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  const key = colon < 0 ? '' : decoded.slice(colon + 1);
  if (!username && !key) return null;
  const user = await verifyApiKey(db, username, key);
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
