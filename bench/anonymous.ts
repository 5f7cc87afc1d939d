// 15. What an anonymous GET costs when the author chose the largest content allowed: a presentation at
// the content limit (1 MiB of slides), its card image, a dashboard's card, and a public grid of
// 10,000 columns read whole (its content; its version as its writer reads it). One request at a time,
// milliseconds to the last byte and CPU per request (app + Postgres); the grid's floor is psql reading
// every column's stored text in one statement.
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { CONTENT_LIMITS } from '@/lib/shared/limits';
import { MAX_COLUMNS } from '@/lib/core/grids/grid-input';
import { cpuPerRequest, cpuText, fmt, psqlTimed, table, withCpu, sequentialLatency, type Benchmark, type Latency } from './support';

const REQUESTS = 30;

const anonymous: Benchmark = async (ctx) => {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${ctx.url}${path}`, {
      method: 'POST',
      headers: { Authorization: ctx.user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as { file: { fid: string; web_url: string } };
  };
  const nOf = (fid: string) => Number(fid.split(':')[1]);

  // As many small children as fit: the most a page once had to render (every child of every slide).
  const child = (s: number, c: number) => ({
    type: 'Text',
    props: { style: { left: `${c % 10}0%`, top: `${Math.floor(c / 10)}0%`, width: '9%', height: '9%' } },
    children: [`s${s}c${c}`],
  });
  const slides: { children: ReturnType<typeof child>[] }[] = [];
  let bytes = 40;
  for (let s = 0; s < CONTENT_LIMITS.slides; s++) {
    const children = [];
    for (let c = 0; c < CONTENT_LIMITS.slideChildren; c++) {
      const size = JSON.stringify(child(s, c)).length + 1;
      if (bytes + size + 20 > CONTENT_LIMITS.bytes) break;
      bytes += size;
      children.push(child(s, c));
    }
    if (!children.length) break;
    slides.push({ children });
    bytes += 16;
  }
  const deckContent = JSON.stringify({ presentation: { slides } });
  const deck = await post('/v2/spectacle-presentations', { content: deckContent, filename: 'bench deck', world_readable: true });
  const children = slides.reduce((n, s) => n + s.children.length, 0);
  ctx.log(`presentation: ${fmt(deckContent.length)} bytes, ${slides.length} slides, ${fmt(children)} children`);

  // A dashboard of as many text boxes as allowed (no plot: its card is the drawn picture).
  // A balanced split tree (JSON nesting is bounded at 100 levels).
  type Node = { type: string; [k: string]: unknown };
  const tree = (from: number, to: number, depth: number): Node => {
    if (to - from === 1) return { type: 'box', boxType: 'text', text: `box ${from}`, title: `box ${from}` };
    const mid = Math.floor((from + to) / 2);
    return {
      type: 'split',
      direction: depth % 2 ? 'vertical' : 'horizontal',
      size: 50,
      sizeUnit: '%',
      first: tree(from, mid, depth + 1),
      second: tree(mid, to, depth + 1),
    };
  };
  const layout = tree(0, CONTENT_LIMITS.boxes, 0);
  const board = await post('/v2/dashboards', { content: JSON.stringify({ layout, version: 2, settings: {} }), filename: 'bench board', world_readable: true });

  // A public grid of the most columns allowed, 10 values each.
  const cols = Object.fromEntries(
    Array.from({ length: MAX_COLUMNS }, (_, i) => [`c${i}`, { data: Array.from({ length: 10 }, (_, k) => i * 10 + k), order: i }]),
  );
  const grid = await post('/v2/grids', { data: { cols }, filename: 'bench wide grid', world_readable: true });
  const [{ id: gridId }] = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`SELECT id FROM files WHERE owner_id = ${ctx.user.id}::int AND n = ${nOf(grid.file.fid)}::int`,
  );

  const u = ctx.user.username;
  const cases: { label: string; url: string; headers?: Record<string, string> }[] = [
    {
      label: `presentation page (${slides.length} slides, ${fmt(children)} children, ${fmt(deckContent.length / 1024)} KiB)`,
      url: `/~${u}/${nOf(deck.file.fid)}/`,
    },
    { label: `its last slide (\`/slides?from=${slides.length}\`)`, url: `/~${u}/${nOf(deck.file.fid)}/slides?from=${slides.length}` },
    { label: 'its card image (`.png?size=card`)', url: `/~${u}/${nOf(deck.file.fid)}.png?size=card` },
    { label: `dashboard card image (${CONTENT_LIMITS.boxes} boxes)`, url: `/~${u}/${nOf(board.file.fid)}.png?size=card` },
    { label: `grid content (${fmt(MAX_COLUMNS)} columns x 10 values)`, url: `/v2/grids/${grid.file.fid}/content` },
    { label: 'the same grid, version 1 (its writer)', url: `/v2/grids/${grid.file.fid}/versions/1`, headers: { Authorization: ctx.user.auth } },
  ];
  const results: Record<string, unknown> = { slides: slides.length, children, deckBytes: deckContent.length };
  const rows: (string | number)[][] = [];
  for (const c of cases) {
    await sequentialLatency(`${ctx.url}${c.url}`, 3, c.headers);
    const { value, cpu } = await withCpu(ctx, ctx.serverPid, () => sequentialLatency(`${ctx.url}${c.url}`, REQUESTS, c.headers));
    const latency: Latency = value;
    const perRequest = cpuPerRequest(cpu, REQUESTS);
    results[c.label] = { latency, cpu: perRequest };
    rows.push([c.label, fmt(latency.p50, 1), fmt(latency.p90, 1), fmt(latency.bytes / 1024, 1), cpuText(perRequest)]);
    ctx.log(`${c.label}: p50 ${fmt(latency.p50, 1)} ms, ${fmt(latency.bytes)} bytes, CPU ${cpuText(perRequest)} ms`);
  }
  const floor = await psqlTimed(
    ctx,
    `SELECT v.data::text FROM grid_columns c JOIN column_values v ON v.id = c.values_id WHERE c.grid_id = ${gridId} ORDER BY c.ord, c.id`,
  );
  results.gridFloor = floor;
  ctx.log(`grid floor: ${fmt(floor.seconds * 1000, 1)} ms`);

  const markdown = `## 15. Anonymous reads of the largest content an author may make

What one anonymous \`GET\` costs when the author chose the largest content allowed (docs/limits.md), one
request at a time (${REQUESTS} each, after 3 to warm up); times in ms to the last byte, CPU ms per request
of the app + the Postgres backends. A presentation at the content limit (${fmt(deckContent.length)} bytes: ${slides.length}
slides of ${CONTENT_LIMITS.slideChildren} small text children, ${fmt(children)} in all), a dashboard of ${CONTENT_LIMITS.boxes}
text boxes, and a public grid of ${fmt(MAX_COLUMNS)} columns of 10 values. Measured on the shared, loaded
2-core machine (other sessions' builds and tests running): read the ratios and CPU, not the times.

${table(['request', 'p50', 'p90', 'KiB', 'CPU ms / request'], rows)}

Floor for the grid: psql reading every column's stored text in one statement, ${fmt(floor.seconds * 1000, 1)} ms
(process start included). Before issue 35: the presentation page rendered every child of every slide
(about 2 s and 4 MB of HTML a view), each card image was drawn on every request, and the grid was read
with one statement a column (about 11 s a read). Now the page renders the first slide and the deck asks
for the others a few at a time, parsed content and card pictures are kept per content version, and
columns are read 500 (or 8 MiB) a statement (lib/core/grids/column-reads.ts).`;
  return { results, markdown };
};

export default anonymous;
