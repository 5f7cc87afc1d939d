// 4. Create throughput with validation: POST /v2/plots of a 10-trace and a 1,000-trace figure (every
// trace on src references into one grid) against pgbench inserting the same figure JSON.
import { availableParallelism } from 'node:os';
import { sql } from 'drizzle-orm';
import { createUser } from '@/lib/core/accounts/users';
import { codeBlock, cpuPerRequest, cpuText, fmt, load, pgbench, table, withCpu, type Benchmark, type BenchContext } from './support';

const CONNECTIONS = 8;
const SECONDS = 10;
// Seconds of load before each measured run: a fresh process (or two) compiles its hot paths first,
// and V8 goes on optimizing them for a long while (see list-throughput.ts). A process's first run
// waits FIRST_WARM_UP: after 5 s the two fresh processes still took 2.94 ms of CPU a create, against
// 1.81 ms for the same processes later in the run.
const WARM_UP = 5;
const FIRST_WARM_UP = 30;
const COLUMNS = 20;

export function figureOf(traces: number, src: (i: number) => string) {
  return {
    data: Array.from({ length: traces }, (_, i) => ({
      type: 'scatter',
      mode: 'lines+markers',
      name: `series ${i}`,
      xsrc: src(0),
      ysrc: src(1 + (i % (COLUMNS - 1))),
      line: { width: 2, dash: i % 2 ? 'dot' : 'solid' },
      marker: { size: 6, symbol: 'circle' },
    })),
    layout: { title: { text: `${traces} series` }, xaxis: { title: { text: 'x' } }, yaxis: { title: { text: 'value' } }, showlegend: true },
  };
}

