// 8. Search: `GET /v2/search` latency for words of every frequency over the synthetic plots (their
// titles: lib/core/setup/demo.ts seedSynthetic), against a list page (`GET /v2/plots`) in the same run, one
// request at a time.
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { MAX_RANKED, SEARCH_WALK } from '@/lib/core/plots/search';
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
  // The worst case for a newest-first page: a word in nearly every plot but in none of the newest
  // SEARCH_WALK + 5,000 (public plots made after the seed, titled otherwise). A page reads a bounded
  // stretch of plots: the first comes back empty with a `next`, which resumes past the stretch.
  const fresh = SEARCH_WALK + 5000;
  const [{ start }] = await queryRows<{ start: number }>(
    db,
    sql`UPDATE users SET file_counter = file_counter + ${fresh}::int WHERE id = ${ctx.user.id} RETURNING file_counter - ${fresh}::int AS start`,
  );
  await db.execute(sql`
    WITH f AS (
      INSERT INTO files (owner_id, n, filetype, filename, parent, world_readable)
      SELECT ${ctx.user.id}::int, ${start}::int + g, 'plot', 'recent ' || g, -1, true FROM generate_series(1, ${fresh}::int) g RETURNING id, n)
    INSERT INTO plots (file_id, figure, title) SELECT id, '{"data":[{"type":"bar"}]}'::jsonb, 'Recent plot ' || n FROM f`);
  await db.execute(sql`ANALYZE plots`);
  const absent: (string | number)[][] = [];
  for (const q of ['synthetic', 'rainfall']) {
    const url = `${ctx.url}/v2/search?q=${encodeURIComponent(q)}`;
    const first = (await (await fetch(url)).json()) as { results: unknown[]; next: string | null };
    const second = first.next ? ((await (await fetch(first.next)).json()) as { results: unknown[]; next: string | null }) : null;
    await sequentialLatency(url, 10);
    const firstLatency = await sequentialLatency(url, REQUESTS);
    const nextLatency = first.next ? await sequentialLatency(first.next, REQUESTS) : null;
    results[`${q} (absent from the newest ${fresh})`] = {
      first: firstLatency,
      next: nextLatency,
      firstResults: first.results.length,
      secondResults: second?.results.length ?? null,
    };
    absent.push([
      `"${q}"`,
      `${first.results.length}${first.next ? ', and a next' : ''}`,
      fmt(firstLatency.p50, 2),
      fmt(firstLatency.p90, 2),
      second ? String(second.results.length) : '-',
      nextLatency ? fmt(nextLatency.p50, 2) : '-',
      nextLatency ? fmt(nextLatency.p90, 2) : '-',
    ]);
    ctx.log(
      `${q}, absent from the newest ${fresh}: first page ${first.results.length} results p50 ${fmt(firstLatency.p50, 2)} ms; next ${second?.results.length ?? '-'} results p50 ${nextLatency ? fmt(nextLatency.p50, 2) : '-'} ms`,
    );
  }
  // Gone again, so the benchmarks after this one see the seed as it was.
  await db.execute(sql`DELETE FROM files WHERE owner_id = ${ctx.user.id}::int AND n > ${start}::int AND filename LIKE 'recent %'`);
  await db.execute(sql`VACUUM ANALYZE plots`);

  const markdown = `## 12. Search (${fmt(listed)} public plots)

\`GET /v2/search?q=…\` (first page, 20 results), one request at a time (${REQUESTS} each, after 10 to warm
up), against the first list page \`GET /v2/plots\` in the same run. The synthetic titles hold "synthetic",
their number, one of ten words (one plot in ten each) and, one in a thousand, "aurora". Up to
${fmt(MAX_RANKED)} matches are ranked (ts_rank_cd, then newest); more, or a word the planner's statistics
call common, are listed newest first (lib/core/plots/search.ts). Times in ms to the last byte.

${table(['query', 'matches', 'order', 'p50', 'p90', 'p50 / list p50'], rows)}

Then ${fmt(fresh)} newer public plots without those words are added (and removed afterwards): a
newest-first page walks at most ${fmt(SEARCH_WALK)} plots, and completes its page through the GIN index
only when at most ${fmt(SEARCH_WALK)} plots match in all, so a word in every older plot gets an empty first
page whose \`next\` resumes past the walk (before: every match read and sorted, 1.3 s at a million).

${table(['query', 'first page: results', 'p50', 'p90', 'next page: results', 'p50', 'p90'], absent)}`;
  return { results, markdown };
};

export default search;
