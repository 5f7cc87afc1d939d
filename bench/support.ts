// What every benchmark shares: the bench database and server (BenchContext), the floors' tools
// (pgbench, psql), load generation (wrk; autocannon for comparison), and memory readings of a process from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { BrowserContext, Page } from 'playwright-core';
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { queryRows, type Database } from '@/db/client';

export const RESULTS_DIR = 'bench/results';

export interface BenchUser {
  id: number;
  username: string;
  apiKey: string;
  /** The Authorization header value. */
  auth: string;
}

export interface BenchContext {
  /** The built app's base URL (`node scripts/start.mjs`, one process, on a free port). */
  url: string;
  /** The bench database (postgres.js), its URL and name. */
  database: Database;
  databaseUrl: string;
  dbName: string;
  /** The user owning the synthetic plots (`bench`). */
  user: BenchUser;
  /** The process that serves HTTP. */
  serverPid: number;
  /** Every process of the app (`scripts/start.mjs` and its server child), for CPU and memory totals. */
  appPids(): number[];
  /** How many synthetic plots the list benchmarks want (`--plots`, default 1,111,120: 1,000,008 public). */
  plots: number;
  /** Seeds synthetic plots until `count` exist (the first benchmark that needs them pays). */
  ensurePlots(count: number): Promise<void>;
  /** Another app on the same database (one process unless `env` says otherwise: `WEB_CONCURRENCY: ''`
   * serves as `npm start` does, a process per core); the caller stops it. */
  startServer(env?: Record<string, string>): Promise<{ url: string; process: ChildProcess; stop(): Promise<void> }>;
  log(message: string): void;
}

/** What a benchmark hands back: its numbers (written to bench/results/*.json) and its BENCHMARKS.md section. */
export interface BenchResult {
  results: Record<string, unknown>;
  markdown: string;
}

export type Benchmark = (ctx: BenchContext) => Promise<BenchResult>;

// ---------------------------------------------------------------------------------------------
// SQL for the floors

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The statement drizzle would send, with its parameters (and placeholders' `values`) written in as literals (for pgbench and psql). */
export function sqlText(statement: SQL | { query: SQL; values: Record<string, unknown> }): string {
  const { query, values } = 'query' in statement ? statement : { query: statement, values: {} };
  const { sql: text, params: given } = new PgDialect().sqlToQuery(query);
  const params = fillPlaceholders(given, values);
  return text.replace(/\$(\d+)\b/g, (_, i: string) => literal(params[Number(i) - 1]));
}

export function writeResultFile(name: string, text: string): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, name);
  writeFileSync(file, text);
  return file;
}

function run(command: string, args: string[], opts: { input?: string } = {}): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(opts.input ?? '');
  });
}

const dbHost = (databaseUrl: string) => {
  const url = new URL(databaseUrl);
  return { host: url.hostname, port: url.port || '5432', user: decodeURIComponent(url.username) || 'postgres', db: url.pathname.slice(1) };
};

/**
 * pgbench reads every `:name` as one of its variables, string literals included (to_char formats,
 * URLs): such literals are written as the same constant in Unicode-escape form (`:` as \003A).
 */
function pgbenchSafe(script: string): string {
  return script.replace(/'(?:[^']|'')*'/g, (literal) => (literal.includes(':') ? `U&${literal.replace(/\\/g, '\\\\').replace(/:/g, '\\003A')}` : literal));
}

export interface PgbenchResult {
  tps: number;
  latencyMs: number;
  /** Transactions run in all. */
  transactions: number;
  /** CPU the database's backends used for them. */
  cpu: CpuSeconds;
  /** The command as run (database name included), for BENCHMARKS.md. */
  command: string;
}

/**
 * pgbench running one script: the floor a service endpoint is compared with. Prepared mode, as the
 * app prepares its statements too.
 */
export async function pgbench(
  ctx: BenchContext,
  name: string,
  script: string,
  opts: { clients: number; threads?: number; seconds: number },
): Promise<PgbenchResult> {
  const file = writeResultFile(`${name}.sql`, pgbenchSafe(script));
  const { host, port, user, db } = dbHost(ctx.databaseUrl);
  const args = [
    '-n',
    '-h',
    host,
    '-p',
    port,
    '-U',
    user,
    '-M',
    'prepared',
    '-f',
    file,
    '-c',
    String(opts.clients),
    '-j',
    String(opts.threads ?? Math.min(opts.clients, 2)),
    '-T',
    String(opts.seconds),
    db,
  ];
  const { value: out, cpu } = await withCpu(ctx, null, () => run('pgbench', args));
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out.stdout);
  const latency = /latency average = ([\d.]+) ms/.exec(out.stdout);
  const transactions = /number of transactions actually processed: (\d+)/.exec(out.stdout);
  const failed = /number of failed transactions: (\d+)/.exec(out.stdout);
  if (out.code !== 0 || !tps || !latency || !transactions || (failed && failed[1] !== '0')) {
    throw new Error(`pgbench ${name} failed (${out.code}):\n${out.stdout}\n${out.stderr}`);
  }
  return { tps: Number(tps[1]), latencyMs: Number(latency[1]), transactions: Number(transactions[1]), cpu, command: `pgbench ${args.join(' ')}` };
}

