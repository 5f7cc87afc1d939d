// 11. Behind a caching proxy: nginx configured with docs/caching-proxy.md's example (the block
// itself, read from that page, with a temporary cache directory and the bench app's address)
// in front of the app. Anonymous `GET /v2/plots` at 32 connections through nginx against the app
// alone, with the cache's hit ratio from nginx's own log, and CPU per request. Checked first, and the
// benchmark fails if not: signed-in requests (Authorization, Plotly-Authorization, the session
// cookie) bypass the cache and are never stored.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@/harness/ports';
import { SESSION_COOKIE } from '@/lib/core/accounts/sessions';
import { codeBlock, cpuDuring, cpuSeconds, fmt, load, processTree, table, writeResultFile, type Benchmark, type BenchContext } from './support';

const NGINX = '/usr/sbin/nginx';
const CONNECTIONS = 32;
const SECONDS = 10;
/** The page whose nginx example this runs. */
const EXAMPLE_PAGE = 'docs/caching-proxy.md';

/** docs/caching-proxy.md's nginx block: its `http { }` lines and its `server { }` lines. */
function docsExample(): { http: string; server: string } {
  const page = readFileSync(EXAMPLE_PAGE, 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(page)?.[1];
  const [http, server] = block?.split(/^# in server \{ \}\n/m) ?? [];
  if (!http || !server || !http.includes('proxy_cache_path')) throw new Error(`${EXAMPLE_PAGE}: no nginx example with "# in http { }" and "# in server { }"`);
  return { http, server };
}

async function startNginx(ctx: BenchContext, dir: string): Promise<{ url: string; child: ChildProcess; config: string; log: string }> {
  const port = await freePort();
  const example = docsExample();
  const app = new URL(ctx.url);
  const log = path.join(dir, 'cache.log');
  const config = `# Built by bench/proxy.ts from ${EXAMPLE_PAGE}'s example.
daemon off;
worker_processes auto;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 4096; }
http {
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    log_format cache '$upstream_cache_status';
    access_log ${log} cache buffer=64k flush=250ms;

${example.http.replace('/var/cache/nginx/plots', `${dir}/cache`)}
    server {
        listen 127.0.0.1:${port};
${example.server.replace('http://127.0.0.1:3000', `http://${app.host}`)}
    }
}
`;
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${stderr}\nconfig:\n${config}`);
    try {
      if ((await fetch(`${url}/v2/plots?page_size=1`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, config, log };
}

/** The cache statuses nginx logged since `from` lines, counted. */
async function statuses(log: string, from: number): Promise<{ lines: number; counts: Record<string, number> }> {
  await new Promise((r) => setTimeout(r, 600)); // the log's flush interval
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const counts: Record<string, number> = {};
  for (const status of lines.slice(from)) counts[status] = (counts[status] ?? 0) + 1;
  return { lines: lines.length, counts };
}

/** Signed-in requests must bypass the cache and never be stored; anonymous ones must hit. */
async function checkBypass(ctx: BenchContext, url: string): Promise<string[]> {
  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}/v2/plots${query}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /v2/plots${query} through nginx: ${res.status}`);
    return { cache: res.headers.get('x-cache-status') ?? '(none)', cacheControl: res.headers.get('cache-control') ?? '' };
  };
  const failures: string[] = [];
  const expect = (what: string, got: string, ok: boolean) => {
    if (!ok) failures.push(`${what}: ${got}`);
  };
  await get('?page_size=5');
  const again = await get('?page_size=5');
  expect('anonymous request, second time: X-Cache-Status HIT', again.cache, again.cache === 'HIT');
  const signedIn: [string, Record<string, string>][] = [
    ['Authorization (API key)', { Authorization: ctx.user.auth }],
    ['Plotly-Authorization', { 'Plotly-Authorization': ctx.user.auth }],
    [`${SESSION_COOKIE} cookie`, { Cookie: `${SESSION_COOKIE}=not-a-session` }],
  ];
  for (const [name, headers] of signedIn) {
    // A cached anonymous answer exists for this URL: the signed-in request must not get it.
    const cached = await get('?page_size=5', headers);
    expect(`${name} on a cached URL: X-Cache-Status BYPASS`, cached.cache, cached.cache === 'BYPASS');
    expect(`${name}: Cache-Control private`, cached.cacheControl, cached.cacheControl.startsWith('private'));
    // A URL not cached yet: the signed-in answer must not be stored for the anonymous one after it.
    const query = `?page_size=${signedIn.findIndex(([n]) => n === name) + 6}`;
    const first = await get(query, headers);
    const anonymous = await get(query);
    expect(`${name} on a new URL: BYPASS`, first.cache, first.cache === 'BYPASS');
    expect(`anonymous after ${name} on a new URL: MISS (the signed-in answer was not stored)`, anonymous.cache, anonymous.cache === 'MISS');
  }
  // The cache ignores Vary (docs/caching-proxy.md): a compressed answer must still never reach a client that did not ask for it.
  // node:http, not fetch: fetch sends its own Accept-Encoding.
  const encoded = (acceptEncoding: string | null) =>
    new Promise<{ cache: string; encoding: string }>((resolve, reject) => {
      http
        .get(`${url}/v2/plots?page_size=9`, { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ cache: String(res.headers['x-cache-status'] ?? '(none)'), encoding: String(res.headers['content-encoding'] ?? 'identity') }),
          );
        })
        .on('error', reject);
    });
  await encoded('br');
  const brotli = await encoded('br');
  const plain = await encoded(null);
  expect('Accept-Encoding: br twice: HIT, br', `${brotli.cache}, ${brotli.encoding}`, brotli.cache === 'HIT' && brotli.encoding === 'br');
  expect('no Accept-Encoding after br: MISS, not compressed', `${plain.cache}, ${plain.encoding}`, plain.cache === 'MISS' && plain.encoding === 'identity');
  if (failures.length) throw new Error(`the caching proxy of ${EXAMPLE_PAGE} is not safe:\n- ${failures.join('\n- ')}`);
  return [
    'anonymous repeat: HIT',
    'a brotli answer is not served to a client that did not ask for it',
    ...signedIn.map(([name]) => `${name}: BYPASS, \`private\`, not stored`),
  ];
}

