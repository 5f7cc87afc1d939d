// 9. Peak memory of the app under load: the PSS of every app process (scripts/start.mjs, its
// server child and any Chromium it started), sampled from /proc while the list load and the create loads of benchmarks 2 and 4
// run again; the peak of the sum (Node's processes and Chromium's apart: after benchmarks that
// render, the renderer's Chromium is still up), and the server's own VmHWM (the kernel's peak) for each load.
import { readFileSync } from 'node:fs';
import { figureOf, uploadGrid } from './create';
import { fmt, load, mb, memory, pssKb, resetPeak, table, type Benchmark, type BenchContext } from './support';

const SECONDS = 10;
const SAMPLE_MS = 100;

/** Whether a process is one of Node's (the app's) rather than a program it started (Chromium). */
function isNode(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node';
  } catch {
    return false;
  }
}

async function sampled(ctx: BenchContext, work: () => Promise<unknown>) {
  const pids = ctx.appPids();
  const nodePids = new Set(pids.filter(isNode));
  // One reading of every process: its sum, and the sum of Node's processes alone.
  const read = () => {
    let all = 0;
    let node = 0;
    for (const pid of pids) {
      const kb = pssKb(pid) ?? 0;
      all += kb;
      if (nodePids.has(pid)) node += kb;
    }
    return { all, node };
  };
  const idle = read();
  for (const pid of pids) resetPeak(pid);
  let peakKb = idle.all;
  let nodePeakKb = idle.node;
  const sample = () => {
    const now = read();
    peakKb = Math.max(peakKb, now.all);
    nodePeakKb = Math.max(nodePeakKb, now.node);
    return now;
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const after = sample();
  return {
    processes: pids.length,
    nodeProcesses: nodePids.size,
    idleKb: idle.all,
    peakKb,
    nodePeakKb,
    serverHwmKb: memory(ctx.serverPid)!.hwmKb,
    afterKb: after.all,
  };
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
  let nodeOverall = 0;
  for (const [name, work] of loads) {
    const m = await sampled(ctx, work);
    results[name] = m;
    overall = Math.max(overall, m.peakKb);
    nodeOverall = Math.max(nodeOverall, m.nodePeakKb);
    rows.push([name, mb(m.idleKb), `**${mb(m.nodePeakKb)}**`, mb(m.peakKb), mb(m.serverHwmKb), mb(m.afterKb)]);
  }
  results.peakKb = overall;
  results.nodePeakKb = nodeOverall;
  const chromium = ctx.appPids().filter((pid) => !isNode(pid)).length;
  const markdown = `## 9. App memory under load

PSS of the app's processes together (\`scripts/start.mjs\` and any it forks: ${fmt(ctx.appPids().length)} here, ${fmt(chromium)} of them
Chromium's: the renderer's browser, up when a benchmark that renders ran before this one; PSS splits
each shared page among the processes sharing it, so the sum counts shared memory once), sampled from
/proc every ${SAMPLE_MS} ms through ${SECONDS} s of each load, one load after another on the same processes.
Node's processes apart, then with Chromium. Server VmHWM: the server process's own peak RSS as the
kernel counts it, reset before each load.

${table(['load', 'before (all)', "peak, Node's processes", 'peak, with Chromium', 'server VmHWM', 'after (all)'], rows)}

Peak of the app's Node processes under these loads: **${mb(nodeOverall)}**; with the renderer's Chromium: ${mb(overall)}.`;
  return { results, markdown };
};

export default memoryUnderLoad;
