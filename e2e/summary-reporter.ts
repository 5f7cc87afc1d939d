// Ends the run with the slowest spec files and tests (where a run's time goes: the first thing to look
// at before making the suite faster), then the plain "N passed, N failed, N skipped" line CI reads to
// count tests (the same line vitest's summary reporter prints). A test that passed on a retry counts as passed.
import path from 'node:path';
import type { FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';

const SLOWEST = 10;

/** The `SLOWEST` largest of `times` (seconds), one line each. */
function slowest(times: Map<string, number>): string {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, SLOWEST)
    .map(([name, seconds]) => `${seconds.toFixed(1).padStart(8)}  ${name}`)
    .join('\n');
}

export default class SummaryReporter implements Reporter {
  private root?: Suite;

  onBegin(_config: unknown, suite: Suite) {
    this.root = suite;
  }

  printsToStdio() {
    return true;
  }

  onEnd(result: FullResult) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const tests = this.root?.allTests() ?? [];
    // `playwright test --list` runs nothing: no count to report.
    if (result.status === 'passed' && tests.every((t) => t.results.length === 0)) return;
    const files = new Map<string, number>();
    const each = new Map<string, number>();
    for (const test of tests) {
      const outcome = test.outcome();
      if (outcome === 'expected' || outcome === 'flaky') counts.passed++;
      else if (outcome === 'skipped') counts.skipped++;
      else counts.failed++;
      const seconds = test.results.reduce((sum, r) => sum + r.duration, 0) / 1000;
      const file = path.relative(process.cwd(), test.location.file);
      files.set(file, (files.get(file) ?? 0) + seconds);
      each.set(`${file}:${test.location.line} ${name(test)}`, seconds);
    }
    if (tests.length > 1) {
      process.stdout.write(`\nSlowest spec files (their tests' time, both workers added, s):\n${slowest(files)}\n`);
      process.stdout.write(`\nSlowest tests (s):\n${slowest(each)}\n`);
    }
    // A run that broke outside the tests (webServer did not start, global timeout) is a failure too.
    if (result.status !== 'passed' && counts.failed === 0) counts.failed = 1;
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}

/** The test's title with its project (js or no-js). */
const name = (test: TestCase) => `[${test.parent.project()?.name}] ${test.title}`;
