// 15. Charts of any size (issue 39), the storage half: a grid of 1,000,000 and of 10,000,000 rows (a
// time column and three value columns) imported through the API's column verbs (the grid created
// empty, then one column a request, as the clients' append_columns and the web import send long
// columns), against PostgreSQL's COPY of the same CSV into a plain 4-column table; then what a view
// reads of the 10,000,000-row column from its blocks (lib/core/grids/column-blocks.ts): the floor (one
// statement reading every block's min and max), the overview's extremes and a zoom window's.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { createUser } from '@/lib/core/accounts/users';
import { blockExtremesOfColumn, blockSeries } from '@/lib/core/grids/column-blocks';
import { columnValues } from '@/lib/shared/column-values';
import { seriesOf } from '@/lib/shared/series-blocks';
import { fmt, mb, table, withMemory, type Benchmark, type BenchContext } from './support';

const SIZES = [1_000_000, 10_000_000];
const GOAL_RATIO = 3;
const READS = 5;
const START = Date.UTC(2020, 0, 1);
const NAMES = ['time', 'a', 'b', 'c'];

/** The columns' json texts and the same rows as a CSV file (a fixed pseudo-random sequence). */
async function makeData(dir: string, rows: number): Promise<{ texts: string[]; csv: string }> {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const time = new Array<string>(rows);
  const values = [0, 1, 2].map(() => new Array<string>(rows));
  for (let i = 0; i < rows; i++) {
    time[i] = new Date(START + i * 1000).toISOString().slice(0, 19).replace('T', ' ');
    for (const v of values) v[i] = (next() * 10000).toFixed(3);
  }
  const csv = path.join(dir, `columns-${rows}.csv`);
  const out = createWriteStream(csv);
  out.write(`${NAMES.join(',')}\n`);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += `${time[i]},${values[0][i]},${values[1][i]},${values[2][i]}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((r) => out.once('finish', () => r()));
  return { texts: [`[${time.map((t) => `"${t}"`).join(',')}]`, ...values.map((v) => `[${v.join(',')}]`)], csv };
}

/** The API: POST /v2/grids (empty), then POST /v2/grids/{fid}/col one column at a time; ms and the grid's fid. */
async function apiImport(ctx: BenchContext, auth: string, texts: string[], name: string): Promise<{ ms: number; fid: string; requests: number[] }> {
  const headers = { Authorization: auth, 'Content-Type': 'application/json' };
  const started = performance.now();
  const created = await fetch(`${ctx.url}/v2/grids`, { method: 'POST', headers, body: `{"filename":${JSON.stringify(name)},"data":{"cols":{}}}` });
  if (created.status !== 201) throw new Error(`POST /v2/grids: ${created.status} ${await created.text()}`);
  const { file } = (await created.json()) as { file: { fid: string } };
  const requests: number[] = [];
  for (const [k, text] of texts.entries()) {
    const at = performance.now();
    const res = await fetch(`${ctx.url}/v2/grids/${file.fid}/col`, { method: 'POST', headers, body: `{"cols":[{"name":"${NAMES[k]}","data":${text}}]}` });
    if (res.status !== 201) throw new Error(`POST /v2/grids/{fid}/col: ${res.status} ${(await res.text()).slice(0, 300)}`);
    requests.push(performance.now() - at);
  }
  return { ms: performance.now() - started, fid: file.fid, requests };
}

/** psql's COPY of the CSV from standard input into a plain table, in ms (the client's whole run). */
async function copyImport(ctx: BenchContext, csv: string): Promise<number> {
  await ctx.database.db.execute(sql`DROP TABLE IF EXISTS bench_columns_copy`);
  await ctx.database.db.execute(sql`CREATE TABLE bench_columns_copy (time timestamp, a double precision, b double precision, c double precision)`);
  const url = new URL(ctx.databaseUrl);
  const args = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username) || 'postgres', '-d', ctx.dbName];
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn('psql', [...args, '-c', 'COPY bench_columns_copy FROM STDIN WITH (FORMAT csv, HEADER true)'], { stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited ${code}`))));
    createReadStream(csv).pipe(child.stdin);
  });
  const ms = performance.now() - started;
  await ctx.database.db.execute(sql`DROP TABLE bench_columns_copy`);
  return ms;
}

