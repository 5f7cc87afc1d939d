// 2. List throughput: GET /v2/plots at 32 connections (autocannon) against pgbench running the same
// statement on the same database; 5. the server's RSS sampled under that load. A Next route that does
// nothing (OPTIONS) is measured too: the framework's own ceiling on this machine. Then the same load
// split over two app processes on the one database: the scale-out a single Node thread leaves.
import { listPageSql, recordSelect } from '@/lib/core/plots';
import { codeBlock, cpuPerRequest, cpuText, fmt, load, mb, memory, pgbench, resetPeak, sqlText, table, withCpu, type Benchmark } from './support';

const CONNECTIONS = 32;
const SECONDS = 10;

const listThroughput: Benchmark = async (ctx) => {
  await ctx.ensurePlots(ctx.plots);
  const url = `${ctx.url}/v2/plots`;
  await load({ url, connections: CONNECTIONS, duration: 3 });

  const idle = memory(ctx.serverPid)!.rssKb;
  resetPeak(ctx.serverPid);
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(memory(ctx.serverPid)?.rssKb ?? 0), 250);
  const { value: api, cpu: apiCpu } = await withCpu(ctx, ctx.serverPid, () => load({ url, connections: CONNECTIONS, duration: SECONDS }));
  clearInterval(sampler);
  const { hwmKb: peak, rssKb: after } = memory(ctx.serverPid)!;
  const meanRss = samples.reduce((a, b) => a + b, 0) / samples.length;

  const { value: noop, cpu: noopCpu } = await withCpu(ctx, ctx.serverPid, () => load({ url, method: 'OPTIONS', connections: CONNECTIONS, duration: 5 }));
  // As the Python client asks (requests sends `Accept-Encoding: gzip, deflate`): Next gzips each page.
  const gzipped = await load({ url, headers: { 'Accept-Encoding': 'gzip, deflate' }, connections: CONNECTIONS, duration: SECONDS });

  // Two processes, half the connections each, loaded at once.
  const second = await ctx.startServer();
  let pair: number[];
  try {
    const urls = [url, `${second.url}/v2/plots`];
    await Promise.all(urls.map((u) => load({ url: u, connections: CONNECTIONS / 2, duration: 3 })));
    pair = (await Promise.all(urls.map((u) => load({ url: u, connections: CONNECTIONS / 2, duration: SECONDS })))).map((r) => r.requests.average);
  } finally {
    await second.stop();
  }
  const twoRate = pair[0] + pair[1];
  const floor = await pgbench(ctx, 'list-page-1', `${sqlText(listPageSql(recordSelect(null), {}, null, ctx.url))};\n`, { clients: CONNECTIONS, threads: 2, seconds: SECONDS });

  const apiRate = api.requests.average;
  const cpu = { api: cpuPerRequest(apiCpu, api.requests.total), noop: cpuPerRequest(noopCpu, noop.requests.total), floor: cpuPerRequest(floor.cpu, floor.transactions) };
  const results = {
    api: { reqPerSec: apiRate, latencyP50: api.latency.p50, latencyP99: api.latency.p99, cpuMsPerRequest: cpu.api },
    noop: { reqPerSec: noop.requests.average, cpuMsPerRequest: cpu.noop },
    twoProcesses: { reqPerSec: twoRate, each: pair },
    gzip: { reqPerSec: gzipped.requests.average, bytesPerRequest: gzipped.throughput.total / gzipped.requests.total },
    floor: { tps: floor.tps, latencyMs: floor.latencyMs, cpuMsPerRequest: cpu.floor },
    ratio: apiRate / floor.tps,
    rss: { idleKb: idle, meanKb: meanRss, peakKb: peak, afterKb: after },
  };
  const markdown = `## 2. List throughput: \`GET /v2/plots\` at ${CONNECTIONS} connections

Page 1 (20 plots, anonymous) for ${SECONDS} s after 3 s of warm-up. Floor: pgbench with ${CONNECTIONS} clients
running the statement the endpoint runs (\`listPageSql\`, parameters written in). CPU per request: the app
process's and the bench database's Postgres backends', from /proc over the same run.

${table(
  ['what serves the page', 'requests/s', 'latency p50 / p99 (ms)', 'CPU ms / request (app + Postgres)', 'vs floor'],
  [
    ['the service (`next start`, autocannon)', `**${fmt(apiRate)}**`, `${fmt(api.latency.p50, 1)} / ${fmt(api.latency.p99, 1)}`, cpuText(cpu.api), `**${fmt(results.ratio, 3)}**`],
    ['the service, gzip asked for (as the Python client does)', fmt(gzipped.requests.average), `${fmt(gzipped.latency.p50, 1)} / ${fmt(gzipped.latency.p99, 1)}`, '', fmt(gzipped.requests.average / floor.tps, 3)],
    [`the service, two app processes on the one database (${CONNECTIONS / 2} connections each)`, `**${fmt(twoRate)}**`, '', '', `**${fmt(twoRate / floor.tps, 3)}**`],
    ['floor: pgbench, same SQL, same database', fmt(floor.tps), `${fmt(floor.latencyMs, 1)} (average)`, cpuText(cpu.floor), '1'],
    ['for scale: a Next route doing nothing (OPTIONS)', fmt(noop.requests.average), `${fmt(noop.latency.p50, 1)} / ${fmt(noop.latency.p99, 1)}`, cpuText(cpu.noop), fmt(noop.requests.average / floor.tps, 3)],
  ],
)}

${codeBlock([`npx autocannon -c ${CONNECTIONS} -d ${SECONDS} ${url}`, floor.command])}

## 5. Server memory under the list load

RSS of the process serving HTTP (\`next start\`'s server child), read from /proc every 250 ms during the
${SECONDS} s list load above; peak is the kernel's VmHWM since just before the load.

${table(
  ['idle before', 'mean under load', 'peak under load', 'after'],
  [[mb(idle), mb(meanRss), `**${mb(peak)}**`, mb(after)]],
)}`;
  return { results, markdown };
};

export default listThroughput;
