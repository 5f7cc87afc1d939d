// npm run user:rotate-key -- <username>  — replaces the user's API key and prints the new one.
import { getUserByUsername, rotateApiKey } from '@/lib/core/accounts/users';
import { CommandError, runCommand } from './cli';

const usage = 'npm run user:rotate-key -- <username>';
await runCommand(usage, {}, async (db, { positionals }) => {
  if (positionals.length !== 1) throw new CommandError(`Usage: ${usage}`);
  const user = await getUserByUsername(db, positionals[0]);
  if (!user) throw new CommandError(`No user named '${positionals[0]}'.`);
  console.log(`New API key for ${user.username}: ${await rotateApiKey(db, user.id)}`);
});
