// npm run user:create -- <username> [--api-key KEY] [--email E] [--password P | --password-stdin]  — prints the API key.
import { text } from 'node:stream/consumers';
import { createUser } from '@/lib/core/accounts/users';
import { CommandError, runCommand } from './cli';

const usage = 'npm run user:create -- <username> [--api-key KEY] [--email EMAIL] [--password PASSWORD | --password-stdin]';
await runCommand(
  usage,
  { 'api-key': { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
  async (db, { values, positionals }) => {
    if (positionals.length !== 1) throw new CommandError(`Usage: ${usage}`);
    // From standard input (its first line), the password stays out of the shell history and `ps`.
    const password = values['password-stdin'] ? (await text(process.stdin)).split(/\r?\n/)[0] : (values.password as string | undefined);
    const { user, apiKey } = await createUser(db, {
      username: positionals[0],
      apiKey: values['api-key'] as string | undefined,
      email: values.email as string | undefined,
      password,
    });
    console.log(`Created user ${user.username}${password === undefined ? '' : ' (with a password)'}.`);
    console.log(`API key: ${apiKey}`);
  },
);
