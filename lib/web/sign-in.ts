// Browser sign-in, sign-up and sign-out: the rules around a session (throttling, where to go back to,
// the cookie's flags, same-site posts only), for the /signin/submit, /signup/submit and /signout routes
// and the settings actions that start a fresh session. The forms post to route handlers, not server
// actions, so that a throttled attempt can answer 429 with Retry-After.
import 'server-only';
import { cookies } from 'next/headers';
import { after } from 'next/server';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { getDb } from '@/lib/core/database';
import { checkSignIn } from '@/lib/core/accounts/credentials';
import { ApiError } from '@/lib/core/errors';
import { acceptInvitation, InvitationClosed } from '@/lib/core/accounts/invitations';
import { originFrom } from '@/lib/http/request/origin';
import { mailSettings, sendMail } from '@/lib/core/accounts/mail';
import {
  countResetRequest,
  createPasswordReset,
  openPasswordReset,
  PasswordResetClosed,
  RESET_MINUTES,
  resetPassword,
} from '@/lib/core/accounts/password-resets';
import { passwordSchema } from '@/lib/core/accounts/passwords';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/lib/shared/limits';
import { fromOrigin } from '@/lib/core/accounts/auth';
import { countSignUp, exceeded } from '@/lib/core/accounts/rate-limit';
import { createSession, deleteSession, sessionCookie, sessionSetCookie, sessionToken } from '@/lib/core/accounts/sessions';
import { profilePath, signInPath } from '@/lib/shared/urls';
import { createUser, emailSchema, usernameSchema } from '@/lib/core/accounts/users';
import { mailConfirmationAfter } from './confirmation-mail';

/** `SIGNUP=open`: anyone may make an account at /signup; otherwise only with an invitation link. */
export const signUpOpen = () => process.env.SIGNUP === 'open';

/** What /signin shows for the error code a failed attempt comes back with (never text from the request). */
export const SIGN_IN_ERRORS: Record<string, string> = {
  missing: 'Enter your username (or email address) and your password or API key.',
  wrong: 'That username or email and password or API key do not match.',
  throttled: 'Too many attempts: the last one was not checked. Once the wait is over, try again.',
};

/** What /signup shows for each error code. */
export const SIGN_UP_ERRORS: Record<string, string> = {
  username: 'Choose a username of letters, digits, "_", "." and "-", at most 50 characters, starting with a letter or digit.',
  'username-taken': 'That username is taken; choose another.',
  email: 'Enter a valid email address.',
  'email-taken': 'An account with that email address already exists; sign in instead.',
  password: `Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`,
  mismatch: 'The two passwords differ.',
};
/** The field each /signup error is shown at. */
export const SIGN_UP_ERROR_FIELDS: Record<string, 'username' | 'email' | 'password' | 'password2'> = {
  username: 'username',
  'username-taken': 'username',
  email: 'email',
  'email-taken': 'email',
  password: 'password',
  mismatch: 'password2',
};

/**
 * What a refused sign-up had typed (never its passwords), for the form to show again: in a cookie
 * of its own, only for /signup and briefly, since an address does not belong in a URL (history, logs).
 */
const SIGN_UP_DRAFT_COOKIE = 'pf_signup';
const draftSchema = z.object({ username: z.string().max(254).catch(''), email: z.string().max(254).catch('') });
export type SignUpDraft = z.infer<typeof draftSchema>;

/** A refused form's draft as a cookie for its own page `path` alone, for ten minutes (null clears it). */
function draftCookie(name: string, path: string, draft: object | null, origin: string): string {
  const value = draft ? Buffer.from(JSON.stringify(draft)).toString('base64url') : '';
  return [`${name}=${value}`, `Path=${path}`, `Max-Age=${draft ? 600 : 0}`, 'HttpOnly', 'SameSite=Lax', origin.startsWith('https:') && 'Secure']
    .filter(Boolean)
    .join('; ');
}

/** The draft cookie `name` read back under `schema`, or null. */
async function readDraft<T>(name: string, schema: z.ZodType<T>): Promise<T | null> {
  const raw = (await cookies()).get(name)?.value ?? '';
  try {
    return schema.parse(JSON.parse(Buffer.from(raw.slice(0, 2048), 'base64url').toString('utf8')));
  } catch {
    return null;
  }
}

const signUpDraftCookie = (draft: SignUpDraft | null, origin: string) => draftCookie(SIGN_UP_DRAFT_COOKIE, '/signup', draft, origin);

