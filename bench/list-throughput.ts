// 2. List throughput: GET /v2/plots at 32 connections (wrk) against pgbench running the same
// statement on the same database, served as `npm start` serves (a process per core) and by one
// process; 5. the one process's RSS sampled under its load. A Next route that does nothing (OPTIONS)
// is measured too: the framework's own ceiling on this machine. The one process is loaded by
// autocannon as well, the Node load generator earlier runs used, to show what the generator takes.
import { availableParallelism } from 'node:os';
import { listPageSql, recordSelect } from '@/lib/core/plots/plot-lists';
import {
  autocannonLoad,
  codeBlock,
  cpuPerRequest,
  cpuText,
  fmt,
  load,
  mb,
  memory,
  pgbench,
  resetPeak,
  sqlText,
  table,
  withCpu,
  type Benchmark,
} from './support';

const CONNECTIONS = 32;
const SECONDS = 10;
// Seconds of load before the measured runs. V8 goes on optimizing the request path for a long while
// (about a hundred functions compiled in the second 10 s of load): 10 s measured after 5 s of warm-up
// cost 15-20% more CPU a request than later runs, and after 20 s the first 10 s still served 9% fewer
// requests than the two runs after them. A server that runs for days is measured warm.
const WARM_UP = 30;
// The service and its floor alternate this many times, each pair a ratio; the median pair is reported.
// The floor alone moved by 20% between runs on this machine (2,323 to 2,782 tps), and adjacent runs
// share whatever else the machine was doing.
const PAIRS = 3;

