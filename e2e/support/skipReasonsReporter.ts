import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Prints why each skipped test was skipped (the list reporter shows only a dash), so a run says
 * plainly what did not run here and why — e.g. the Electron specs where no Electron binary exists.
 */
export default class SkipReasonsReporter implements Reporter {
  private readonly skipped: string[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status !== 'skipped') return;
    const reason = test.annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description;
    const project = test.parent.project()?.name;
    this.skipped.push(`  - ${project ? `[${project}] ` : ''}${test.title}: ${reason ?? 'no reason given'}`);
  }

  onEnd(_result: FullResult) {
    if (this.skipped.length === 0) return;
    console.log(`\nSkipped (${this.skipped.length}), not passed:\n${this.skipped.join('\n')}`);
  }

  printsToStdio() {
    return true;
  }
}
