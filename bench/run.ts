// npm run bench [-- NAME ...] [--plots N] [--keep-db]
//
// Runs the benchmarks (all, or the named ones) against the built app (`npm run build` first) on a
// bench database created on the local Postgres and dropped afterwards, then writes BENCHMARKS.md
// (the machine, then one section per benchmark: service, floor, ratio and the commands) and the raw
// numbers to bench/results/. A benchmark is a module whose default export is a `Benchmark`
// (bench/support.ts); add one by adding it to BENCHMARKS below.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { adminUrl, createDatabase, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';
import { seedSynthetic } from '@/lib/core/setup/demo';
import { createUser } from '@/lib/core/accounts/users';
import { listeningProcess, processTree, writeResultFile, type Benchmark, type BenchContext } from './support';

const BENCHMARKS: Record<string, () => Promise<{ default: Benchmark }>> = {
  'list-depth': () => import('./list-depth'),
  'list-throughput': () => import('./list-throughput'),
  inline: () => import('./inline'),
  create: () => import('./create'),
  images: () => import('./images'),
  exports: () => import('./exports'),
  search: () => import('./search'),
  'list-page-size': () => import('./list-page-size'),
  memory: () => import('./memory'),
  pages: () => import('./pages'),
  proxy: () => import('./proxy'),
  import: () => import('./import'),
  'grid-editor': () => import('./grid-editor'),
  anonymous: () => import('./anonymous'),
  columns: () => import('./columns'),
  views: () => import('./views'),
};

const OUTPUT = 'BENCHMARKS.md';
const USAGE = `npm run bench [-- ${Object.keys(BENCHMARKS).join('|')} ...] [--plots N] [--keep-db]`;

const { values, positionals } = parseArgs({
  // 1,111,120 synthetic plots, one in ten private: 1,000,008 public ones, so a page 50,000 deep exists.
  options: { plots: { type: 'string', default: '1111120' }, 'keep-db': { type: 'boolean', default: false } },
  allowPositionals: true,
});
const names = positionals.length ? positionals : Object.keys(BENCHMARKS);
const unknown = names.filter((n) => !BENCHMARKS[n]);
const plots = Number(values.plots);
if (unknown.length || !Number.isInteger(plots) || plots < 1000) {
  console.error(`${unknown.length ? `Unknown benchmark: ${unknown.join(', ')}\n` : '--plots takes a whole number >= 1000\n'}Usage: ${USAGE}`);
  process.exit(2);
}
if (!existsSync('.next/BUILD_ID')) {
  console.error('No build: run `npm run build` first (the benchmarks measure the production server).');
  process.exit(2);
}

const log = (message: string) => console.log(`[bench] ${message}`);
const dbName = createDatabaseName('bench');
const databaseUrl = adminUrl(dbName);
await createDatabase(dbName);
log(`database ${dbName}`);
const database = await openDatabase(databaseUrl);
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  await migrateDatabase(database);
  const { user, apiKey } = await createUser(database.db, { username: 'bench', bio: 'Synthetic plots for benchmarks.' });
  const serverEnv = {
    DATABASE_URL: databaseUrl,
    DEMO_SEED: 'false',
    // Writes are counted as by default (a statement and a commit of their own), under limits no run reaches.
    RATE_LIMIT_WRITES_PER_KEY: '1000000000',
    RATE_LIMIT_WRITES_PER_ADDRESS: '1000000000',
    IMAGE_WORKER: 'false',
  };
  server = await startServer(serverEnv);
  const port = Number(new URL(server.url).port);
  let seeded = 0;
  const ctx: BenchContext = {
    url: server.url,
    database,
    databaseUrl,
    dbName,
    user: { id: user.id, username: user.username, apiKey, auth: `Basic ${Buffer.from(`${user.username}:${apiKey}`).toString('base64')}` },
    serverPid: listeningProcess(server.process.pid!, port),
    appPids: () => processTree(server!.process.pid!),
    plots,
    log,
    startServer: (env = {}) => startServer({ ...serverEnv, ...env }),
    async ensurePlots(count) {
      if (seeded >= count) return;
      log(`seeding ${count - seeded} synthetic plots`);
      const started = Date.now();
      await seedSynthetic(database.db, count - seeded, () => {});
      seeded = count;
      log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
  };
  log(`server ${server.url} (pid ${ctx.serverPid})`);

  const machine = await machineInfo(database.db);
  const sections = new Map<string, string>();
  const raw: Record<string, unknown> = { machine };
  const failed: string[] = [];
  for (const name of names) {
    log(`--- ${name}`);
    const { default: benchmark } = await BENCHMARKS[name]();
    const started = Date.now();
    // One benchmark failing does not lose the others' results: it is reported, the rest go on.
    const result = await benchmark(ctx).catch((error: unknown) => {
      console.error(error);
      failed.push(name);
      return null;
    });
    if (!result) continue;
    raw[name] = result.results;
    sections.set(
      name,
      `${result.markdown.trim()}\n\n_Run ${machine.date} on ${machine.commit} in ${((Date.now() - started) / 1000).toFixed(0)} s with ${plots.toLocaleString('en-US')} synthetic plots (load average at start ${machine.load})._`,
    );
    console.log(`\n${result.markdown.trim()}\n`);
  }
  writeResultFile('results.json', JSON.stringify(raw, null, 2));
  writeReport(machine, sections);
  log(`wrote ${OUTPUT} and bench/results/`);
  if (failed.length) {
    log(`failed: ${failed.join(', ')} (their sections keep their previous text)`);
    process.exitCode = 1;
  }
} finally {
  await server?.stop();
  await database.close();
  if (values['keep-db']) log(`kept database ${dbName} (${databaseUrl})`);
  else await dropDatabase(dbName);
}

