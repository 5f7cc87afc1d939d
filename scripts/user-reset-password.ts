// npm run user:reset-password -- <username>  — gives the user a new random password, printed once;
// every browser session of theirs ends. The API key is left as it is.
import { randomBytes } from 'node:crypto';
import { getUserByUsername, setPassword } from '@/lib/core/users';
import { runCommand } from './cli';

const usage = 'npm run user:reset-password -- <username>';
await runCommand(usage, {}, async (db, { positionals }) => {
  if (positionals.length !== 1) throw new Error(`Usage: ${usage}`);
  const user = await getUserByUsername(db, positionals[0]);
  if (!user) throw new Error(`No user named '${positionals[0]}'.`);
  // 120 random bits, URL-safe so it survives copying from a terminal into a mail or chat.
  const password = randomBytes(15).toString('base64url');
  await setPassword(db, user.id, password);
  console.log(`New password for ${user.username} (shown only now; they can change it on /settings): ${password}`);
});