/** For the /signup page: what the last refused attempt typed, or empty fields. */
export async function signUpDraft(): Promise<SignUpDraft> {
  return (await readDraft(SIGN_UP_DRAFT_COOKIE, draftSchema)) ?? { username: '', email: '' };
}

/** The username or address a refused sign-in typed (never its secret), kept for /signin as sign-up's draft is. */
const SIGN_IN_DRAFT_COOKIE = 'pf_signin';
const signInDraftSchema = z.object({ login: z.string().max(254).catch('') });

/** For the /signin page after a refusal: the username or address typed. */
export async function signInDraft(): Promise<string> {
  return (await readDraft(SIGN_IN_DRAFT_COOKIE, signInDraftSchema))?.login ?? '';
}

/** "Forgot password?" is offered when mail is configured (SMTP_URL with PUBLIC_URL). */
export const passwordResetOpen = () => mailSettings() !== null;

/** What /reset-password shows for each error code, and the field it is shown at. */
export const RESET_ERRORS: Record<string, { field: 'password' | 'password2'; message: string }> = {
  password: { field: 'password', message: `Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.` },
  mismatch: { field: 'password2', message: 'The two passwords differ.' },
};

const HERE = 'http://here.invalid';
/** The longest `next` kept: a place on this site to go back to, not a payload. */
const NEXT_MAX = 2048;

/** `text` with its percent escapes decoded, again and again until none is left (a server on the way may decode more than once). */
function fullyDecoded(text: string): string {
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return text;
}

/** `value` as a browser reads it in a Location on this site, when it stays on this site: a path that does not begin with two slashes of either kind. */
function onThisSite(value: string): URL | null {
  try {
    const url = new URL(value, HERE);
    return url.origin === HERE && !/^[/\\]{2}/.test(url.pathname) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Only a path on this site is a place to go back to (no open redirect). The value is normalized the
 * way a browser reads it (tabs and line breaks dropped, backslashes as slashes, dot segments resolved,
 * `%2e` among them) and refused when the result begins with `//` or `/\`, or would once its percent
 * escapes were decoded; the normalized form is what the redirect uses.
 */
export function safeNext(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > NEXT_MAX) return null;
  const url = onThisSite(value);
  return url && onThisSite(fullyDecoded(url.pathname)) ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** From a server action: a new session for the signed-in person (after the change that ended all of theirs). */
export async function renewSession(db: Db, userId: number, headers: Headers): Promise<void> {
  (await cookies()).set(sessionCookie(await createSession(db, userId), originFrom(headers, new URL('http://localhost'))));
}

export const seeOther = (location: string, extra: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { Location: location, ...extra } });

// These answers come from a route handler, outside the app's layout: a few rules in the site's look
// keep them from reading as a broken page.
const PAGE_STYLE =
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1b2230;background:#f5f6fa}' +
  'main{max-width:32rem;margin:10vh auto;padding:1.5rem;background:#fff;border:1px solid #dfe3ec;border-radius:12px}' +
  'h1{font-size:1.4rem;margin:0 0 .75rem}a{color:#3450c9}a:focus-visible{outline:3px solid #3450c9;outline-offset:2px}';

export const html = (status: number, title: string, body: string, extra: Record<string, string> = {}) =>
  new Response(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} · Plot Files</title><style>${PAGE_STYLE}</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`,
    { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...extra } },
  );

/**
 * When to try again, for people: the wait in the largest unit that stays readable (an operator may
 * set windows of hours or days) and the UTC time, with the date when it is a day or more away.
 */
export function retryWait(retryAfter: number, now = new Date()): string {
  const [count, unit] =
    retryAfter < 90
      ? [retryAfter, 'seconds']
      : retryAfter < 90 * 60
        ? [Math.ceil(retryAfter / 60), 'minutes']
        : retryAfter < 48 * 3600
          ? [Math.ceil(retryAfter / 3600), 'hours']
          : [Math.ceil(retryAfter / 86_400), 'days'];
  const when = new Date(now.getTime() + retryAfter * 1000).toISOString();
  const at = retryAfter < 86_400 ? when.slice(11, 16) : `${when.slice(0, 10)} ${when.slice(11, 16)}`;
  return `${count} ${count === 1 ? unit.slice(0, -1) : unit} (at ${at} UTC)`;
}

/** 429 with Retry-After and a page saying when to try again (`back` is a path with its query escaped, so only its `&` needs escaping here). */
function throttledPage(retryAfter: number, back: string): Response {
  const href = back.replaceAll('&', '&amp;');
  return html(
    429,
    'Too many attempts',
    `<p>Too many attempts from your address or on this account. Try again in ${retryWait(retryAfter)}.</p><p><a href="${href}">Back</a></p>`,
    {
      'Retry-After': String(retryAfter),
    },
  );
}

