// npm run user:create -- <username> [--api-key KEY] [--email E]  — prints the API key.
import { createUser } from '@/lib/core/users';
import { runCommand } from './cli';

const usage = 'npm run user:create -- <username> [--api-key KEY] [--email EMAIL]';
await runCommand(usage, { 'api-key': { type: 'string' }, email: { type: 'string' } }, async (db, { values, positionals }) => {
  if (positionals.length !== 1) throw new Error(`Usage: ${usage}`);
  const { user, apiKey } = await createUser(db, {
    username: positionals[0],
    apiKey: values['api-key'] as string | undefined,
    email: values.email as string | undefined,
  });
  console.log(`Created user ${user.username}.`);
  console.log(`API key: ${apiKey}`);
});
