// 8. List page size: GET /v2/plots?page_size=100 against the default 20, one request at a time and
// at 32 connections, with the CPU each request costs the app and Postgres; the floor is pgbench
// running the endpoint's own statement (listPageSql) for the same page size.
import { listPageSql, recordSelect } from '@/lib/core/plots/plot-lists';
import { codeBlock, cpuDuring, fmt, load, pgbench, sequentialLatency, sqlText, table, type Benchmark } from './support';

const SIZES = [20, 100];
const CONNECTIONS = 32;
const SECONDS = 10;
const REQUESTS = 200;

const listPageSize: Benchmark = async (ctx) => {
  await ctx.ensurePlots(ctx.plots);
  const rows: (string | number)[][] = [];
  const results: Record<string, unknown> = {};
  const commands: string[] = [];
  for (const size of SIZES) {
    const url = `${ctx.url}/v2/plots?page_size=${size}`;
    const check = (await (await fetch(url)).json()) as { results: unknown[] };
    if (check.results.length !== size) throw new Error(`page_size=${size} answered ${check.results.length} plots`);
    await load({ url, connections: CONNECTIONS, duration: 3 });
    const latency = await sequentialLatency(url, REQUESTS);
    const api = await cpuDuring(ctx, ctx.appPids(), () => load({ url, connections: CONNECTIONS, duration: SECONDS }));
    const script = `${sqlText(listPageSql(recordSelect(null), { page_size: size }, null, ctx.url))};\n`;
    const floorOne = await pgbench(ctx, `list-page-size-${size}-one`, script, { clients: 1, seconds: 5 });
    const floor = await cpuDuring(ctx, [], () => pgbench(ctx, `list-page-size-${size}`, script, { clients: CONNECTIONS, threads: 2, seconds: SECONDS }));
    commands.push(floor.value.command);

    const requests = api.value.requests.total;
    const transactions = floor.value.tps * SECONDS;
    const service = {
      reqPerSec: api.value.requests.average,
      latencyP50: api.value.latency.p50,
      latencyP99: api.value.latency.p99,
      sequentialMs: latency,
      bytes: latency.bytes,
      cpuMsPerRequest: { app: (api.processSeconds * 1000) / requests, database: (api.databaseSeconds * 1000) / requests },
    };
    const floorResult = { tps: floor.value.tps, latencyMs: floorOne.latencyMs, cpuMsPerTransaction: (floor.databaseSeconds * 1000) / transactions };
    const serviceCpu = service.cpuMsPerRequest.app + service.cpuMsPerRequest.database;
    results[String(size)] = { service, floor: floorResult, ratio: service.reqPerSec / floorResult.tps, cpuRatio: serviceCpu / floorResult.cpuMsPerTransaction };
    rows.push([
      `${size}`,
      fmt(latency.bytes),
      fmt(latency.p50, 2),
      fmt(floorOne.latencyMs, 2),
      `**${fmt(service.reqPerSec)}**`,
      fmt(floorResult.tps),
      `**${fmt(service.reqPerSec / floorResult.tps, 3)}**`,
      `${fmt(serviceCpu, 2)} (${fmt(service.cpuMsPerRequest.app, 2)} + ${fmt(service.cpuMsPerRequest.database, 2)})`,
      fmt(floorResult.cpuMsPerTransaction, 2),
      `**${fmt(serviceCpu / floorResult.cpuMsPerTransaction, 1)}**`,
    ]);
  }
  const cpuOf = (size: number) => {
    const { app, database } = (results[String(size)] as { service: { cpuMsPerRequest: { app: number; database: number } } }).service.cpuMsPerRequest;
    return app + database;
  };
  const markdown = `## 8. List page size: \`GET /v2/plots?page_size=100\` against 20

Page 1, anonymous. One request at a time (${REQUESTS}, median ms to last byte) against pgbench with one
client (average latency); then ${CONNECTIONS} connections for ${SECONDS} s (wrk, after 3 s of warm-up)
against pgbench with ${CONNECTIONS} clients running the statement the endpoint runs (\`listPageSql\`,
parameters written in). CPU per request: the app's processes (user + system from /proc) + the
Postgres backends serving the bench database (pg_stat_activity, polled); the floor's is its backends'
alone. CPU per request is steadier than requests/s on a shared machine. The service keeps its
statement prepared for the default page size only (lib/core/plots/plot-lists.ts, \`preparedShape\`): Postgres
plans the 100-row page on every request, as it would for any size a caller picks.

${table(
  [
    'page_size',
    'bytes',
    'service ms (one at a time)',
    'floor ms',
    'service req/s',
    'floor tps',
    'service / floor',
    'service CPU ms/req (app + db)',
    'floor CPU ms/txn',
    'CPU service / floor',
  ],
  rows,
)}

Five times the rows cost the service ${fmt(cpuOf(100) / cpuOf(20), 1)}x the CPU per request.

${codeBlock([`wrk -t 1 -c ${CONNECTIONS} -d ${SECONDS}s '${ctx.url}/v2/plots?page_size=100'`, ...commands])}`;
  return { results, markdown };
};

export default listPageSize;
