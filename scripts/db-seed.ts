// npm run db:seed                      — the demo gallery (when the database has no users yet)
// npm run db:seed -- --plots 1000000   — a large synthetic set for benchmarks
import { seedDemoIfEmpty, seedSynthetic } from '@/lib/core/setup/demo';
import { CommandError, runCommand } from './cli';

await runCommand('npm run db:seed [-- --plots N]', { plots: { type: 'string' } }, async (db, { values }) => {
  if (values.plots !== undefined) {
    const count = Number(values.plots);
    if (!Number.isInteger(count) || count < 1) throw new CommandError('--plots takes a positive whole number');
    const started = Date.now();
    await seedSynthetic(db, count);
    console.log(`Seeded ${count} synthetic plots in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return;
  }
  const created = await seedDemoIfEmpty(db);
  if (!created) console.log('The database already has users; the demo gallery was not seeded.');
});
