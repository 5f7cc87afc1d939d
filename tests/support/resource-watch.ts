// Watches a running app while an attack runs (tests/hardening): the server's memory (RSS, sampled
// every 100 ms) and an unrelated `GET /v2/plots` asked every `probeEveryMs` by a client in a process
// of its own (so the test's own work, such as sending 120 MB, cannot delay it), which must be answered
// 200 every time. Its slowest answer is reported for the log: a duration, never asserted here.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** Growth of the server's resident memory an attack may cause (MiB). */
export const RSS_BUDGET_MB = 300;

const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The unrelated client (`node -e`, given the URL and the pause): says "ready" once it can be stopped,
 * asks until SIGTERM, then writes the slowest answer's time (ms); any failed request fails it. */
const PROBER = `
const [url, pause] = process.argv.slice(1);
let running = true;
let slowest = 0;
process.on('SIGTERM', () => (running = false));
process.stdout.write('ready\\n');
(async () => {
  while (running) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error('status ' + res.status);
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((r) => setTimeout(r, Number(pause)));
  }
  process.stdout.write(String(slowest));
})();
`;

/** Runs `attack` against `server` while watching; answers the peak RSS growth and the slowest unrelated answer. */
export async function watch(
  server: { url: string; process: ChildProcess },
  attack: () => Promise<void>,
  probeEveryMs = 200,
): Promise<{ growthMb: number; slowestMs: number }> {
  const pid = server.process.pid!;
  // Settle first: what the process holds before the attack is its own business.
  await fetch(`${server.url}/v2/plots?page_size=1`);
  const before = rssMb(pid);
  let peak = before;
  let running = true;
  const prober = spawn(process.execPath, ['-e', PROBER, `${server.url}/v2/plots?page_size=5`, String(probeEveryMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const proberClosed = once(prober, 'close');
  // Stopped before it handles SIGTERM, it would die of it: wait until it says it is ready.
  await new Promise<void>((resolve, reject) => {
    prober.stdout.on('data', (d) => {
      output += d;
      if (output.includes('\n')) resolve();
    });
    proberClosed.then(() => reject(new Error(`the unrelated client exited early: ${output}`)));
  });
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, rssMb(pid));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    await attack();
  } finally {
    running = false;
    prober.kill('SIGTERM');
    await Promise.all([sampler, proberClosed]);
  }
  expect(prober.exitCode, 'the unrelated client failed').toBe(0);
  const slowest = output.slice(output.indexOf('\n') + 1);
  expect(slowest).toMatch(/^\d/);
  return { growthMb: peak - before, slowestMs: Number(slowest) };
}
