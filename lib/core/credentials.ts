// A person signing in on the web: a username or email address and a secret that is either their
// password or their API key, with failures throttled per address and per account in Postgres (every
// app process counts together). Answers take as long whether or not the account exists or has a
// password: the password hash and the key comparison are always both done.
import 'server-only';
import type { Db } from '@/db/client';
import { apiKeyMatches } from './auth';
import { verifyPassword } from './passwords';
import { countWrite, exceeded, refundWrite, signInKeys, signInLimitConfig } from './rate-limit';
import { getUserByLogin, type User } from './users';

export type SignInCheck = { user: User } | { wrong: true } | { retryAfter: number };

/**
 * Checks a sign-in. Each attempt is counted against the address and the account before any check
 * (so simultaneous guesses cannot slip past the limit) and given back when it succeeds: what is
 * left counted are the failures. Past either limit: `retryAfter` seconds, and nothing is checked.
 */
export async function checkSignIn(db: Db, headers: Headers, login: string, secret: string, config = signInLimitConfig()): Promise<SignInCheck> {
  const user = await getUserByLogin(db, login);
  const keys = signInKeys(headers, user?.id ?? login.slice(0, 254), config);
  const counted = [
    { key: keys.address, limit: config.perAddress },
    { key: keys.account, limit: config.perAccount },
  ].filter((c) => c.limit > 0);
  const states = await Promise.all(counted.map((c) => countWrite(db, c.key, c.limit, config.windowSeconds)));
  const over = states.filter(exceeded);
  if (over.length) return { retryAfter: Math.max(...over.map((s) => s.reset)) };
  const passwordOk = await verifyPassword(user?.passwordHash, secret);
  const keyOk = apiKeyMatches(user, secret);
  if (!user || !user.isActive || !(passwordOk || keyOk)) return { wrong: true };
  await Promise.all(counted.map((c) => refundWrite(db, c.key, config.windowSeconds)));
  return { user };
}
