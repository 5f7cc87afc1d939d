// 3. Content with inline_data=true on a plot over 2 columns of 10k, 100k and 1M values each: time to
// last byte, the server's CPU time and peak memory, as curl asks (no compression), as Python's
// requests asks (gzip, deflate) and as browsers ask (gzip, deflate, br), against psql COPY emitting
// the same two columns' stored data.
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import http from 'node:http';
import { codeBlock, cpuDuring, fmt, mb, memory, percentiles, psqlTimed, resetPeak, table, type Benchmark, type BenchContext } from './support';

const SIZES = [10_000, 100_000, 1_000_000];
const RUNS = 5;
const CPU_RUNS = 10;
const ASKS = [
  { name: 'identity', acceptEncoding: 'identity' },
  { name: 'gzip, deflate (Python requests)', acceptEncoding: 'gzip, deflate' },
  { name: 'gzip, deflate, br (browsers)', acceptEncoding: 'gzip, deflate, br' },
];

async function post(ctx: BenchContext, path: string, body: unknown) {
  const res = await fetch(`${ctx.url}${path}`, {
    method: 'POST',
    headers: { Authorization: ctx.user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text).file;
}

/** One GET: seconds to the last byte, the bytes as they came over the wire (not decoded) and their encoding. */
function wireGet(url: string, headers: Record<string, string>): Promise<{ seconds: number; bytes: number; encoding: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve({ seconds: (performance.now() - started) / 1000, bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') })
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** A grid of two columns of `values` numbers (of the width real measurements have, 7-8 characters) and a plot over them. */
async function makePlot(ctx: BenchContext, values: number) {
  const x = Array.from({ length: values }, (_, i) => i / 1000);
  const y = Array.from({ length: values }, (_, i) => ((i * 7919) % 1_000_003) / 1000);
  const grid = await post(ctx, '/v2/grids', { filename: `inline bench ${values}`, data: { cols: { x: { data: x, order: 0 }, y: { data: y, order: 1 } } } });
  const uid = (name: string) => grid.cols.find((c: { name: string }) => c.name === name).uid;
  const plot = await post(ctx, '/v2/plots', {
    filename: `inline bench plot ${values}`,
    figure: { data: [{ type: 'scattergl', mode: 'markers', xsrc: `${grid.fid}:${uid('x')}`, ysrc: `${grid.fid}:${uid('y')}` }] },
  });
  const columnIds = (
    await queryRows<{ id: string }>(
      ctx.database.db,
      sql`SELECT c.id FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.owner_id = ${ctx.user.id} AND f.n = ${Number(grid.fid.split(':')[1])} ORDER BY c.ord`,
    )
  ).map((r) => r.id);
  const url = `${ctx.url}/v2/plots/${plot.fid}/content?inline_data=true`;
  const answer = (await (await fetch(url, { headers: { Authorization: ctx.user.auth } })).json()) as { data: { x: number[]; y: number[] }[] };
  if (answer.data[0].x.length !== values || answer.data[0].y[values - 1] !== y[values - 1]) throw new Error('inline content does not hold the data');
  return {
    url,
    copy: `COPY (SELECT v.data FROM grid_columns c JOIN column_values v ON v.id = c.values_id WHERE c.id IN (${columnIds.join(', ')}) ORDER BY c.id) TO STDOUT`,
  };
}

/** RUNS requests one after another: median seconds, mean server CPU seconds, bytes, encoding, memory growth. */
async function measure(ctx: BenchContext, url: string, acceptEncoding: string) {
  const runs: { seconds: number; cpu: number; bytes: number; encoding: string; growthKb: number; peakKb: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const idleKb = memory(ctx.serverPid)!.rssKb;
    resetPeak(ctx.serverPid);
    const {
      value: got,
      processSeconds,
      databaseSeconds,
    } = await cpuDuring(ctx, ctx.appPids(), () => wireGet(url, { Authorization: ctx.user.auth, 'Accept-Encoding': acceptEncoding }));
    const peakKb = memory(ctx.serverPid)!.hwmKb;
    runs.push({ ...got, cpu: processSeconds + databaseSeconds, growthKb: peakKb - idleKb, peakKb });
  }
  return {
    seconds: percentiles(runs.map((r) => r.seconds)).p50,
    cpu: runs.reduce((a, r) => a + r.cpu, 0) / RUNS,
    bytes: runs[0].bytes,
    encoding: runs[0].encoding,
    growthKb: Math.max(...runs.map((r) => r.growthKb)),
    peakKb: Math.max(...runs.map((r) => r.peakKb)),
  };
}

const inline: Benchmark = async (ctx) => {
  const results: Record<string, unknown> = {};
  const rows: string[][] = [];
  const commands: string[] = [];
  for (const values of SIZES) {
    const { url, copy } = await makePlot(ctx, values);
    const floorRuns = [];
    for (let i = 0; i < RUNS; i++) floorRuns.push(await psqlTimed(ctx, copy));
    // The floor's CPU: its backend's, over CPU_RUNS COPYs in one session that then idles a moment so
    // the poll reads the backend's last figure before it exits.
    const floorCpu = await cpuDuring(ctx, [], () => psqlTimed(ctx, `${`${copy};`.repeat(CPU_RUNS)} SELECT pg_sleep(0.3)`));
    const floor = {
      seconds: percentiles(floorRuns.map((f) => f.seconds)).p50,
      bytes: floorRuns[0].bytes,
      peakKb: Math.max(...floorRuns.map((f) => f.peakRssKb)),
      cpu: floorCpu.databaseSeconds / CPU_RUNS,
    };
    const asked: Record<string, Awaited<ReturnType<typeof measure>>> = {};
    const serviceRows: string[][] = [];
    for (const ask of ASKS) {
      const m = await measure(ctx, url, ask.acceptEncoding);
      asked[ask.name] = m;
      serviceRows.push([
        fmt(values),
        ask.name,
        m.encoding,
        fmt(m.bytes),
        `**${fmt(m.seconds, 3)}**`,
        fmt(m.cpu * 1000),
        `+${mb(m.growthKb)} (peak ${mb(m.peakKb)})`,
        `**${fmt(m.seconds / floor.seconds, 2)}**`,
        `**${fmt(m.cpu / floor.cpu, 1)}**`,
      ]);
    }
    rows.push(...serviceRows, [
      fmt(values),
      'floor: psql COPY',
      '',
      fmt(floor.bytes),
      fmt(floor.seconds, 3),
      fmt(floor.cpu * 1000, 1),
      mb(floor.peakKb),
      '1',
      '1',
    ]);
    results[String(values)] = { asked, floor };
    if (values === SIZES[SIZES.length - 1])
      commands.push(`curl -s -o /dev/null -H 'Accept-Encoding: gzip' -w '%{time_total}\\n' '${url}'`, floorRuns[0].command);
  }
  const markdown = `## 3. Content with \`inline_data=true\`: 2 x ${SIZES.map((v) => fmt(v)).join(' / ')} values

\`GET /v2/plots/{fid}/content?inline_data=true\` on a scattergl plot whose x and y are two grid columns,
${RUNS} runs one after another per row (median time to last byte; the server's CPU time, mean per
request: the app's processes, user + system from /proc, and the Postgres backends serving the bench
database). Asked as curl does (no compression), as Python's requests does
(\`gzip, deflate\`) and as browsers do (\`gzip, deflate, br\`): bytes as they came over the wire.
Floor: psql \`COPY\` of the same two columns' stored data to stdout (the time includes starting psql;
its CPU is the backend's, over ${CPU_RUNS} COPYs in one session).
Memory: the server's peak RSS (VmHWM, reset before each request) above its RSS just before; psql's
whole peak RSS.

${table(['values per column', 'asked', 'encoding', 'bytes', 'time to last byte (s)', 'server CPU (ms)', 'memory', 'vs floor (time)', 'vs floor (CPU)'], rows)}

${codeBlock(commands)}`;
  return { results, markdown };
};

export default inline;
