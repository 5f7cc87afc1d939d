// `npm run worker`: an image worker process (scale-out: run as many as the machine allows). Needs
// DATABASE_URL: the embedded database belongs to the app process, which renders in-process.
import { getDatabase, prepareWith } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { startImageWorker } from '@/lib/render/image-worker';

if (!process.env.DATABASE_URL) {
  console.error('npm run worker needs DATABASE_URL (PostgreSQL). With the embedded database, the app renders images itself.');
  process.exit(2);
}
prepareWith(migrateDatabase);
const worker = await startImageWorker(getDatabase);
if (!worker) process.exit(1);
console.log('Image worker started.');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await worker.stop();
    await (await getDatabase()).close();
    process.exit(0);
  });
}
