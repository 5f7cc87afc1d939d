'use server';
// Sign-in as a server action: it works as a plain form post (no JavaScript needed), and Next checks
// that it comes from our own origin.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { verifyApiKey } from '@/lib/core/auth';
import { originFrom } from '@/lib/core/origin';
import { countAddressWrite, exceeded } from '@/lib/core/rate-limit';
import { createSession, SESSION_COOKIE, SESSION_DAYS } from '@/lib/core/sessions';

export interface SignInState {
  error?: string;
  username?: string;
}

const HERE = 'http://here.invalid';

/**
 * Only a path on this site is a place to go back to (no open redirect). The value is normalized the
 * way a browser reads it (tabs and line breaks dropped, backslashes as slashes) before it is checked,
 * and the normalized form is what the redirect uses.
 */
function safeNext(value: FormDataEntryValue | null): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  try {
    const url = new URL(value, HERE);
    return url.origin === HERE ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

export async function signIn(_state: SignInState, form: FormData): Promise<SignInState> {
  const username = String(form.get('username') ?? '').trim();
  const apiKey = String(form.get('api_key') ?? '').trim();
  if (!username || !apiKey) return { error: 'Enter your username and API key.', username };
  const db = await getDb();
  // Each attempt counts against the address's write allowance: API keys cannot be guessed here at speed.
  const allowance = await countAddressWrite(db, await headers());
  if (exceeded(allowance)) return { error: `Too many attempts from your address; try again in ${allowance.reset} seconds.`, username };
  const user = await verifyApiKey(db, username, apiKey);
  if (!user) return { error: 'That username and API key do not match.', username };
  const token = await createSession(db, user.id);
  const jar = await cookies();
  jar.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    // Secure whenever the site is served over https (directly, or behind a proxy that says so).
    secure: originFrom(await headers(), new URL('http://localhost')).startsWith('https:'),
    path: '/',
    maxAge: SESSION_DAYS * 86400,
  });
  redirect(safeNext(form.get('next')) ?? `/~${user.username}/`);
}