const listThroughput: Benchmark = async (ctx) => {
  await ctx.ensurePlots(ctx.plots);
  const single = `${ctx.url}/v2/plots`;
  const cores = availableParallelism();
  // As `npm start` serves: WEB_CONCURRENCY unset, one process per core (scripts/start.mjs).
  const cluster = await ctx.startServer({ WEB_CONCURRENCY: '' });
  try {
    const url = `${cluster.url}/v2/plots`;
    const floorSql = `${sqlText(listPageSql(recordSelect(null), {}, null, ctx.url))};\n`;
    await load({ url, connections: CONNECTIONS, duration: WARM_UP });
    const pairs = [];
    for (let i = 0; i < PAIRS; i++) {
      const service = await withCpu(ctx, cluster.process.pid!, () => load({ url, connections: CONNECTIONS, duration: SECONDS }));
      const floor = await pgbench(ctx, 'list-page-1', floorSql, { clients: CONNECTIONS, threads: 2, seconds: SECONDS });
      pairs.push({ api: service.value, apiCpu: service.cpu, floor, ratio: service.value.requests.average / floor.tps });
    }
    const { api, apiCpu, floor } = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(PAIRS / 2)];
    // As the Python client asks (requests sends `Accept-Encoding: gzip, deflate`): gzip level 1.
    const gzipped = await load({ url, headers: { 'Accept-Encoding': 'gzip, deflate' }, connections: CONNECTIONS, duration: SECONDS });
    const { value: noop, cpu: noopCpu } = await withCpu(ctx, cluster.process.pid!, () =>
      load({ url, method: 'OPTIONS', connections: CONNECTIONS, duration: 5 }),
    );

    // One process (WEB_CONCURRENCY=1), its memory sampled under the load.
    await load({ url: single, connections: CONNECTIONS, duration: WARM_UP });
    const idle = memory(ctx.serverPid)!.rssKb;
    resetPeak(ctx.serverPid);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(memory(ctx.serverPid)?.rssKb ?? 0), 250);
    const { value: one, cpu: oneCpu } = await withCpu(ctx, ctx.serverPid, () => load({ url: single, connections: CONNECTIONS, duration: SECONDS }));
    clearInterval(sampler);
    const { hwmKb: peak, rssKb: after } = memory(ctx.serverPid)!;
    const meanRss = samples.reduce((a, b) => a + b, 0) / samples.length;
    const { value: oneAc, cpu: oneAcCpu } = await withCpu(ctx, ctx.serverPid, () =>
      autocannonLoad({ url: single, connections: CONNECTIONS, duration: SECONDS }),
    );

    const cpu = {
      api: cpuPerRequest(apiCpu, api.requests.total),
      noop: cpuPerRequest(noopCpu, noop.requests.total),
      one: cpuPerRequest(oneCpu, one.requests.total),
      oneAutocannon: cpuPerRequest(oneAcCpu, oneAc.requests.total),
      floor: cpuPerRequest(floor.cpu, floor.transactions),
    };
    const ratio = (rate: number) => rate / floor.tps;
    const results = {
      processes: cores,
      api: { reqPerSec: api.requests.average, latencyP50: api.latency.p50, latencyP99: api.latency.p99, cpuMsPerRequest: cpu.api },
      gzip: { reqPerSec: gzipped.requests.average, bytesPerRequest: gzipped.throughput.total / gzipped.requests.total },
      noop: { reqPerSec: noop.requests.average, cpuMsPerRequest: cpu.noop },
      oneProcess: { reqPerSec: one.requests.average, latencyP50: one.latency.p50, latencyP99: one.latency.p99, cpuMsPerRequest: cpu.one },
      oneProcessAutocannon: { reqPerSec: oneAc.requests.average, cpuMsPerRequest: cpu.oneAutocannon },
      floor: { tps: floor.tps, latencyMs: floor.latencyMs, cpuMsPerRequest: cpu.floor },
      ratio: ratio(api.requests.average),
      pairs: pairs.map((p) => ({
        reqPerSec: p.api.requests.average,
        floorTps: p.floor.tps,
        ratio: p.ratio,
        cpuMsPerRequest: cpuPerRequest(p.apiCpu, p.api.requests.total),
      })),
      rss: { idleKb: idle, meanKb: meanRss, peakKb: peak, afterKb: after },
    };
    const row = (what: string, r: typeof api, c: { appMs: number; pgMs: number } | null, bold = false) => {
      const b = (text: string) => (bold ? `**${text}**` : text);
      return [
        what,
        b(fmt(r.requests.average)),
        `${fmt(r.latency.p50, 1)} / ${fmt(r.latency.p99, 1)}`,
        c ? cpuText(c) : '',
        b(fmt(ratio(r.requests.average), 3)),
      ];
    };
    const markdown = `## 2. List throughput: \`GET /v2/plots\` at ${CONNECTIONS} connections

Page 1 (20 plots, anonymous) for ${SECONDS} s after ${WARM_UP} s of warm-up, from wrk (C, one thread; it takes
about a third of autocannon's CPU per request on the cores the app and Postgres share). The service
as \`npm start\` runs it: one process per core (${cores} here, Node's cluster), and as one process
(\`WEB_CONCURRENCY=1\`). Floor: pgbench with ${CONNECTIONS} clients running the statement the endpoint
runs (\`listPageSql\`, parameters written in). The service and the floor ran ${PAIRS} times in turn;
the first row and the floor are the pair with the median ratio (the pairs: ${pairs.map((p) => `${fmt(p.api.requests.average)} against ${fmt(p.floor.tps)}, ${fmt(p.ratio, 3)}`).join('; ')}).
CPU per request: the app's processes' and the bench database's Postgres backends', from /proc over the same run.

${table(
  ['what serves the page', 'requests/s', 'latency p50 / p99 (ms)', 'CPU ms / request (app + Postgres)', 'vs floor'],
  [
    row(`the service as \`npm start\` serves it (${cores} processes)`, api, cpu.api, true),
    row(`the same, gzip asked for (as the Python client does)`, gzipped, null),
    row('one app process (`WEB_CONCURRENCY=1`)', one, cpu.one),
    row('one app process, loaded by autocannon instead (as runs before 2026-11-25)', oneAc, cpu.oneAutocannon),
    ['floor: pgbench, same SQL, same database', fmt(floor.tps), `${fmt(floor.latencyMs, 1)} (average)`, cpuText(cpu.floor), '1'],
    row(`for scale: a Next route doing nothing (OPTIONS), ${cores} processes`, noop, cpu.noop),
  ],
)}

Goal: >= 0.4 of the floor.

${codeBlock([
  `WEB_CONCURRENCY= node --max-semi-space-size=32 scripts/start.mjs -p ${new URL(cluster.url).port} -H 127.0.0.1   # as npm start does, DATABASE_URL set`,
  `wrk -t 1 -c ${CONNECTIONS} -d ${SECONDS}s ${url}`,
  floor.command,
])}

## 5. Server memory under the list load

RSS of one app process (\`WEB_CONCURRENCY=1\`) serving HTTP, read from /proc every 250 ms during the
${SECONDS} s list load above; peak is the kernel's VmHWM since just before the load.

${table(['idle before', 'mean under load', 'peak under load', 'after'], [[mb(idle), mb(meanRss), `**${mb(peak)}**`, mb(after)]])}`;
    return { results, markdown };
  } finally {
    await cluster.stop();
  }
};

export default listThroughput;
