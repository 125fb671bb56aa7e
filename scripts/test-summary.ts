/**
 * Prints the test command's closing line, `test: N passed, N failed, N skipped`, from the JSON
 * reports Vitest and Playwright wrote in this run. Usage: node scripts/test-summary.ts [failed step…]
 * A failed step counts as one failure unless its report already counts failed tests (typecheck,
 * lint and build have no report; a test run can fail with no failed test, e.g. a crashed worker).
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { z } from 'zod';

const vitestReport = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number(),
  numTodoTests: z.number(),
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string(),
      message: z.string().optional(),
      assertionResults: z.array(
        z.object({
          fullName: z.string(),
          status: z.string(),
          failureMessages: z.array(z.string()).nullish(),
        }),
      ),
    }),
  ),
});
type PlaywrightSuite = {
  title: string;
  specs?: {
    title: string;
    file: string;
    tests: { status: string; results: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
};
const playwrightSuite: z.ZodType<PlaywrightSuite> = z.lazy(() =>
  z.object({
    title: z.string(),
    specs: z
      .array(
        z.object({
          title: z.string(),
          file: z.string(),
          tests: z.array(
            z.object({
              status: z.string(),
              results: z.array(z.object({ error: z.object({ message: z.string().optional() }).optional() })),
            }),
          ),
        }),
      )
      .optional(),
    suites: z.array(playwrightSuite).optional(),
  }),
);
const playwrightReport = z.object({
  stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number(), skipped: z.number() }),
  suites: z.array(playwrightSuite),
});

// The first line of a failure, without colour codes: enough to tell which assertion broke when only
// the tail of a CI log is kept.
// eslint-disable-next-line no-control-regex -- the escape character is what colour codes start with
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;
const firstLine = (message: string | undefined): string =>
  (message ?? '')
    .replace(ANSI_COLOUR, '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

/** Every failed test as `file › name: first line of its error`. */
function failures(
  unitReport: z.infer<typeof vitestReport> | null,
  e2eReport: z.infer<typeof playwrightReport> | null,
): string[] {
  const out: string[] = [];
  for (const file of unitReport?.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const failedTests = file.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failedTests) out.push(`${name} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    // A file that failed with no failed test failed to load or crashed a worker (whose error is
    // only in the run's output: see workerErrors).
    if (file.status === 'failed' && failedTests.length === 0) {
      const unfinished = file.assertionResults.filter((a) => a.status === 'pending').length;
      const why = firstLine(file.message) || (unfinished ? `${unfinished} of its tests never finished` : '');
      out.push(`${name}: ${why}`);
    }
  }
  const walk = (suite: PlaywrightSuite): void => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        if (t.status === 'unexpected' || t.status === 'flaky')
          out.push(
            `${spec.file} › ${spec.title} (${t.status}): ${firstLine(t.results.find((r) => r.error)?.error?.message)}`,
          );
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of e2eReport?.suites ?? []) walk(suite);
  return out;
}

/**
 * What the unit run printed about a test worker that died (a crash of native code, an unhandled
 * error): Vitest reports it in its output only, which a CI log's tail may have cut.
 */
function workerErrors(logFile: string): string[] {
  if (!existsSync(logFile)) return [];
  const pattern =
    /Worker exited unexpectedly|Segmentation fault|FATAL ERROR|Unhandled (Rejection|Error)|Assertion failed/;
  const lines = readFileSync(logFile, 'utf8').replace(ANSI_COLOUR, '').split('\n');
  return [...new Set(lines.filter((l) => pattern.test(l)).map((l) => l.trim().slice(0, 300)))].slice(0, 5);
}

const read = <T>(file: string, schema: z.ZodType<T>): T | null =>
  existsSync(file) ? schema.parse(JSON.parse(readFileSync(file, 'utf8'))) : null;

const failedSteps = new Set(process.argv.slice(2));
const unit = read('.tmp/results/vitest.json', vitestReport);
const e2e = read('.tmp/results/playwright.json', playwrightReport);

let passed = 0;
let failed = 0;
let skipped = 0;
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  if (failedSteps.delete('unit+integration') && unit.numFailedTests === 0) failed += 1;
  skipped += unit.numPendingTests + unit.numTodoTests;
  console.log(
    `unit+integration: ${unit.numPassedTests} passed, ${unit.numFailedTests} failed, ${unit.numPendingTests} skipped`,
  );
}
if (e2e) {
  const s = e2e.stats;
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  if (failedSteps.delete('e2e') && s.unexpected + s.flaky === 0) failed += 1;
  skipped += s.skipped;
  console.log(`e2e: ${s.expected} passed, ${s.unexpected + s.flaky} failed, ${s.skipped} skipped`);
}
failed += failedSteps.size; // steps without a report (or whose report is missing)
for (const line of failures(unit, e2e)) console.log(`failed: ${line}`);
for (const line of workerErrors('.tmp/results/unit.log')) console.log(`unit output: ${line}`);
console.log(`test: ${passed} passed, ${failed} failed, ${skipped} skipped`);