export interface PsqlRun {
  seconds: number;
  bytes: number;
  /** The psql process's peak RSS, read from /proc while it ran. */
  peakRssKb: number;
  command: string;
}

/** psql running one statement with its output counted (not kept): e.g. the COPY floor. */
export function psqlTimed(ctx: BenchContext, statement: string): Promise<PsqlRun> {
  const { host, port, user, db } = dbHost(ctx.databaseUrl);
  const args = ['-X', '-q', '-h', host, '-p', port, '-U', user, '-d', db, '-c', statement];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let stderr = '';
    let peak = 0;
    const poll = setInterval(() => {
      const m = child.pid ? memory(child.pid) : null;
      if (m) peak = Math.max(peak, m.hwmKb);
    }, 2);
    child.stdout.on('data', (d: Buffer) => {
      bytes += d.length;
      const m = child.pid ? memory(child.pid) : null;
      if (m) peak = Math.max(peak, m.hwmKb);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`psql failed (${code}): ${stderr}`));
      resolve({ seconds, bytes, peakRssKb: peak, command: `psql ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')} > /dev/null` });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Load and latency

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Header sets taken in turn, one a request, over `headers` (e.g. several users' Authorization). */
  rotate?: Record<string, string>[];
}

export interface LoadResult {
  requests: { average: number; total: number };
  /** Milliseconds. */
  latency: { p50: number; p90: number; p99: number };
  /** Bytes received in all (headers and bodies). */
  throughput: { total: number };
}

/** A Lua long string holding `text` whatever it contains. */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[\n${text}]${level}]`;
}

/**
 * wrk (C, one thread) against the server; any socket error or 4xx/5xx fails the benchmark (a fast
 * error is no result). wrk, not a Node load generator: on this 2-core machine the load generator
 * shares the cores with the app and Postgres, and autocannon takes about three times wrk's CPU per
 * request; pgbench, the floors' client, is C too.
 */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-wrk-'));
  try {
    const lines = [`wrk.method = ${luaString(opts.method ?? 'GET')}`];
    for (const [name, value] of Object.entries(opts.headers ?? {})) lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
    if (opts.body !== undefined) {
      writeFileSync(path.join(dir, 'body'), opts.body);
      lines.push(`local f = assert(io.open(${luaString(path.join(dir, 'body'))}, 'rb'))`, `wrk.body = f:read('*a')`, 'f:close()');
    }
    if (opts.rotate?.length) {
      const sets = opts.rotate.map(
        (set) =>
          `{ ${Object.entries(set)
            .map(([k, v]) => `[ ${luaString(k)} ] = ${luaString(v)}`)
            .join(', ')} }`,
      );
      lines.push(
        `local sets = { ${sets.join(', ')} }`,
        'local turn = 0',
        'request = function()',
        '  turn = turn % #sets + 1',
        '  for k, v in pairs(sets[turn]) do wrk.headers[k] = v end',
        '  return wrk.format()',
        'end',
      );
    }
    lines.push(
      'done = function(summary, latency)',
      '  local e = summary.errors',
      '  io.write(string.format(\'\\nRESULT {"requests":%d,"us":%d,"bytes":%d,"socketErrors":%d,"statusErrors":%d,"p50":%d,"p90":%d,"p99":%d}\\n\',',
      '    summary.requests, summary.duration, summary.bytes, e.connect + e.read + e.write + e.timeout, e.status,',
      '    latency:percentile(50), latency:percentile(90), latency:percentile(99)))',
      'end',
    );
    writeFileSync(path.join(dir, 'load.lua'), `${lines.join('\n')}\n`);
    const args = ['-t', '1', '-c', String(opts.connections), '-d', `${opts.duration}s`, '--timeout', '30s', '-s', path.join(dir, 'load.lua'), opts.url];
    const out = await run('wrk', args).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT'
        ? new Error('wrk is missing: install it first (Debian/Ubuntu: `apt-get install -y wrk`); the benchmark installs nothing itself.')
        : error;
    });
    const line = /^RESULT (.*)$/m.exec(out.stdout);
    if (out.code !== 0 || !line) throw new Error(`wrk on ${opts.url} failed (${out.code}):\n${out.stdout}\n${out.stderr}`);
    const r = JSON.parse(line[1]) as {
      requests: number;
      us: number;
      bytes: number;
      socketErrors: number;
      statusErrors: number;
      p50: number;
      p90: number;
      p99: number;
    };
    if (r.socketErrors || r.statusErrors || !r.requests) {
      throw new Error(`load on ${opts.url}: ${r.requests} answers, ${r.statusErrors} of them 4xx/5xx, ${r.socketErrors} socket errors`);
    }
    return {
      requests: { average: r.requests / (r.us / 1e6), total: r.requests },
      latency: { p50: r.p50 / 1000, p90: r.p90 / 1000, p99: r.p99 / 1000 },
      throughput: { total: r.bytes },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same load from autocannon (a Node load generator), for comparison with earlier runs. */
export async function autocannonLoad(opts: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ timeout: 30, ...opts });
  if (result.errors || result.non2xx || !result['2xx']) {
    throw new Error(`load on ${opts.url}: ${result['2xx']} 2xx, ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
  }
  return {
    requests: { average: result.requests.average, total: result.requests.total },
    latency: result.latency,
    throughput: { total: result.throughput.total },
  };
}

