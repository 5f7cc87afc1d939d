// Runs once when the server starts: open the database (apply migrations, seed the demo on first
// start), then start this process's image worker.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // Each request's socket address, appended to X-Forwarded-For before Next reads it (rate limits).
    const { stampPeerAddress } = await import('@/lib/http/peer-address');
    await stampPeerAddress();
    // The streaming host's writes (scripts/serve.mjs hands them over when STREAM_HOST is set).
    const { installStreamWrites } = await import('@/lib/http/stream-writes');
    installStreamWrites();
    const { readMailSettings } = await import('./lib/core/accounts/mail');
    const mail = readMailSettings();
    if (mail.problem) console.error(`Mail is off, so "Forgot password?" is not offered: ${mail.problem}.`);
    const { embeddedDataDir, getDatabase, prepareWith } = await import('./db/client');
    const { bootstrapDatabase } = await import('./lib/core/setup/bootstrap');
    prepareWith(bootstrapDatabase);
    const worker = process.env.IMAGE_WORKER !== 'false' ? await import('@/lib/render/image-worker') : null;
    // A fresh embedded install seeds the demo gallery and then draws its images at once: Chromium
    // starts while the seed runs. Anywhere else a browser starts only when there is something to draw.
    const { existsSync } = await import('node:fs');
    if (!process.env.DATABASE_URL && !existsSync(embeddedDataDir())) worker?.warmRenderer();
    try {
      const database = await getDatabase();
      console.log(`Database ready (${database.driver}).`);
    } catch (error) {
      // The service still starts; requests answer 503 until the database is reachable.
      console.error('Database not ready at start:', (error as Error).message);
    }
    if (worker) {
      await worker.startImageWorker(getDatabase);
    } else if (!process.env.APP_PROCESS_INDEX || process.env.APP_PROCESS_INDEX === '0') {
      // (npm start's other processes stay quiet: its first process renders.)
      console.log('Images: no worker in this process (IMAGE_WORKER=false); run `npm run worker` to render them.');
    }
  }
}
