// 9. Peak memory of the app under load: the PSS of every app process (scripts/start.mjs, its
// server child and any Chromium it started), sampled from /proc while the list load and the create loads of benchmarks 2 and 4
// run again; the peak of the sum, and the server's own VmHWM (the kernel's peak) for each load.
import { figureOf, uploadGrid } from './create';
import { fmt, load, mb, memory, pssKb, resetPeak, table, type Benchmark, type BenchContext } from './support';

const SECONDS = 10;
const SAMPLE_MS = 100;

async function sampled(ctx: BenchContext, work: () => Promise<unknown>) {
  const pids = ctx.appPids();
  const total = () => pids.reduce((n, pid) => n + (pssKb(pid) ?? 0), 0);
  const idleKb = total();
  for (const pid of pids) resetPeak(pid);
  let peakKb = idleKb;
  const sampler = setInterval(() => (peakKb = Math.max(peakKb, total())), SAMPLE_MS);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const afterKb = total();
  return { idleKb, peakKb: Math.max(peakKb, afterKb), serverHwmKb: memory(ctx.serverPid)!.hwmKb, afterKb };
}

const memoryUnderLoad: Benchmark = async (ctx) => {
  await ctx.ensurePlots(ctx.plots);
  const src = await uploadGrid(ctx);
  const post = (traces: number) => ({
    url: `${ctx.url}/v2/plots`,
    method: 'POST' as const,
    headers: { Authorization: ctx.user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ figure: figureOf(traces, src), world_readable: true }),
  });
  const loads: [string, () => Promise<unknown>][] = [
    [`list: \`GET /v2/plots\`, 32 connections`, () => load({ url: `${ctx.url}/v2/plots`, connections: 32, duration: SECONDS })],
    [`list: \`GET /v2/plots?page_size=100\`, 32 connections`, () => load({ url: `${ctx.url}/v2/plots?page_size=100`, connections: 32, duration: SECONDS })],
    [`create: 10 traces, 8 connections`, () => load({ ...post(10), connections: 8, duration: SECONDS })],
    [`create: 1,000 traces, 8 connections`, () => load({ ...post(1000), connections: 8, duration: SECONDS })],
  ];
  await load({ url: `${ctx.url}/v2/plots`, connections: 32, duration: 3 });
  const results: Record<string, unknown> = { processes: ctx.appPids().length };
  const rows: string[][] = [];
  let overall = 0;
  for (const [name, work] of loads) {
    const m = await sampled(ctx, work);
    results[name] = m;
    overall = Math.max(overall, m.peakKb);
    rows.push([name, mb(m.idleKb), `**${mb(m.peakKb)}**`, mb(m.serverHwmKb), mb(m.afterKb)]);
  }
  results.peakKb = overall;
  const markdown = `## 9. App memory under load

PSS of the app's processes together (\`scripts/start.mjs\` and any it forks, Chromium included: ${fmt(ctx.appPids().length)} here;
PSS splits each shared page among the processes sharing it, so the sum counts shared memory once), sampled
from /proc every ${SAMPLE_MS} ms through ${SECONDS} s of each load, one load after another on the same
processes (after the other benchmarks run this time). Server VmHWM: the server process's own peak RSS
as the kernel counts it, reset before each load.

${table(['load', 'before', 'peak (all processes)', 'server VmHWM', 'after'], rows)}

Peak of the app under these loads: **${mb(overall)}**.`;
  return { results, markdown };
};

export default memoryUnderLoad;
