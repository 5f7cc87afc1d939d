// 1. List depth: latency of page 1 vs a page 50,000 deep (or the last full page when the set is
// shorter), in every order, one request at a time; the floor is pgbench running the endpoint's own
// statement (lib/core/plots/plot-lists.ts listPageSql) for the same two pages.
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { encodeCursor, type Cursor } from '@/lib/core/cursors';
import { listPageSql, recordSelect, type ListQuery, type Order } from '@/lib/core/plots/plot-lists';
import { codeBlock, cpuDuring, fmt, pgbench, sequentialLatency, sqlText, table, type Benchmark } from './support';

const PAGE_SIZE = 20;
const DEPTH_PAGE = 50_000;
const REQUESTS = 200;
const FLOOR_SECONDS = 5;

const ORDER_BY: Record<Order, string> = {
  '-creation_time': 'p.created_at DESC, p.file_id DESC',
  '-views': 'p.views DESC, p.created_at DESC, p.file_id DESC',
  views: 'p.views ASC, p.created_at DESC, p.file_id DESC',
  '-stars': 'p.stars DESC, p.created_at DESC, p.file_id DESC',
  stars: 'p.stars ASC, p.created_at DESC, p.file_id DESC',
};

const listDepth: Benchmark = async (ctx) => {
  await ctx.ensurePlots(ctx.plots);
  const { db } = ctx.database;
  const [{ listed }] = await queryRows<{ listed: number }>(db, sql`SELECT count(*)::int AS listed FROM plots WHERE listed`);
  // The cursor that opens the deep page carries the key of the row just before it.
  const offset = Math.min((DEPTH_PAGE - 1) * PAGE_SIZE, listed - PAGE_SIZE);
  const page = Math.floor(offset / PAGE_SIZE) + 1;
  ctx.log(`${listed} listed plots; deep page ${page} (rows ${offset + 1}-${offset + PAGE_SIZE})`);
  const origin = ctx.url;
  const rows: (string | number)[][] = [];
  const results: Record<string, unknown> = { listed, page, pageSize: PAGE_SIZE };
  const commands: string[] = [];
  for (const order of Object.keys(ORDER_BY) as Order[]) {
    const [key] = await queryRows<{ created: string; file_id: string; views: string; stars: string }>(
      db,
      sql`SELECT to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created, p.file_id, p.views, p.stars
          FROM plots p WHERE p.listed ORDER BY ${sql.raw(ORDER_BY[order])} OFFSET ${offset - 1} LIMIT 1`,
    );
    const k =
      order === '-creation_time'
        ? [key.created, Number(key.file_id)]
        : [Number(order.endsWith('stars') ? key.stars : key.views), key.created, Number(key.file_id)];
    const cursor: Cursor = { o: order, d: 'n', k };
    const q: ListQuery = order === '-creation_time' ? {} : { order_by: order };
    const base = `${ctx.url}/v2/plots${q.order_by ? `?order_by=${q.order_by}` : ''}`;
    const deepUrl = `${base}${q.order_by ? '&' : '?'}cursor=${await encodeCursor(db, cursor)}`;

    const check = (await (await fetch(deepUrl)).json()) as { results: unknown[] };
    if (check.results.length !== PAGE_SIZE) throw new Error(`deep page of ${order} has ${check.results.length} results`);
    await sequentialLatency(base, 20);
    const firstRun = await cpuDuring(ctx, ctx.appPids(), () => sequentialLatency(base, REQUESTS));
    const deepRun = await cpuDuring(ctx, ctx.appPids(), () => sequentialLatency(deepUrl, REQUESTS));
    const [first, deep] = [firstRun.value, deepRun.value];

    const name = `list-depth${order.replace(/^-?/, (m) => (m ? '-desc-' : '-'))}`;
    const floorFirstRun = await cpuDuring(ctx, [], () =>
      pgbench(ctx, `${name}-page-1`, `${sqlText(listPageSql(recordSelect(null), q, null, origin))};\n`, { clients: 1, seconds: FLOOR_SECONDS }),
    );
    const floorDeepRun = await cpuDuring(ctx, [], () =>
      pgbench(ctx, `${name}-page-${page}`, `${sqlText(listPageSql(recordSelect(null), q, cursor, origin))};\n`, { clients: 1, seconds: FLOOR_SECONDS }),
    );
    const [floorFirst, floorDeep] = [floorFirstRun.value, floorDeepRun.value];
    commands.push(floorFirst.command, floorDeep.command);
    // CPU ms per request: the app's processes and its Postgres backends; the floor's backend per transaction.
    const cpu = {
      service: {
        first: ((firstRun.processSeconds + firstRun.databaseSeconds) * 1000) / REQUESTS,
        deep: ((deepRun.processSeconds + deepRun.databaseSeconds) * 1000) / REQUESTS,
      },
      floor: {
        first: (floorFirstRun.databaseSeconds * 1000) / (floorFirst.tps * FLOOR_SECONDS),
        deep: (floorDeepRun.databaseSeconds * 1000) / (floorDeep.tps * FLOOR_SECONDS),
      },
    };

    results[order] = { service: { first, deep }, floor: { first: floorFirst.latencyMs, deep: floorDeep.latencyMs }, cpuMsPerRequest: cpu };
    rows.push([
      `\`${order}\``,
      fmt(first.p50, 2),
      fmt(deep.p50, 2),
      `**${fmt(deep.p50 / first.p50, 2)}**`,
      fmt(floorFirst.latencyMs, 2),
      fmt(floorDeep.latencyMs, 2),
      fmt(floorDeep.latencyMs / floorFirst.latencyMs, 2),
      fmt(deep.p50 / floorDeep.latencyMs, 1),
      `${fmt(cpu.service.first, 2)} / ${fmt(cpu.service.deep, 2)}`,
      `${fmt(cpu.floor.first, 3)} / ${fmt(cpu.floor.deep, 3)}`,
      fmt(cpu.service.deep / cpu.floor.deep, 1),
    ]);
  }
  const worst = Math.max(
    ...(Object.keys(ORDER_BY) as Order[]).map((o) => {
      const r = results[o] as { service: { first: { p50: number }; deep: { p50: number } } };
      return r.service.deep.p50 / r.service.first.p50;
    }),
  );
  results.worstDeepOverFirst = worst;
  const markdown = `## 1. List depth: page 1 vs page ${fmt(page)} (${fmt(listed)} listed plots)

\`GET /v2/plots\` one request at a time (${REQUESTS} each, after 20 to warm up), page 1 against page
${fmt(page)} (rows ${fmt(offset + 1)}-${fmt(offset + PAGE_SIZE)}; ${fmt(DEPTH_PAGE)} pages deep when the set is that large), opened with a
cursor as \`next\` links carry it. Floor: pgbench, one client, running the statement the endpoint runs
(\`listPageSql\` in lib/core/plots/plot-lists.ts, parameters written in) for the same two pages. Times in ms (service:
median to last byte; floor: pgbench's average latency). CPU per request: the app's processes (user +
system from /proc) and the Postgres backends serving the bench database; the floor's: its backend's
per transaction. CPU per request is steadier than time on a shared machine.

${table(['order', 'service page 1', 'service deep', 'service deep / page 1', 'floor page 1', 'floor deep', 'floor deep / page 1', 'service / floor (deep)', 'service CPU ms/req (page 1 / deep)', 'floor CPU ms/txn (page 1 / deep)', 'CPU service / floor (deep)'], rows)}

Goal: deep / page 1 <= 1.2 in every order: ${worst <= 1.2 ? 'met' : '**missed**'} (worst ${fmt(worst, 2)}).

${codeBlock(commands)}`;
  return { results, markdown };
};

export default listDepth;
