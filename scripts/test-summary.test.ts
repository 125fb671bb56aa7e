import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs } from '../electron/services/db/testing.ts';

const dirs = tempDirs('desk-summary-');
afterEach(() => dirs.cleanup());

const script = join(import.meta.dirname, 'test-summary.ts');

/** Runs the summary in a folder holding these reports; answers what it printed. */
function summary(
  reports: { vitest?: unknown; playwright?: unknown; unitLog?: string },
  failedSteps: string[] = [],
): string {
  const root = dirs.make();
  mkdirSync(join(root, '.tmp', 'results'), { recursive: true });
  if (reports.unitLog !== undefined) writeFileSync(join(root, '.tmp/results/unit.log'), reports.unitLog);
  if (reports.vitest) writeFileSync(join(root, '.tmp/results/vitest.json'), JSON.stringify(reports.vitest));
  if (reports.playwright)
    writeFileSync(join(root, '.tmp/results/playwright.json'), JSON.stringify(reports.playwright));
  return execFileSync(process.execPath, [script, ...failedSteps], { cwd: root, encoding: 'utf8' });
}

const vitest = (root: string) => ({
  numPassedTests: 1,
  numFailedTests: 1,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [
    {
      name: join(root, 'a.test.ts'),
      status: 'failed',
      message: '',
      assertionResults: [
        { fullName: 'a passes', status: 'passed', failureMessages: [] },
        {
          fullName: 'a compares',
          status: 'failed',
          failureMessages: ['\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at a.test.ts:3'],
        },
      ],
    },
    {
      name: join(root, 'b.test.ts'),
      status: 'failed',
      message: 'Error: worker exited\nstack',
      assertionResults: [],
    },
  ],
});
const playwright = {
  stats: { expected: 1, unexpected: 1, flaky: 0, skipped: 2 },
  suites: [
    {
      title: 'c.spec.ts',
      suites: [
        {
          title: 'c',
          specs: [
            { title: 'works', file: 'c.spec.ts', tests: [{ status: 'expected', results: [{}] }] },
            {
              title: 'times out',
              file: 'c.spec.ts',
              tests: [{ status: 'unexpected', results: [{ error: { message: 'Timed out 5000ms' } }] }],
            },
          ],
        },
      ],
    },
  ],
};

describe('the test command’s closing summary', () => {
  it('counts every report and names each failed test with the first line of its error', () => {
    const out = summary({ vitest: vitest(process.cwd()), playwright }, ['unit+integration', 'e2e', 'lint']);
    expect(out.split('\n').filter(Boolean)).toEqual([
      'unit+integration: 1 passed, 1 failed, 0 skipped',
      'e2e: 1 passed, 1 failed, 2 skipped',
      // The failed tests, then the closing line (lint has no report: it counts as one failure).
      expect.stringMatching(/^failed: .*a\.test\.ts › a compares: AssertionError: expected 1 to be 2$/),
      expect.stringMatching(/^failed: .*b\.test\.ts: Error: worker exited$/),
      'failed: c.spec.ts › times out (unexpected): Timed out 5000ms',
      'test: 2 passed, 3 failed, 2 skipped',
    ]);
  });

  it('prints the counts alone when nothing failed', () => {
    const clean = { ...vitest(process.cwd()), numFailedTests: 0, testResults: [] };
    expect(summary({ vitest: clean })).toBe(
      'unit+integration: 1 passed, 0 failed, 0 skipped\ntest: 1 passed, 0 failed, 0 skipped\n',
    );
  });

  it('names a file whose worker died mid-run, with what the run printed about it', () => {
    const crashed = {
      numPassedTests: 1,
      numFailedTests: 0,
      numPendingTests: 1,
      numTodoTests: 0,
      testResults: [
        {
          name: join(process.cwd(), 'd.test.ts'),
          status: 'failed',
          message: '',
          assertionResults: [
            { fullName: 'd opens', status: 'passed', failureMessages: [] },
            { fullName: 'd streams', status: 'pending', failureMessages: [] },
            { fullName: 'd closes', status: 'pending', failureMessages: [] },
          ],
        },
      ],
    };
    const unitLog = [
      ' ✓ a.test.ts (3 tests) 20ms',
      '\u001b[31mError: Worker exited unexpectedly with signal SIGSEGV during running state while running test file d.test.ts\u001b[39m',
      '\u001b[31mError: Worker exited unexpectedly with signal SIGSEGV during running state while running test file d.test.ts\u001b[39m',
      ' Test Files  1 failed | 1 passed (2)',
    ].join('\n');
    expect(summary({ vitest: crashed, unitLog }, ['unit+integration']).split('\n').filter(Boolean)).toEqual([
      'unit+integration: 1 passed, 0 failed, 1 skipped',
      expect.stringMatching(/^failed: .*d\.test\.ts: 2 of its tests never finished$/),
      'unit output: Error: Worker exited unexpectedly with signal SIGSEGV during running state while running test file d.test.ts',
      'test: 1 passed, 1 failed, 1 skipped',
    ]);
  });
});