export const foreign = () =>
  html(403, 'Use the form on this site', '<p>Sign in and sign up only through the forms on this site.</p><p><a href="/signin">Sign in</a></p>');

/** The posted form, or null when the body is not one. */
export async function formOf(req: Request): Promise<FormData | null> {
  try {
    return await req.formData();
  } catch {
    return null;
  }
}

export const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/**
 * POST /signin/submit (form-encoded): a username or email address with a password or API key. Right:
 * 303 to `next` with the session cookie; wrong: 303 back to /signin with an error code; too many
 * failures: 429. Only from our own pages (login CSRF: another site cannot sign a visitor into its account).
 */
export async function signInRequest(req: Request): Promise<Response> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) return foreign();
  const form = await formOf(req);
  const next = safeNext(form?.get('next'));
  const back = (error: string) => signInPath({ error, next });
  const login = form ? field(form, 'username').trim() : '';
  const secret = form ? field(form, 'password') : '';
  const draft = { 'Set-Cookie': draftCookie(SIGN_IN_DRAFT_COOKIE, '/signin', { login: login.slice(0, 254) }, originFrom(req.headers, new URL(req.url))) };
  if (!login || !secret) return seeOther(back('missing'), draft);
  const db = await getDb();
  const check = await checkSignIn(db, req.headers, login, secret);
  if ('retryAfter' in check) return throttledPage(check.retryAfter, back('throttled'));
  if ('wrong' in check) return seeOther(back('wrong'), draft);
  const token = await createSession(db, check.user.id);
  return seeOther(next ?? profilePath(check.user.username), { 'Set-Cookie': sessionSetCookie(token, originFrom(req.headers, new URL(req.url))) });
}

/**
 * POST /signup/submit: a new account (username, email, password), with an invitation's token or
 * when sign-up is open; signed in at once, then on to /settings to make an API key. Closed sign-up
 * is a 404, a used or expired invitation a 410; a refused field comes back to /signup as an error code.
 */
export async function signUpRequest(req: Request): Promise<Response> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) return foreign();
  const form = (await formOf(req)) ?? new FormData();
  const invite = field(form, 'invite');
  if (!invite && !signUpOpen()) return html(404, 'Sign-up is closed', '<p>Accounts here are made by invitation.</p><p><a href="/signin">Sign in</a></p>');
  const again = `/signup${invite ? `?invite=${encodeURIComponent(invite)}&` : '?'}`;
  const db = await getDb();
  const allowance = await countSignUp(db, req.headers);
  if (exceeded(allowance)) return throttledPage(allowance.reset, again.slice(0, -1));

  const username = field(form, 'username').trim();
  const email = field(form, 'email').trim();
  const password = field(form, 'password');
  const problem = !usernameSchema.safeParse(username).success
    ? 'username'
    : !invite && !emailSchema.safeParse(email).success
      ? 'email'
      : !passwordSchema.safeParse(password).success
        ? 'password'
        : password !== field(form, 'password2')
          ? 'mismatch'
          : null;
  const origin = originFrom(req.headers, new URL(req.url));
  const draft = { 'Set-Cookie': signUpDraftCookie({ username: username.slice(0, 254), email: email.slice(0, 254) }, origin) };
  if (problem) return seeOther(`${again}error=${problem}`, draft);
  try {
    // An invitation's account gets the address the invitation was sent to.
    // With mail, an address typed here counts once its owner confirms it (lib/core/accounts/email-confirmations.ts).
    const confirm = !invite && mailSettings() !== null;
    const { user } = invite
      ? await acceptInvitation(db, invite, { username, password, keyGiven: false })
      : await createUser(db, { username, email, password, emailConfirmed: !confirm, keyGiven: false });
    if (confirm) mailConfirmationAfter(db, user.id);
    const token = await createSession(db, user.id);
    const headers = new Headers({ Location: '/settings?welcome=1' });
    headers.append('Set-Cookie', sessionSetCookie(token, origin));
    headers.append('Set-Cookie', signUpDraftCookie(null, origin));
    return new Response(null, { status: 303, headers });
  } catch (e) {
    if (e instanceof InvitationClosed) return invitationClosedPage();
    // Everything was checked above but uniqueness: which of the two was taken.
    if (e instanceof ApiError && e.status === 400) return seeOther(`${again}error=${e.errors[0].field === 'email' ? 'email-taken' : 'username-taken'}`, draft);
    throw e;
  }
}

