// A person signing in on the web: a username or email address and a secret that is either their
// password or their API key, with failures throttled in Postgres (every app process counts together,
// by the database's clock unless the config hands in another).
// Answers take as long whether or not the account exists or has a password: the password hash and
// the key comparison are always both done.
import 'server-only';
import type { Db } from '@/db/client';
import { apiKeyMatches } from './auth';
import { verifyPassword } from './passwords';
import {
  claimPairAttempt,
  countLimited,
  exceeded,
  forgetPairFailures,
  isKnownAddress,
  refundWrite,
  rememberKnownAddress,
  signInKeys,
  signInLimitConfig,
  unclaimPairAttempt,
} from './rate-limit';
import { getUserByLogin, type User } from './users';

export type SignInCheck = { user: User } | { wrong: true } | { retryAfter: number };

/**
 * Checks a sign-in. Three counters, each counted before anything is checked (so simultaneous guesses
 * cannot slip past them) and given back when it succeeds, so that what stays counted are failures:
 * - the pair of this address and this account: past a few failures, each next attempt waits (1 s,
 *   then twice as long each time), so a person who mistypes carries on and one guesser slows down,
 *   while nobody else's failures make this address wait;
 * - this address, on any accounts: past its limit, it waits for the window's end;
 * - this account, from every address: past its ceiling, which only guessers on many addresses reach,
 *   it waits for the window's end, except from addresses the account signed in from lately.
 * Refused: `retryAfter` seconds, and nothing is checked.
 */
export async function checkSignIn(db: Db, headers: Headers, login: string, secret: string, config = signInLimitConfig()): Promise<SignInCheck> {
  const user = await getUserByLogin(db, login);
  const keys = signInKeys(headers, user?.id ?? login.slice(0, 254), config);
  const paired = config.freeFailures > 0;
  if (paired) {
    const wait = await claimPairAttempt(db, keys.pair, config);
    if (wait) return { retryAfter: wait };
  }
  const [byAddress, byAccount] = await Promise.all([
    countLimited(db, keys.address, config.perAddress, config.windowSeconds, config.clock),
    countLimited(db, keys.account, config.perAccount, config.windowSeconds, config.clock),
  ]);
  const over = [byAddress, exceeded(byAccount) && !(await isKnownAddress(db, keys.known, config.clock)) ? byAccount : null].filter(exceeded);
  if (over.length) {
    if (paired) await unclaimPairAttempt(db, keys.pair);
    return { retryAfter: Math.max(...over.map((s) => s.reset)) };
  }
  const passwordOk = await verifyPassword(user?.passwordHash, secret);
  const keyOk = apiKeyMatches(user, secret);
  if (!user?.isActive || !(passwordOk || keyOk)) return { wrong: true };
  await Promise.all([
    byAddress && refundWrite(db, keys.address, config.windowSeconds, config.clock),
    byAccount && refundWrite(db, keys.account, config.windowSeconds, config.clock),
    paired && forgetPairFailures(db, keys.pair),
    rememberKnownAddress(db, keys.known, config.clock),
  ]);
  return { user };
}
