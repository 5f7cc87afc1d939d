'use server';
// Sign-in as a server action: it works as a plain form post (no JavaScript needed), and Next checks
// that it comes from our own origin.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { SignInState } from '@/components/sign-in-form';
import { SESSION_COOKIE, signInWithKey } from '@/lib/web/sign-in';

export async function signIn(_state: SignInState, form: FormData): Promise<SignInState> {
  const username = String(form.get('username') ?? '').trim();
  const apiKey = String(form.get('api_key') ?? '').trim();
  const result = await signInWithKey(await headers(), username, apiKey, form.get('next'));
  if ('error' in result) return { error: result.error, username };
  (await cookies()).set(SESSION_COOKIE, result.token, result.cookie);
  redirect(result.next);
}