export interface Latency {
  p50: number;
  p90: number;
  p95: number;
  mean: number;
  bytes: number;
}

/** `count` requests one after another on one kept-alive connection: milliseconds to the last byte. */
export async function sequentialLatency(url: string, count: number, headers: Record<string, string> = {}): Promise<Latency> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${Buffer.from(body).toString().slice(0, 300)}`);
    bytes = body.byteLength;
  }
  return { ...percentiles(times), bytes };
}

export function percentiles(values: number[]): { p50: number; p90: number; p95: number; mean: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p90: at(0.9), p95: at(0.95), mean: values.reduce((a, b) => a + b, 0) / values.length };
}

// ---------------------------------------------------------------------------------------------
// Processes and memory

/** VmRSS and VmHWM (peak) of a process, in kB; null once it is gone. */
export function memory(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * A process's proportional set size in kB (its RSS with each shared page split among the processes
 * sharing it), so a sum over processes counts shared memory once: Chromium's processes share most
 * of theirs. Null once it is gone.
 */
export function pssKb(pid: number): number | null {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return null;
  }
}

/** CPU time a process has used so far (user + system, all its threads), in seconds; 10 ms resolution. */
export function cpuSeconds(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th (clock ticks, 100 a second).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU time a process has used so far, all its threads, in seconds to the nanosecond (the scheduler's
 * own sum, /proc/PID/task/TID/schedstat): for the short requests and statements a 10 ms tick misses.
 */
export function preciseCpuSeconds(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(safeRead(`/proc/${pid}/task/${task}/schedstat`).split(' ')[0] || 0);
  return ns / 1e9;
}

/** CPU seconds used while `work` ran: by the app's processes and by this database's Postgres backends. */
export interface CpuSeconds {
  appSeconds: number;
  pgSeconds: number;
}

/** `cpuDuring` for the app process `appPid` and those under it (none for a floor), as CpuSeconds. */
export async function withCpu<T>(ctx: BenchContext, appPid: number | null, work: () => Promise<T>): Promise<{ value: T; cpu: CpuSeconds }> {
  const { value, processSeconds, databaseSeconds } = await cpuDuring(ctx, appPid ? processTree(appPid) : [], work);
  return { value, cpu: { appSeconds: processSeconds, pgSeconds: databaseSeconds } };
}

/** CPU milliseconds per request (or transaction), as `app + pg` text for the tables. */
export const cpuPerRequest = (cpu: CpuSeconds, requests: number) => ({ appMs: (cpu.appSeconds * 1000) / requests, pgMs: (cpu.pgSeconds * 1000) / requests });
export const cpuText = (c: { appMs: number; pgMs: number }) => `${c.appMs ? `${fmt(c.appMs, 2)} + ` : ''}${fmt(c.pgMs, 2)}`;

/** Restarts a process's peak RSS (VmHWM) from its current RSS (Linux clear_refs 5). */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Samples a process's RSS while `work` runs: idle RSS before, peak (VmHWM since reset) and RSS after. */
export async function withMemory<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; beforeKb: number; peakKb: number; afterKb: number }> {
  const before = memory(pid)!.rssKb;
  resetPeak(pid);
  const value = await work();
  const now = memory(pid)!;
  return { value, beforeKb: before, peakKb: now.hwmKb, afterKb: now.rssKb };
}

function children(pid: number): number[] {
  const out: number[] = [];
  for (const task of safeReaddir(`/proc/${pid}/task`)) {
    const text = safeRead(`/proc/${pid}/task/${task}/children`);
    for (const child of text.split(/\s+/).filter(Boolean)) out.push(Number(child), ...children(Number(child)));
  }
  return out;
}

const safeReaddir = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const safeRead = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The process (the given one or a descendant) holding the socket listening on `port`. */
export function listeningProcess(rootPid: number, port: number): number {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of safeRead(table).split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && parseInt(f[1].split(':').pop()!, 16) === port) inodes.add(f[9]);
    }
  }
  for (const pid of [rootPid, ...children(rootPid)]) {
    for (const fd of safeReaddir(`/proc/${pid}/fd`)) {
      let link = '';
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1])) return pid;
    }
  }
  throw new Error(`no process under ${rootPid} listens on port ${port}`);
}

// ---------------------------------------------------------------------------------------------
// Markdown

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const mb = (kb: number) => `${fmt(kb / 1024, 1)} MB`;

export function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const codeBlock = (lines: string[]) => ['```sh', ...lines, '```'].join('\n');

// ---------------------------------------------------------------------------------------------
// CPU per request, service and floor

/** The app's processes: `scripts/start.mjs` and every process under it. */
export function processTree(rootPid: number): number[] {
  return [rootPid, ...children(rootPid)];
}

export interface CpuUse<T> {
  value: T;
  /** CPU seconds (user + system) of the watched processes (the app's) while `work` ran. */
  processSeconds: number;
  /** CPU seconds of the Postgres backends connected to the bench database while `work` ran. */
  databaseSeconds: number;
}

const POLL_MS = 100;

/**
 * CPU used while `work` runs by the given processes (the app's, or none for a floor) and by the
 * Postgres backends serving the bench database (pg_stat_activity, polled every 100 ms). A backend
 * that connected during the work counts whole; an older one from its CPU when first seen (the
 * start, or later for the bench's own pool connections the poll ran on); a backend that exits
 * counts up to its last poll, so a floor's client connections (pgbench's, held the whole run) lose
 * at most 100 ms each. The poll's own backend is left out.
 */
export async function cpuDuring<T>(ctx: BenchContext, pids: number[], work: () => Promise<T>): Promise<CpuUse<T>> {
  const started = new Date();
  const backends = async () =>
    (
      await queryRows<{ pid: number; fresh: boolean }>(
        ctx.database.db,
        sql`SELECT pid, backend_start >= ${started.toISOString()}::timestamptz AS fresh FROM pg_stat_activity WHERE datname = ${ctx.dbName} AND pid <> pg_backend_pid()`,
      )
    ).map((r) => ({ pid: Number(r.pid), fresh: r.fresh }));
  const cpuOf = (pid: number) => {
    try {
      return preciseCpuSeconds(pid);
    } catch {
      return null;
    }
  };
  const start = new Map<number, number>();
  const last = new Map<number, number>();
  const see = async () => {
    for (const { pid, fresh } of await backends()) {
      const cpu = cpuOf(pid);
      if (cpu === null) continue;
      if (!start.has(pid)) start.set(pid, fresh ? 0 : cpu);
      last.set(pid, cpu);
    }
  };
  await see();
  let polling = true;
  const poll = async () => {
    while (polling) {
      await see();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
  const processesBefore = pids.reduce((n, pid) => n + (cpuOf(pid) ?? 0), 0);
  const poller = poll();
  let value: T;
  try {
    value = await work();
  } finally {
    polling = false;
    await poller;
  }
  for (const pid of last.keys()) {
    const cpu = cpuOf(pid);
    if (cpu !== null) last.set(pid, cpu);
  }
  const processSeconds = pids.reduce((n, pid) => n + (cpuOf(pid) ?? 0), 0) - processesBefore;
  let databaseSeconds = 0;
  for (const [pid, cpu] of last) databaseSeconds += cpu - start.get(pid)!;
  return { value, processSeconds, databaseSeconds };
}

/** The middle value (the upper middle of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Records every page of `context`'s main-thread long tasks (PerformanceObserver 'longtask', over 50 ms) for longestTask. */
export const watchLongTasks = (context: BrowserContext) =>
  context.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });

/** The longest task since the last call (0: none over 50 ms), and forgets them. */
export const longestTask = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    const out = w.__longTasks.length ? Math.max(...w.__longTasks) : 0;
    w.__longTasks = [];
    return out;
  });
