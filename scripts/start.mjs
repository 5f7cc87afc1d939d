// `npm start`: the built app, one `next start` process per core. Node's cluster lets the processes
// share the port (the primary hands each new connection to the next process), so one command serves
// with every core while each process stays exactly what `next start` runs. Everything shared lives in
// PostgreSQL (sessions, rate limits, cursors' keys, the image queue), so the processes behave as one.
// The embedded database (no DATABASE_URL) belongs to one process: then one process serves.
// WEB_CONCURRENCY sets the count (1: a single plain `next start`). Only the first process runs the
// in-app image worker (one Chromium per machine; `npm run worker` adds more).
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
  // Exactly `next start` (its own port, keep-alive and shutdown handling), with this command's arguments.
  process.argv = [process.argv[0], 'next', 'start', ...process.argv.slice(2)];
  await import('next/dist/bin/next');
}
