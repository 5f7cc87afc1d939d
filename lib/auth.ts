// Who is asking: HTTP Basic `username:api_key` in Authorization, or in Plotly-Authorization when the
// client runs behind a proxy (then Authorization carries the proxy's own credentials).
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '@/db/client';
import { badApiKey } from './errors';
import { getUserByUsername, hashApiKey } from './users';

export interface Viewer {
  id: number;
  username: string;
}

export async function authenticate(db: Db, req: Request): Promise<Viewer | null> {
  const header = req.headers.get('plotly-authorization') ?? req.headers.get('authorization');
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(header);
  if (!match) throw badApiKey();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  const key = colon < 0 ? '' : decoded.slice(colon + 1);
  // The official client sends empty credentials when none are configured: that is an anonymous caller.
  if (!username && !key) return null;
  const user = username && username.length <= 50 ? await getUserByUsername(db, username) : undefined;
  const given = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(user?.apiKeyHash ?? '0'.repeat(64), 'hex');
  if (!user || !user.isActive || !timingSafeEqual(given, stored)) throw badApiKey();
  return { id: user.id, username: user.username };
}