interface Machine {
  cpu: string;
  cores: number;
  ram: string;
  node: string;
  postgres: string;
  chromium: string;
  date: string;
  commit: string;
  load: string;
}

async function machineInfo(db: BenchContext['database']['db']): Promise<Machine> {
  const command = (file: string, args: string[]) => {
    try {
      return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return 'unavailable';
    }
  };
  const [{ version }] = await queryRows<{ version: string }>(db, sql`SELECT current_setting('server_version') AS version`);
  const dirty = command('git', ['status', '--porcelain']) ? ' (with uncommitted changes)' : '';
  return {
    cpu: /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    ram: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    postgres: version,
    chromium: command('/usr/bin/chromium', ['--version']),
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    commit: `${command('git', ['rev-parse', '--short', 'HEAD'])}${dirty}`,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

/** BENCHMARKS.md: this run's machine and sections; sections of benchmarks not run this time are kept. */
function writeReport(machine: Machine, sections: Map<string, string>): void {
  const previous = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '';
  const all = Object.keys(BENCHMARKS)
    .map((name) => {
      const text = sections.get(name) ?? new RegExp(`<!-- bench:${name} -->\\n([\\s\\S]*?)\\n<!-- /bench:${name} -->`).exec(previous)?.[1];
      return text ? `<!-- bench:${name} -->\n${text}\n<!-- /bench:${name} -->` : null;
    })
    .filter(Boolean);
  const report = `# Benchmarks

Each benchmark runs the service and its floor (what PostgreSQL alone does for the same answer) in the
same run, on the same database and machine, and reports service / floor. Written by \`npm run bench\`
(\`bench/run.ts\`; one module per benchmark in \`bench/\`); the raw numbers and the floors' SQL files
are left in \`bench/results/\`. The load generator, the app and Postgres share the machine's cores.

Reproduce:

\`\`\`sh
npm install && npm run build
apt-get install -y wrk nginx-light    # the load generator (every benchmark), and nginx for \`proxy\` (the bench installs nothing itself)
npm run bench                         # everything (seeds 1,111,120 plots, 1,000,008 of them public, into a throwaway database)
npm run bench -- list-depth inline    # only some: ${Object.keys(BENCHMARKS).join(', ')}
npm run bench -- pages --plots 20000  # fewer synthetic plots (a quick check; list depth then goes as deep as they allow)
npm run bench -- --keep-db            # keep the bench database to re-run the floor commands below by hand
\`\`\`

## Machine (this run)

| | |
| --- | --- |
| CPU | ${machine.cpu} |
| cores | ${machine.cores} |
| RAM | ${machine.ram} |
| Node | ${machine.node} |
| PostgreSQL | ${machine.postgres} |
| Chromium | ${machine.chromium} |
| date | ${machine.date} |
| git commit | ${machine.commit} |
| load average at start | ${machine.load} |

${all.join('\n\n')}
`;
  // Numbers the tests measure (their log lines, copied by hand) are kept as they are.
  const byTests = /\n<!-- tests -->\n[\s\S]*$/.exec(previous)?.[0] ?? '';
  writeFileSync(OUTPUT, report + byTests);
}
