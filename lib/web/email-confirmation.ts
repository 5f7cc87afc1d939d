// Confirming an address (lib/core/accounts/email-confirmations.ts) on the web: the link's page (/confirm-email, which only asks: a mail
// scanner opening the link confirms nothing) and its POST (/confirm-email/submit).
import 'server-only';
import { fromOrigin } from '@/lib/core/accounts/auth';
import { getDb } from '@/lib/core/database';
import { confirmEmail, EmailConfirmationClosed, EmailTaken } from '@/lib/core/accounts/email-confirmations';
import { sessionToken, sessionViewer } from '@/lib/core/accounts/sessions';
import { mailConfirmationAfter } from './confirmation-mail';
import { originFrom } from '@/lib/http/request/origin';
import { signInFirst } from '@/lib/shared/urls';
import { field, foreign, formOf, html, seeOther } from './sign-in';

export const confirmationClosedPage = () =>
  html(
    410,
    'This link no longer works',
    '<p>The link has expired or was already used. Sign in and ask for a new one on your settings page.</p><p><a href="/settings">Settings</a> · <a href="/signin">Sign in</a></p>',
  );

/**
 * POST /confirm-email/submit: a link's token. Confirmed: 303 to /confirm-email?done=1. A used, expired
 * or unknown link: 410; the address confirmed by another account first: 409. Only from this site's forms.
 */
export async function confirmEmailRequest(req: Request): Promise<Response> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) return foreign();
  const form = (await formOf(req)) ?? new FormData();
  try {
    await confirmEmail(await getDb(), field(form, 'token'));
  } catch (e) {
    if (e instanceof EmailConfirmationClosed) return confirmationClosedPage();
    if (e instanceof EmailTaken)
      return html(
        409,
        'Another account has this address',
        '<p>Another account confirmed this address first. Nothing changed.</p><p><a href="/signin">Sign in</a></p>',
      );
    throw e;
  }
  return seeOther('/confirm-email?done=1');
}

/** POST /confirm-email/resend (signed in, from /settings): a new link to the account's unconfirmed address; 303 back to /settings. */
export async function resendConfirmationRequest(req: Request): Promise<Response> {
  if (!fromOrigin(req.headers, originFrom(req.headers, new URL(req.url)))) return foreign();
  const db = await getDb();
  const token = sessionToken(req.headers.get('cookie'));
  const user = token ? await sessionViewer(db, token) : null;
  if (!user) return seeOther(signInFirst('/settings'));
  mailConfirmationAfter(db, user.id);
  return seeOther('/settings?confirm=sent');
}
