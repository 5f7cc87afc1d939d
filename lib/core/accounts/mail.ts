// Outgoing mail (the "Forgot password?" links), through the operator's SMTP server (`SMTP_URL`) with
// nodemailer. Off unless configured; links in mail are built only on PUBLIC_URL, never on a request's
// Host header, which whoever asks for the mail chooses.
import 'server-only';
import { createTransport } from 'nodemailer';

export interface MailSettings {
  /** e.g. smtp://user:pass@host:587 or smtps://…:465 (nodemailer's connection URL). */
  smtpUrl: string;
  /** The site's public origin, for links. */
  origin: string;
  from: string;
}

/**
 * The mail settings, or null when mail is off: `SMTP_URL` unset, or set without `PUBLIC_URL`, or
 * not an smtp:// or smtps:// URL (`problem` says which, for the start-up log).
 */
export function mailSettings(): MailSettings | null {
  return readMailSettings().settings;
}

export function readMailSettings(env = process.env): { settings: MailSettings | null; problem?: string } {
  const smtpUrl = env.SMTP_URL;
  if (!smtpUrl) return { settings: null };
  let smtp: URL;
  try {
    smtp = new URL(smtpUrl);
  } catch {
    return { settings: null, problem: 'SMTP_URL is not a URL (smtp://user:pass@host:port)' };
  }
  if (smtp.protocol !== 'smtp:' && smtp.protocol !== 'smtps:') return { settings: null, problem: 'SMTP_URL must start with smtp:// or smtps://' };
  const origin = env.PUBLIC_URL?.replace(/\/+$/, '');
  if (!origin) return { settings: null, problem: 'SMTP_URL needs PUBLIC_URL too (the links in mail are built on it)' };
  return { settings: { smtpUrl, origin, from: env.MAIL_FROM || `Plot Files <no-reply@${new URL(origin).hostname}>` } };
}

/** Bounds on one delivery, so a stuck mail server holds nothing for long. */
const TIMEOUT_MS = 10_000;

/** Sends one plain-text mail; rejects when the server refuses it or does not answer in time. */
export async function sendMail(settings: MailSettings, message: { to: string; subject: string; text: string }): Promise<void> {
  const transport = createTransport({
    url: settings.smtpUrl,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    dnsTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: settings.from, ...message });
  } finally {
    transport.close();
  }
}