export const invitationClosedPage = () =>
  html(410, 'This invitation no longer works', '<p>The link has expired or was already used. Ask for a new one.</p><p><a href="/signin">Sign in</a></p>');

/**
 * POST /signout: ends the browser session and clears its cookie, then 303 to the gallery. Only from
 * our own pages (Origin, else Referer), so another site cannot sign a visitor out: 403 from elsewhere.
 */
export async function signOutRequest(req: Request): Promise<Response> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) {
    return new Response('Sign out from the site itself.', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const token = sessionToken(req.headers.get('cookie'));
  if (token) await deleteSession(await getDb(), token);
  return seeOther('/', { 'Set-Cookie': sessionSetCookie(null, originFrom(req.headers, new URL(req.url))) });
}

/**
 * POST /forgot-password/submit: an email address. Always the same answer, 303 to
 * /forgot-password?sent=1, whether or not an account uses it; the lookup and the mail happen after
 * the answer is sent (so neither its time nor a slow mail server tells anything), and a failed
 * delivery is logged. Too many requests from one address: 429. Mail not configured: 404.
 */
export async function forgotPasswordRequest(req: Request): Promise<Response> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) return foreign();
  const settings = mailSettings();
  if (!settings) return html(404, 'Not here', '<p>This site sends no mail: ask its operator to reset your password.</p><p><a href="/signin">Sign in</a></p>');
  const form = (await formOf(req)) ?? new FormData();
  const email = field(form, 'email').trim();
  if (!emailSchema.safeParse(email).success) return seeOther('/forgot-password?error=email');
  const db = await getDb();
  const wait = await countResetRequest(db, req.headers);
  if (wait) return throttledPage(wait, '/forgot-password');
  after(async () => {
    try {
      const reset = await createPasswordReset(db, email);
      if (!reset) return;
      const link = `${settings.origin}/reset-password?token=${reset.token}`;
      await sendMail(settings, {
        to: reset.email,
        subject: `Reset your password at ${new URL(settings.origin).host}`,
        text: [
          `Someone, hopefully you, asked to reset the password of the account ${reset.username} at ${settings.origin}.`,
          '',
          `To choose a new password, open this link within ${RESET_MINUTES} minutes. It works once:`,
          '',
          link,
          '',
          'If you did not ask, ignore this mail: your password stays as it is.',
        ].join('\n'),
      });
    } catch (error) {
      console.error('Password reset mail not sent:', (error as Error).message);
    }
  });
  return seeOther('/forgot-password?sent=1');
}

export const resetClosedPage = () =>
  html(
    410,
    'This link no longer works',
    '<p>The link has expired or was already used. Ask for a new one.</p><p><a href="/forgot-password">Forgot password?</a> · <a href="/signin">Sign in</a></p>',
  );

/** Where a mailed link's form is (the page), with the error code it came back with, if any. */
export const RESET_FORM_PATH = '/reset-password/new';

/**
 * GET /reset-password?token=…: the mailed link. One that works goes on to its form (RESET_FORM_PATH,
 * with a known error code passed along); a used, expired or unknown one answers 410 here, as its
 * submit does (a page answers 200 or 404, never 410).
 */
export async function resetLinkRequest(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const token = url.searchParams.get('token') ?? '';
  if (!(await openPasswordReset(await getDb(), token))) return resetClosedPage();
  const error = url.searchParams.get('error');
  const known = error !== null && Object.hasOwn(RESET_ERRORS, error) ? `&error=${error}` : '';
  return seeOther(`${RESET_FORM_PATH}?token=${encodeURIComponent(token)}${known}`);
}

/**
 * POST /reset-password/submit: a link's token and the new password twice. Set: every session of the
 * account ends and the link is spent, 303 to /signin?reset=1; a refused password comes back to the
 * form as an error code (the link still works); a used, expired or unknown link: 410.
 */
export async function resetPasswordRequest(req: Request): Promise<Response> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) return foreign();
  const form = (await formOf(req)) ?? new FormData();
  const token = field(form, 'token');
  const password = field(form, 'password');
  const again = (error: string) => seeOther(`${RESET_FORM_PATH}?token=${encodeURIComponent(token)}&error=${error}`);
  if (!passwordSchema.safeParse(password).success) return again('password');
  if (password !== field(form, 'password2')) return again('mismatch');
  try {
    await resetPassword(await getDb(), token, password);
  } catch (e) {
    if (e instanceof PasswordResetClosed) return resetClosedPage();
    throw e;
  }
  return seeOther('/signin?reset=1');
}
