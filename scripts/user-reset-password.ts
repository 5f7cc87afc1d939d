// npm run user:reset-password -- <username> [--link]  — for someone who forgot their password: a new
// random password, printed once, every browser session of theirs ended (the API key stays); or, with
// --link, a one-time link on PUBLIC_URL where they choose one themselves (as "Forgot password?" mails).
import { randomBytes } from 'node:crypto';
import { issuePasswordReset, RESET_MINUTES } from '@/lib/core/accounts/password-resets';
import { getUserByUsername, setPassword } from '@/lib/core/accounts/users';
import { CommandError, runCommand } from './cli';
import { publicUrl } from './public-url';

const usage = 'npm run user:reset-password -- <username> [--link (needs PUBLIC_URL)]';
await runCommand(usage, { link: { type: 'boolean' } }, async (db, { values, positionals }) => {
  if (positionals.length !== 1) throw new CommandError(`Usage: ${usage}`);
  const base = values.link ? publicUrl(usage) : null;
  const user = await getUserByUsername(db, positionals[0]);
  if (!user) throw new CommandError(`No user named '${positionals[0]}'.`);
  if (base) {
    console.log(`Password reset link for ${user.username}, usable once within ${RESET_MINUTES} minutes:`);
    console.log(`${base}/reset-password?token=${await issuePasswordReset(db, user.id)}`);
    return;
  }
  // 120 random bits, URL-safe so it survives copying from a terminal into a mail or chat.
  const password = randomBytes(15).toString('base64url');
  await setPassword(db, user.id, password);
  console.log(`New password for ${user.username} (shown only now; they can change it on /settings): ${password}`);
});
