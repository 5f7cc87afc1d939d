// `npm start`: the built app, one server process (scripts/serve.mjs: `next start` plus compression)
// per core. Node's cluster lets the processes share the port (the primary hands each new connection
// to the next process), so one command serves with every core. Everything shared lives in
// PostgreSQL (sessions, rate limits, cursors' keys, the image queue), so the processes behave as one.
// The embedded database (no DATABASE_URL) belongs to one process: then one process serves.
// WEB_CONCURRENCY sets the count (1: a single process, no cluster). Only the first process runs the
// in-app image worker (`npm run worker` adds more); every process draws the image exports it serves
// in a Chromium of its own (started on its first export, driven over a pipe that no other process reaches).
// `npm start` runs this with `--max-semi-space-size=32` (forked processes inherit it): a request
// leaves short-lived garbage, and a 32 MB young generation (V8's default is 16) scavenges half as
// often. Under the list load that cut GC pauses by about a third for a little more peak memory; a
// larger young generation bought less for much more memory.
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';

function processCount() {
  if (!process.env.DATABASE_URL) return 1;
  const asked = process.env.WEB_CONCURRENCY;
  if (asked === undefined || asked === '') return availableParallelism();
  const n = Number(asked);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`WEB_CONCURRENCY must be a whole number of at least 1 (got ${JSON.stringify(asked)}).`);
    process.exit(2);
  }
  return n;
}

const count = cluster.isPrimary ? processCount() : 1;

if (cluster.isPrimary && count > 1) {
  console.log(`Starting ${count} app processes (WEB_CONCURRENCY=${count}).`);
  let stopping = false;
  const fork = (index) => {
    const env = { APP_PROCESS_INDEX: String(index), ...(index > 0 ? { IMAGE_WORKER: 'false' } : {}) };
    const child = cluster.fork(env);
    child.on('exit', (code, signal) => {
      if (stopping) return;
      // A process that died is replaced; the others go on serving meanwhile.
      console.error(`App process ${index} exited (${signal ?? code}); starting a new one.`);
      setTimeout(() => fork(index), 1000).unref();
    });
  };
  for (let i = 0; i < count; i++) fork(i);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stopping = true;
      for (const child of Object.values(cluster.workers ?? {})) child?.process.kill(signal);
    });
  }
} else {
  // What `next start` runs, with this command's arguments, plus compression of our own (scripts/serve.mjs).
  process.env.NODE_ENV = 'production';
  const { serve } = await import('./serve.mjs');
  await serve(process.argv.slice(2));
}
