// Ends the run with the plain "N passed, N failed, N skipped" line CI reads to count tests (the same
// line vitest's summary reporter prints). A test that passed on a retry counts as passed.
import type { FullResult, Reporter, Suite } from '@playwright/test/reporter';

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
    for (const test of tests) {
      const outcome = test.outcome();
      if (outcome === 'expected' || outcome === 'flaky') counts.passed++;
      else if (outcome === 'skipped') counts.skipped++;
      else counts.failed++;
    }
    // A run that broke outside the tests (webServer did not start, global timeout) is a failure too.
    if (result.status !== 'passed' && counts.failed === 0) counts.failed = 1;
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
