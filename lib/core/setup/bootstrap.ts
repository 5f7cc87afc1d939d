// What a process does with a newly opened database before it serves: apply the committed migrations
// and, on the first start of an empty database, seed the demo gallery (unless DEMO_SEED=false); the
// gallery's first page is drawn first.
import 'server-only';
import type { Database } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { queueGalleryImagesFirst } from '../plots/card-rows';
import { seedDemoIfEmpty } from './demo';

export async function bootstrapDatabase(database: Database): Promise<void> {
  await migrateDatabase(database);
  if (process.env.DEMO_SEED !== 'false') await seedDemoIfEmpty(database.db);
  await queueGalleryImagesFirst(database.db);
}
