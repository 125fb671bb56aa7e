/**
 * Prints the test command's closing line, `test: N passed, N failed, N skipped`, from the JSON
 * reports Vitest and Playwright wrote in this run. Usage: node scripts/test-summary.ts [failed step…]
 * A failed step counts as one failure unless its report already counts failed tests (typecheck,
 * lint and build have no report; a test run can fail with no failed test, e.g. a crashed worker).
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

const vitestReport = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number(),
  numTodoTests: z.number(),
});
const playwrightReport = z.object({
  stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number(), skipped: z.number() }),
});

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
console.log(`test: ${passed} passed, ${failed} failed, ${skipped} skipped`);
