// npm run user:invite -- <email>... [--days N]  — prints a one-time sign-up link for each address,
// on PUBLIC_URL (scripts/public-url.ts).
import { createInvitation, INVITATION_DAYS } from '@/lib/core/accounts/invitations';
import { CommandError, runCommand } from './cli';
import { publicUrl } from './public-url';

const usage = `PUBLIC_URL=https://plots.example.org npm run user:invite -- <email>... [--days N (default ${INVITATION_DAYS})]`;
await runCommand(usage, { days: { type: 'string' } }, async (db, { values, positionals }) => {
  if (positionals.length === 0) throw new CommandError(`Usage: ${usage}`);
  const days = values.days === undefined ? INVITATION_DAYS : Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new CommandError('--days must be a whole number from 1 to 365');
  const base = publicUrl(usage);
  for (const email of positionals) {
    const { token, expiresAt } = await createInvitation(db, email, days);
    console.log(`Invitation for ${email}, usable once until ${expiresAt.toISOString()}:`);
    console.log(`${base}/signup?invite=${token}`);
  }
});