export async function uploadGrid(ctx: BenchContext) {
  const cols = Object.fromEntries(Array.from({ length: COLUMNS }, (_, c) => [`c${c}`, { data: Array.from({ length: 50 }, (_, i) => i * c), order: c }]));
  const res = await fetch(`${ctx.url}/v2/grids`, {
    method: 'POST',
    headers: { Authorization: ctx.user.auth, 'Content-Type': 'application/json' },
    // A fresh name each call: several benchmarks in one run upload one.
    body: JSON.stringify({ filename: `create bench grid ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, data: { cols } }),
  });
  if (res.status !== 201) throw new Error(`grid upload: ${res.status} ${await res.text()}`);
  const { file } = (await res.json()) as { file: { fid: string; cols: { name: string; uid: string }[] } };
  return (i: number) => `${file.fid}:${file.cols.find((c) => c.name === `c${i}`)!.uid}`;
}

const create: Benchmark = async (ctx) => {
  const src = await uploadGrid(ctx);
  const cores = availableParallelism();
  // As `npm start` serves: WEB_CONCURRENCY unset, one process per core (scripts/start.mjs).
  const cluster = await ctx.startServer({ WEB_CONCURRENCY: '' });
  const rows: (string | number)[][] = [];
  const results: Record<string, unknown> = {};
  const commands: string[] = [];
  try {
    // The floor numbers its files from a sequence far above the API's, so the two never collide.
    await ctx.database.db.execute(sql`CREATE SEQUENCE IF NOT EXISTS bench_floor_n START 1000000000`);
    // As many users as connections, each request the next one's: creates that need not wait on one
    // another (one user's are serialized on their users row until commit).
    const suffix = Math.random().toString(36).slice(2, 8);
    const users = await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, i) => {
        const { user, apiKey } = await createUser(ctx.database.db, { username: `benchcreate${i}x${suffix}` });
        return { Authorization: `Basic ${Buffer.from(`${user.username}:${apiKey}`).toString('base64')}` };
      }),
    );
    for (const traces of [10, 1000]) {
      const figure = figureOf(traces, src);
      const body = JSON.stringify({ figure, world_readable: true });
      const request = { method: 'POST', headers: { Authorization: ctx.user.auth, 'Content-Type': 'application/json' }, body, connections: CONNECTIONS };
      const warmUp = traces === 10 ? FIRST_WARM_UP : WARM_UP;
      await load({ ...request, url: `${cluster.url}/v2/plots`, duration: warmUp });
      const { value: api, cpu: apiCpu } = await withCpu(ctx, cluster.process.pid!, () =>
        load({ ...request, url: `${cluster.url}/v2/plots`, duration: SECONDS }),
      );
      await load({ ...request, url: `${ctx.url}/v2/plots`, duration: warmUp });
      const { value: one, cpu: oneCpu } = await withCpu(ctx, ctx.serverPid, () => load({ ...request, url: `${ctx.url}/v2/plots`, duration: SECONDS }));
      await load({ ...request, rotate: users, url: `${cluster.url}/v2/plots`, duration: WARM_UP });
      const { value: many, cpu: manyCpu } = await withCpu(ctx, cluster.process.pid!, () =>
        load({ ...request, rotate: users, url: `${cluster.url}/v2/plots`, duration: SECONDS }),
      );

      const refs = figure.data.flatMap((t, i) => [
        { p: ['data', i, 'xsrc'], s: t.xsrc },
        { p: ['data', i, 'ysrc'], s: t.ysrc },
      ]);
      const quote = (v: unknown) => `'${JSON.stringify(v).replace(/'/g, "''")}'`;
      const script = `WITH s AS (SELECT nextval('bench_floor_n')::int AS n),
  f AS (INSERT INTO files (owner_id, n, filetype, filename) SELECT ${ctx.user.id}, n, 'plot', 'floor ' || n FROM s RETURNING id)
  INSERT INTO plots (file_id, figure, src_refs, title) SELECT id, ${quote(figure)}::jsonb, ${quote(refs)}::jsonb, ${quote(figure.layout.title.text)} FROM f;
  `;
      const floor = await pgbench(ctx, `create-${traces}-traces`, script, { clients: CONNECTIONS, threads: 2, seconds: SECONDS });
      commands.push(floor.command);
      const rate = api.requests.average;
      const cpu = {
        api: cpuPerRequest(apiCpu, api.requests.total),
        one: cpuPerRequest(oneCpu, one.requests.total),
        many: cpuPerRequest(manyCpu, many.requests.total),
        floor: cpuPerRequest(floor.cpu, floor.transactions),
      };
      results[`${traces}`] = {
        bodyBytes: body.length,
        api: { processes: cores, reqPerSec: rate, latencyP50: api.latency.p50, latencyP99: api.latency.p99, cpuMsPerRequest: cpu.api },
        oneProcess: { reqPerSec: one.requests.average, latencyP50: one.latency.p50, latencyP99: one.latency.p99, cpuMsPerRequest: cpu.one },
        manyUsers: {
          users: users.length,
          reqPerSec: many.requests.average,
          latencyP50: many.latency.p50,
          latencyP99: many.latency.p99,
          cpuMsPerRequest: cpu.many,
        },
        floor: { ...floor, cpuMsPerRequest: cpu.floor },
        ratio: rate / floor.tps,
      };
      rows.push([
        `${fmt(traces)} traces (${fmt(body.length / 1024, 1)} KiB)`,
        `**${fmt(rate, rate < 100 ? 1 : 0)}**`,
        `${fmt(api.latency.p50, 1)} / ${fmt(api.latency.p99, 1)}`,
        cpuText(cpu.api),
        `${fmt(one.requests.average, one.requests.average < 100 ? 1 : 0)} (${cpuText(cpu.one)})`,
        `${fmt(many.requests.average, many.requests.average < 100 ? 1 : 0)} (${cpuText(cpu.many)}): ${fmt(many.requests.average / floor.tps, 3)}`,
        fmt(floor.tps, 0),
        cpuText(cpu.floor),
        `**${fmt(rate / floor.tps, 3)}**`,
      ]);
    }
  } finally {
    await cluster.stop();
  }
  const markdown = `## 4. Create throughput with validation: \`POST /v2/plots\`

${CONNECTIONS} connections from wrk for ${SECONDS} s (after ${FIRST_WARM_UP} s of warm-up for a process's first run, ${WARM_UP} s for the next ones), one user, every trace's \`xsrc\`/\`ysrc\`
pointing into one grid: the service parses the body, checks every attribute against plotly's schema,
checks the grid and its columns, writes the file and plot rows and answers the detail record; each write
is counted against its key's and its address's rate limits, as by default (limits set beyond reach). Floor:
pgbench inserting the same figure JSON (and the file row) with ${CONNECTIONS} clients. The service as
\`npm start\` runs it (one process per core, ${cores} here), and as one process (\`WEB_CONCURRENCY=1\`). CPU per
request: the app's processes' and the bench database's Postgres backends', from /proc over the same run.
One user's creates are serialized from numbering the file until commit (the numbers of their files have
no gaps), so ${CONNECTIONS} connections of one user wait on one another; the next column spreads the same
creates over ${CONNECTIONS} users, each request the next user's.

${table(['figure', `service creates/s (${cores} processes)`, 'latency p50 / p99 (ms)', 'service CPU ms / create (app + Postgres)', 'one process: creates/s (CPU ms)', `${CONNECTIONS} users in turn, ${cores} processes: creates/s (CPU ms): vs floor`, 'floor inserts/s', 'floor CPU ms / insert (Postgres)', 'service / floor'], rows)}

Goal for 10 traces: >= 0.1 of the floor.

${codeBlock(commands)}`;
  return { results, markdown };
};

export default create;