/** Where a request's CPU goes, for the largest size: its steps run once here, in the bench process (a worker does them in the app). */
function steps(texts: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const time = <T>(name: string, work: () => T): T => {
    const started = performance.now();
    const value = work();
    out[name] = performance.now() - started;
    return value;
  };
  for (const [name, text] of [
    ['time', texts[0]],
    ['a', texts[1]],
  ] as const) {
    const values = time(`${name}: JSON.parse`, () => JSON.parse(text) as unknown[]);
    time(`${name}: columnValues (checks, stored text, blocks)`, () => columnValues(values));
    time(`${name}: of which the blocks' values (seriesOf)`, () => seriesOf(values));
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(work: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < READS; i++) {
    const started = performance.now();
    await work();
    ms.push(performance.now() - started);
  }
  return median(ms);
}

const bench: Benchmark = async (ctx) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-columns-'));
  const results: Record<string, unknown> = {};
  const importRows: (string | number)[][] = [];
  const readRows: (string | number)[][] = [];
  let cpu: Record<string, number> = {};
  try {
    for (const rows of SIZES) {
      ctx.log(`columns: ${rows.toLocaleString('en-US')} rows`);
      const { texts, csv } = await makeData(dir, rows);
      // A person each: a 10,000,000-row grid of these columns is about half of one person's 1 GiB.
      const { user, apiKey } = await createUser(ctx.database.db, { username: `columns${rows}` });
      const auth = `Basic ${Buffer.from(`${user.username}:${apiKey}`).toString('base64')}`;
      const copyMs = await copyImport(ctx, csv);
      // The app's peak memory while it takes the columns (its body worker is a thread of the same process).
      const { value: api, beforeKb, peakKb } = await withMemory(ctx.serverPid, () => apiImport(ctx, auth, texts, `columns ${rows}`));
      const [owner, n] = api.fid.split(':');
      const cols = await queryRows<{ name: string; values_id: string; bytes: string; blocks: string }>(
        ctx.database.db,
        sql`SELECT c.name, c.values_id, c.bytes::text AS bytes,
                   (SELECT coalesce(sum(octet_length(b.raw) + octet_length(b.stretches) + 40), 0) FROM column_blocks b WHERE b.values_id = c.values_id)::text AS blocks
            FROM grid_columns c JOIN files f ON f.id = c.grid_id JOIN users u ON u.id = f.owner_id WHERE u.username = ${owner} AND f.n = ${Number(n)} ORDER BY c.ord`,
      );
      const textBytes = cols.reduce((s, c) => s + Number(c.bytes), 0);
      const blockBytes = cols.reduce((s, c) => s + Number(c.blocks), 0);
      const csvBytes = statSync(csv).size;
      importRows.push([
        fmt(rows),
        `${fmt(csvBytes / 2 ** 20)} MiB`,
        fmt(copyMs),
        fmt(api.ms),
        api.requests.map((r) => fmt(r)).join(' / '),
        `${fmt(api.ms / copyMs, 1)} x`,
        `${fmt(textBytes / 2 ** 20)} + ${fmt(blockBytes / 2 ** 20)} MiB`,
        `${mb(beforeKb)} -> ${mb(peakKb)}`,
      ]);
      results[`import_${rows}`] = { rows, csvBytes, copyMs, apiMs: api.ms, requestsMs: api.requests, textBytes, blockBytes, beforeKb, peakKb };

      const a = Number(cols.find((c) => c.name === 'a')!.values_id);
      const source = (await blockSeries(ctx.database.db, a))!;
      const time = (await blockSeries(ctx.database.db, Number(cols[0].values_id)))!;
      const zoom = [Math.floor(rows / 2), Math.floor(rows / 2) + Math.floor(rows / 200)];
      const reads = {
        floorMs: await timed(() => blockExtremesOfColumn(ctx.database.db, a)),
        overviewMs: await timed(() => source.extremes(0, rows, 2000)),
        zoomExtremesMs: await timed(() => source.extremes(zoom[0], zoom[1], 2000)),
        zoomRowsMs: await timed(() => source.rows(zoom[0], zoom[0] + 50_000)),
        rowAtOrAfterMs: await timed(() => time.rowAtOrAfter(START + (rows / 3) * 1000)),
      };
      readRows.push([
        fmt(rows),
        fmt(reads.floorMs, 1),
        fmt(reads.overviewMs, 1),
        fmt(reads.zoomExtremesMs, 1),
        fmt(reads.zoomRowsMs, 1),
        fmt(reads.rowAtOrAfterMs, 1),
      ]);
      results[`reads_${rows}`] = reads;
      if (rows === SIZES.at(-1)) results.steps = cpu = steps(texts);
      rmSync(csv);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const markdown = [
    '## Long columns: import by the column verbs vs COPY, and reads from blocks',
    '',
    `A grid of a time column ("yyyy-mm-dd hh:mm:ss") and three value columns (numbers of 7-8 digits), created empty by POST /v2/grids and then one column a request by POST /v2/grids/{fid}/col (each long column is stored as its json text and, beside it, in blocks of 4,096 float64s with their extremes), against psql's COPY of the same CSV into a table of timestamp and 3 float8 columns. Goal: within ${GOAL_RATIO} x COPY.`,
    '',
    table(['rows', 'CSV', 'COPY ms', 'API ms', 'each request ms', 'API / COPY', 'stored: text + blocks', 'app RSS: before -> peak'], importRows),
    '',
    `Reads of one 'a' column from its blocks (lib/core/grids/column-blocks.ts), median of ${READS}, in the bench process: the floor (one statement: every block's min and max), the overview (extremes of all rows in about 2,000 stretches), a zoom window of 0.5% of the rows (extremes in about 2,000 stretches, and 50,000 raw rows), and rowAtOrAfter on the sorted time column.`,
    '',
    table(['rows', 'floor ms', 'overview extremes ms', 'zoom extremes ms', 'zoom 50k rows ms', 'rowAtOrAfter ms'], readRows),
    '',
    `Where a ${fmt(SIZES.at(-1)!)}-row column's request spends its CPU before the database (each step once, in the bench process; the app runs them in a body worker): the gap to COPY is these steps (the values parsed, checked, turned back into the stored text and into float64s by the app's number and date rules, \`valueKind\` and plotly's date reading, each over every value) and the database's own json parsing of the stored text, which COPY of a float8 or timestamp column does not do.`,
    '',
    table(
      ['step', 'ms'],
      Object.entries(cpu).map(([k, v]) => [k, fmt(v)]),
    ),
  ].join('\n');
  return { results, markdown };
};

export default bench;
