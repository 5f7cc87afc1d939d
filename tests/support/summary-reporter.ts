// Ends the run with the plain "N passed, N failed" line CI reads to count tests, after the slowest
// files (where a run's time goes: the first thing to look at before making the suite faster).
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST = 10;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    if (modules.length > 1) {
      const timed = modules
        .map((mod) => ({ file: path.relative(process.cwd(), mod.moduleId), seconds: mod.diagnostic().duration / 1000 }))
        .sort((a, b) => b.seconds - a.seconds)
        .slice(0, SLOWEST);
      process.stdout.write(`\nSlowest files (tests and hooks, s):\n${timed.map((t) => `${t.seconds.toFixed(1).padStart(8)}  ${t.file}`).join('\n')}\n`);
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
