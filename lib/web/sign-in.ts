// Browser sign-in and sign-out: the rules around a session (throttling, where to go back to, the
// cookie's flags, same-site sign-out), for the sign-in action and the /signout route.
import 'server-only';
import { getDb } from '@/db/client';
import { fromOrigin, verifyApiKey } from '@/lib/core/auth';
import { originFrom } from '@/lib/core/origin';
import { countAddressWrite, exceeded } from '@/lib/core/rate-limit';
import { createSession, deleteSession, SESSION_COOKIE, SESSION_DAYS, sessionToken } from '@/lib/core/sessions';

export { SESSION_COOKIE };

export type SignInResult =
  | { error: string }
  | { token: string; cookie: { httpOnly: true; sameSite: 'lax'; secure: boolean; path: '/'; maxAge: number }; next: string };

/** Checks a username and API key from the sign-in form; a new session when they match. */
export async function signInWithKey(headers: Headers, username: string, apiKey: string, next: unknown): Promise<SignInResult> {
  if (!username || !apiKey) return { error: 'Enter your username and API key.' };
  const db = await getDb();
  // Each attempt counts against the address's write allowance: API keys cannot be guessed here at speed.
  const allowance = await countAddressWrite(db, headers);
  if (exceeded(allowance)) return { error: `Too many attempts from your address; try again in ${allowance.reset} seconds.` };
  const user = await verifyApiKey(db, username, apiKey);
  if (!user) return { error: 'That username and API key do not match.' };
  return {
    token: await createSession(db, user.id),
    // Secure whenever the site is served over https (directly, or behind a proxy that says so).
    cookie: { httpOnly: true, sameSite: 'lax', secure: originFrom(headers, new URL('http://localhost')).startsWith('https:'), path: '/', maxAge: SESSION_DAYS * 86400 },
    next: safeNext(next) ?? `/~${user.username}/`,
  };
}

const HERE = 'http://here.invalid';

/**
 * Only a path on this site is a place to go back to (no open redirect). The value is normalized the
 * way a browser reads it (tabs and line breaks dropped, backslashes as slashes) before it is checked,
 * and the normalized form is what the redirect uses.
 */
function safeNext(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  try {
    const url = new URL(value, HERE);
    return url.origin === HERE ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

/**
 * Ends the browser session of a sign-out request. Only from our own pages (Origin, else Referer),
 * so another site cannot sign a visitor out: false when it came from elsewhere.
 */
export async function signOut(req: Request): Promise<boolean> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) return false;
  const token = sessionToken(req.headers.get('cookie'));
  if (token) await deleteSession(await getDb(), token);
  return true;
}
