// 3. Content with inline_data=true on a plot over 2 x 1,000,000 values: time to last byte and the
// server's peak memory, against psql COPY emitting the same two columns' stored data.
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import http from 'node:http';
import { codeBlock, fmt, mb, memory, percentiles, psqlTimed, resetPeak, table, type Benchmark, type BenchContext } from './support';

const VALUES = 1_000_000;
const RUNS = 5;

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

/** One GET: seconds to the last byte and the bytes as they came over the wire (not decompressed). */
function wireGet(url: string, headers: Record<string, string>): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => (res.statusCode === 200 ? resolve({ seconds: (performance.now() - started) / 1000, bytes }) : reject(new Error(`${url}: ${res.statusCode}`))));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const inline: Benchmark = async (ctx) => {
  // Numbers of the width real measurements have (7-8 characters each).
  const x = Array.from({ length: VALUES }, (_, i) => i / 1000);
  const y = Array.from({ length: VALUES }, (_, i) => ((i * 7919) % 1_000_003) / 1000);
  const grid = await post(ctx, '/v2/grids', { filename: 'inline bench', data: { cols: { x: { data: x, order: 0 }, y: { data: y, order: 1 } } } });
  const uid = (name: string) => grid.cols.find((c: { name: string }) => c.name === name).uid;
  const plot = await post(ctx, '/v2/plots', {
    filename: 'inline bench plot',
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
  if (answer.data[0].x.length !== VALUES || answer.data[0].y[VALUES - 1] !== y[VALUES - 1]) throw new Error('inline content does not hold the data');

  // As curl asks (no compression), and as the official clients and browsers ask (Python's requests
  // sends `gzip, deflate`): then Next gzips the answer on the way out, at its fixed level.
  const measure = async (acceptEncoding: string) => {
    const runs: { seconds: number; bytes: number; peakKb: number; idleKb: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const idleKb = memory(ctx.serverPid)!.rssKb;
      resetPeak(ctx.serverPid);
      const { seconds, bytes } = await wireGet(url, { Authorization: ctx.user.auth, 'Accept-Encoding': acceptEncoding });
      runs.push({ seconds, bytes, idleKb, peakKb: memory(ctx.serverPid)!.hwmKb });
    }
    return runs;
  };
  const service = await measure('identity');
  const gzipped = await measure('gzip, deflate');
  const copy = `COPY (SELECT data FROM grid_columns WHERE id IN (${columnIds.join(', ')}) ORDER BY id) TO STDOUT`;
  const floor = [];
  for (let i = 0; i < RUNS; i++) floor.push(await psqlTimed(ctx, copy));

  const time = percentiles(service.map((s) => s.seconds)).p50;
  const gzipTime = percentiles(gzipped.map((s) => s.seconds)).p50;
  const floorTime = percentiles(floor.map((f) => f.seconds)).p50;
  const growth = Math.max(...service.map((s) => s.peakKb - s.idleKb));
  const serverPeak = Math.max(...service.map((s) => s.peakKb));
  const floorPeak = Math.max(...floor.map((f) => f.peakRssKb));
  const results = { service, gzipped, floor, ratio: { time: time / floorTime, memory: growth / floorPeak, gzipTime: gzipTime / floorTime } };
  const markdown = `## 3. Content with \`inline_data=true\`: 2 x ${fmt(VALUES)} values

\`GET /v2/plots/{fid}/content?inline_data=true\` on a scattergl plot whose x and y are two grid columns of
${fmt(VALUES)} numbers each, ${RUNS} runs one after another (median time to last byte). Floor: psql
\`COPY\` of the same two columns' stored data to stdout (the time includes starting psql). Memory: the
server's peak RSS (VmHWM, reset before each request) above its RSS just before; psql's whole peak RSS.
A client that asks for gzip gets Next's own compression (zlib level 6; a route handler cannot send its
own \`Content-Encoding\`): about a quarter of the bytes for several times the server's CPU.

${table(
  ['', 'time to last byte (s)', 'bytes', 'memory', 'vs floor (time)', 'vs floor (memory)'],
  [
    ['the service', `**${fmt(time, 3)}**`, fmt(service[0].bytes), `+${mb(growth)} (peak ${mb(serverPeak)})`, `**${fmt(results.ratio.time, 2)}**`, `**${fmt(results.ratio.memory, 2)}**`],
    ['the service, gzip asked for (as Python and browsers do)', fmt(gzipTime, 3), `${fmt(gzipped[0].bytes)} on the wire`, '', fmt(results.ratio.gzipTime, 2), ''],
    ['floor: psql COPY', fmt(floorTime, 3), fmt(floor[0].bytes), mb(floorPeak), '1', '1'],
  ],
)}

${codeBlock([`curl -s -o /dev/null -w '%{time_total}\\n' '${url}'`, floor[0].command])}`;
  return { results, markdown };
};

export default inline;