const proxy: Benchmark = async (ctx) => {
  if (!existsSync(NGINX)) {
    throw new Error(
      `proxy: ${NGINX} is missing. Install nginx first (Debian/Ubuntu: \`apt-get install -y nginx-light\`); the benchmark installs nothing itself.`,
    );
  }
  await ctx.ensurePlots(ctx.plots);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  // nginx's workers run as nobody: they must reach the cache directory nginx makes in here.
  chmodSync(dir, 0o755);
  const nginx = await startNginx(ctx, dir);
  writeResultFile('proxy-nginx.conf', nginx.config);
  let results: Record<string, unknown>;
  let markdown: string;
  try {
    const checks = await checkBypass(ctx, nginx.url);
    const appUrl = `${ctx.url}/v2/plots`;
    const proxiedUrl = `${nginx.url}/v2/plots`;
    await load({ url: appUrl, connections: CONNECTIONS, duration: 3 });
    const alone = await cpuDuring(ctx, ctx.appPids(), () => load({ url: appUrl, connections: CONNECTIONS, duration: SECONDS }));
    await load({ url: proxiedUrl, connections: CONNECTIONS, duration: 3 });
    const before = (await statuses(nginx.log, 0)).lines;
    const nginxPids = processTree(nginx.child.pid!);
    const nginxCpu = () => nginxPids.reduce((n, pid) => n + cpuSeconds(pid), 0);
    const nginxBefore = nginxCpu();
    const proxied = await cpuDuring(ctx, ctx.appPids(), () => load({ url: proxiedUrl, connections: CONNECTIONS, duration: SECONDS }));
    const nginxSeconds = nginxCpu() - nginxBefore;
    const { counts } = await statuses(nginx.log, before);
    const served = Object.values(counts).reduce((a, b) => a + b, 0);
    const fromCache = (counts.HIT ?? 0) + (counts.UPDATING ?? 0) + (counts.STALE ?? 0);
    const perRequest = (r: { processSeconds: number; databaseSeconds: number }, requests: number) => ((r.processSeconds + r.databaseSeconds) * 1000) / requests;
    const proxiedRequests = proxied.value.requests.total;
    const aloneRate = alone.value.requests.average;
    const proxiedRate = proxied.value.requests.average;
    results = {
      checks,
      app: {
        reqPerSec: aloneRate,
        latencyP50: alone.value.latency.p50,
        latencyP99: alone.value.latency.p99,
        cpuMsPerRequest: perRequest(alone, alone.value.requests.total),
      },
      proxied: {
        reqPerSec: proxiedRate,
        latencyP50: proxied.value.latency.p50,
        latencyP99: proxied.value.latency.p99,
        cpuMsPerRequest: perRequest(proxied, proxiedRequests) + (nginxSeconds * 1000) / proxiedRequests,
        appCpuMsPerRequestBehindCache: perRequest(proxied, proxiedRequests),
        nginxCpuMsPerRequest: (nginxSeconds * 1000) / proxiedRequests,
        cacheStatuses: counts,
        hitRatio: fromCache / served,
      },
      ratio: proxiedRate / aloneRate,
    };
    const p = results.proxied as { cpuMsPerRequest: number; hitRatio: number; appCpuMsPerRequestBehindCache: number; nginxCpuMsPerRequest: number };
    const a = results.app as { cpuMsPerRequest: number };
    markdown = `## 11. Behind a caching proxy: nginx with docs/caching-proxy.md's example

nginx ${nginxVersion()} with the \`proxy_cache\` block of docs/caching-proxy.md (read from that page
by the benchmark; \`bench/results/proxy-nginx.conf\` is the whole config it ran) in front of the
app; anonymous \`GET /v2/plots\` (page 1) at ${CONNECTIONS} connections for ${SECONDS} s (wrk, after 3 s of
warm-up), through nginx and to the app alone. Hit ratio: the requests nginx logged as \`HIT\`,
\`UPDATING\` or \`STALE\` (\`$upstream_cache_status\`). CPU per request: app + its Postgres backends,
and nginx's processes when in front.

${table(
  ['what serves the page', 'requests/s', 'latency p50 / p99 (ms)', 'vs the app alone', 'CPU ms/request', 'cache'],
  [
    ['the app alone', fmt(aloneRate), `${fmt(alone.value.latency.p50, 1)} / ${fmt(alone.value.latency.p99, 1)}`, '1', fmt(a.cpuMsPerRequest, 2), ''],
    [
      'nginx (the docs example) in front',
      `**${fmt(proxiedRate)}**`,
      `${fmt(proxied.value.latency.p50, 1)} / ${fmt(proxied.value.latency.p99, 1)}`,
      `**${fmt(proxiedRate / aloneRate, 1)}**`,
      `${fmt(p.cpuMsPerRequest, 3)} (nginx ${fmt(p.nginxCpuMsPerRequest, 3)} + app and db ${fmt(p.appCpuMsPerRequestBehindCache, 3)})`,
      `hit ratio **${fmt(p.hitRatio * 100, 2)}%** (${Object.entries(counts)
        .map(([s, n]) => `${s || '-'} ${fmt(n)}`)
        .join(', ')})`,
    ],
  ],
)}

Checked before the load (the benchmark fails otherwise): ${checks.join('; ')}.

${codeBlock(['apt-get install -y nginx-light   # the benchmark needs /usr/sbin/nginx', `wrk -t 1 -c ${CONNECTIONS} -d ${SECONDS}s ${proxiedUrl}`])}`;
  } finally {
    const exited = new Promise<void>((resolve) => (nginx.child.exitCode !== null ? resolve() : nginx.child.once('exit', () => resolve())));
    nginx.child.kill('SIGQUIT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
  return { results, markdown };
};

// nginx -v writes to stderr.
const nginxVersion = () => /nginx\/([\d.]+)/.exec(spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr)?.[1] ?? '';

export default proxy;
