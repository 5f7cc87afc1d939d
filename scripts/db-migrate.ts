// npm run db:migrate — applies the committed migrations to DATABASE_URL (or the embedded database).
import { openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';

const database = await openDatabase(process.env.DATABASE_URL);
try {
  await migrateDatabase(database);
  console.log(`Migrations applied (${database.driver}).`);
} finally {
  await database.close();
}
