// The mail that confirms an address (lib/core/accounts/email-confirmations.ts), sent after the answer: after an
// open sign-up with mail configured, and again when asked from /settings.
import 'server-only';
import { after } from 'next/server';
import type { Db } from '@/db/client';
import { CONFIRM_HOURS, issueEmailConfirmation } from '@/lib/core/accounts/email-confirmations';
import { mailSettings, sendMail } from '@/lib/core/accounts/mail';

/** After the answer is sent: a confirmation link to the account's unconfirmed address (a failed delivery is logged). */
export function mailConfirmationAfter(db: Db, userId: number): void {
  const settings = mailSettings();
  if (!settings) return;
  after(async () => {
    try {
      const link = await issueEmailConfirmation(db, userId);
      if (!link) return;
      await sendMail(settings, {
        to: link.email,
        subject: `Confirm your address at ${new URL(settings.origin).host}`,
        text: [
          `Someone, hopefully you, made the account ${link.username} at ${settings.origin} with this address.`,
          '',
          `To confirm it is yours, open this link within ${CONFIRM_HOURS} hours and press "Confirm":`,
          '',
          `${settings.origin}/confirm-email?token=${link.token}`,
          '',
          'If it was not you, ignore this mail: the account does not get your address, and nothing is sent to it again unless asked.',
        ].join('\n'),
      });
    } catch (error) {
      console.error('Confirmation mail not sent:', (error as Error).message);
    }
  });
}
