// npm run user:invite -- <email>... [--days N]  — prints a one-time sign-up link for each address,
// on PUBLIC_URL (the address people reach the site at: the command has no request to take it from).
import { createInvitation, INVITATION_DAYS } from '@/lib/core/invitations';
import { runCommand } from './cli';

const usage = `PUBLIC_URL=https://plots.example.org npm run user:invite -- <email>... [--days N (default ${INVITATION_DAYS})]`;
await runCommand(usage, { days: { type: 'string' } }, async (db, { values, positionals }) => {
  if (positionals.length === 0) throw new Error(`Usage: ${usage}`);
  const days = values.days === undefined ? INVITATION_DAYS : Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new Error('--days must be a whole number from 1 to 365');
  const base = publicUrl();
  for (const email of positionals) {
    const { token, expiresAt } = await createInvitation(db, email, days);
    console.log(`Invitation for ${email}, usable once until ${expiresAt.toISOString()}:`);
    console.log(`${base}/signup?invite=${token}`);
  }
});

/** PUBLIC_URL as the app reads it (lib/http/request/origin.ts); checked before any invitation is made, so a refusal leaves no unusable ones. */
function publicUrl(): string {
  const configured = process.env.PUBLIC_URL;
  const need = `PUBLIC_URL is needed to print the links: set it to the address people open this site at.\nUsage: ${usage}`;
  if (!configured) throw new Error(need);
  try {
    const url = new URL(configured);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return configured.replace(/\/+$/, '');
  } catch {
    throw new Error(`PUBLIC_URL (${configured}) is not an http:// or https:// address. ${need}`);
  }
}
