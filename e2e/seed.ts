// e2e/server.sh's seeding, in one process before the server starts (a process per user cost a
// second or two each): a new PostgreSQL database copied from the migrated template, the demo gallery
// (ada, grace, linus, mae), the browser tests' users (one with 330 files) and the sign-up links
// e2e/support.ts reads.
// Usage: PUBLIC_URL=http://127.0.0.1:PORT tsx --conditions=react-server e2e/seed.ts <database> <invitations file>
import { writeFileSync } from 'node:fs';
import { openDatabase } from '@/db/client';
import { adminUrl } from '@/harness/postgres';
import { createInvitation } from '@/lib/core/accounts/invitations';
import { createUser } from '@/lib/core/accounts/users';
import { createFolders } from '@/lib/core/files/files';
import { createGrid } from '@/lib/core/grids/grids';
import { seedDemoIfEmpty } from '@/lib/core/setup/demo';
import { createMigratedDatabase } from '@/tests/support/postgres';

const [name, invitationsFile] = process.argv.slice(2);
if (!name || !invitationsFile || !process.env.PUBLIC_URL) throw new Error('usage: PUBLIC_URL=... e2e/seed.ts <database> <invitations file>');

await createMigratedDatabase(name);
const database = await openDatabase(adminUrl(name));
try {
  await seedDemoIfEmpty(database.db);
  // Keys must match e2e/support.ts (E2E_USER, OTHER_USER and the specs' own users).
  await createUser(database.db, { username: 'e2e', apiKey: 'e2e-browser-tests-key-0123456789' });
  await createUser(database.db, { username: 'e2eother', apiKey: 'e2e-other-user-key-9876543210' });
  // The person who declines and blocks shares in e2e/collaborators.spec.ts (nobody else shares with them).
  await createUser(database.db, { username: 'e2eshares', apiKey: 'e2e-shares-key-0123456789' });
  // The person told of comments and shares in e2e/notifications.spec.ts (nobody else comments on or shares with them).
  await createUser(database.db, { username: 'e2enotified', apiKey: 'e2e-notified-key-0123456789' });
  // Users whose trash e2e/workspace-many.spec.ts empties (one a mode: nothing else trashes their files).
  await createUser(database.db, { username: 'e2etrashjs', apiKey: 'e2e-trash-js-key-0123456789' });
  await createUser(database.db, { username: 'e2etrashnojs', apiKey: 'e2e-trash-nojs-key-0123456789' });
  // The owner of many files e2e/workspace-found.spec.ts finds things among: folders made first (so
  // the oldest), then 325 grids, the kind of file quickest to make.
  const { user: many } = await createUser(database.db, { username: 'e2emany', apiKey: 'e2e-many-files-key-0123456789' });
  const owner = { id: many.id, username: many.username };
  for (const path of [['archive'], ['archive', '2024'], ['projects'], ['projects', 'old'], ['inbox']]) await createFolders(database.db, owner, path);
  for (let i = 1; i <= 325; i++) {
    const filename = `data ${String(i).padStart(3, '0')}`;
    await createGrid(database.db, owner, { filename, world_readable: false, data: { cols: { x: { data: [i] } } } }, process.env.PUBLIC_URL);
  }
  // A password account whose sign-in e2e/accounts.spec.ts throttles (nothing else signs in as it).
  await createUser(database.db, { username: 'e2ethrottle', email: 'throttle@e2e.example', password: 'e2e-throttled-password' });
  // For e2e/accounts.spec.ts and e2e/a11y.spec.ts, in the order invitationLinks() answers them.
  const links: string[] = [];
  for (const email of ['js@invited.example', 'nojs@invited.example', 'a11y@invited.example']) {
    const { token } = await createInvitation(database.db, email);
    links.push(`${process.env.PUBLIC_URL}/signup?invite=${token}`);
  }
  writeFileSync(invitationsFile, `${links.join('\n')}\n`);
} finally {
  await database.close();
}
