// 8. Search: `GET /v2/search` latency for words of every frequency over the synthetic plots (their
// titles: lib/core/demo.ts seedSynthetic), against a list page (`GET /v2/plots`) in the same run, one
// request at a time.
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { MAX_RANKED } from '@/lib/core/search';
import { fmt, sequentialLatency, table, type Benchmark, type Latency } from './support';

const REQUESTS = 200;

const search: Benchmark = async (ctx) => {
  await ctx.ensurePlots(ctx.plots);
  const { db } = ctx.database;
  const [{ listed }] = await queryRows<{ listed: number }>(db, sql`SELECT count(*)::int AS listed FROM plots WHERE listed`);
  // A public synthetic plot's number: the rare word (its title and filename hold it).
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`SELECT f.n FROM files f JOIN plots p ON p.file_id = f.id WHERE p.listed AND f.filename LIKE 'synthetic %' ORDER BY f.id OFFSET ${Math.floor(listed / 3)} LIMIT 1`,
  );
  const cases: { label: string; q: string }[] = [
    { label: 'every plot ("synthetic")', q: 'synthetic' },
    { label: 'a type in every plot (type:scatter)', q: 'type:scatter' },
    { label: 'one plot in ten ("rainfall")', q: 'rainfall' },
    { label: 'one in a thousand ("aurora")', q: 'aurora' },
    { label: 'two words ("aurora rainfall")', q: 'aurora rainfall' },
    { label: `one plot ("${n}")`, q: String(n) },
    { label: 'no plot ("nosuchword")', q: 'nosuchword' },
  ];
  const listUrl = `${ctx.url}/v2/plots`;
  await sequentialLatency(listUrl, 20);
  const list = await sequentialLatency(listUrl, REQUESTS);
  const results: Record<string, unknown> = { listed, list };
  const rows: (string | number)[][] = [['list page (`GET /v2/plots`)', '', '', fmt(list.p50, 2), fmt(list.p90, 2), '1.0']];
  for (const c of cases) {
    const url = `${ctx.url}/v2/search?q=${encodeURIComponent(c.q)}`;
    const body = (await (await fetch(`${url}&page_size=100`)).json()) as { results: unknown[]; next: string | null };
    const [{ matches }] = await queryRows<{ matches: number }>(
      db,
      sql`SELECT count(*)::int AS matches FROM plots p WHERE p.listed AND p.search @@ (${
        c.q.startsWith('type:') ? sql`${`'${c.q}'`}::tsquery` : sql`websearch_to_tsquery('simple', ${c.q})`
      })`,
    );
    await sequentialLatency(url, 10);
    const first: Latency = await sequentialLatency(url, REQUESTS);
    results[c.q] = { matches, first, page: body.results.length };
    const ordered = c.q.startsWith('type:') || matches > MAX_RANKED ? 'newest' : 'ranked';
    rows.push([c.label, fmt(matches), ordered, fmt(first.p50, 2), fmt(first.p90, 2), fmt(first.p50 / list.p50, 1)]);
    ctx.log(`${c.q}: ${matches} matches, p50 ${fmt(first.p50, 2)} ms, p90 ${fmt(first.p90, 2)} ms`);
  }
  const markdown = `## 12. Search (${fmt(listed)} public plots)

\`GET /v2/search?q=…\` (first page, 20 results), one request at a time (${REQUESTS} each, after 10 to warm
up), against the first list page \`GET /v2/plots\` in the same run. The synthetic titles hold "synthetic",
their number, one of ten words (one plot in ten each) and, one in a thousand, "aurora". Up to
${fmt(MAX_RANKED)} matches are ranked (ts_rank_cd, then newest); more, or a word the planner's statistics
call common, are listed newest first (lib/core/search.ts). Times in ms to the last byte.

${table(['query', 'matches', 'order', 'p50', 'p90', 'p50 / list p50'], rows)}`;
  return { results, markdown };
};

export default search;
