/**
 * Prints the test command's closing line, `test: N passed, N failed, N skipped`, from the JSON
 * reports Vitest and Playwright wrote in this run. Steps that failed without running tests
 * (typecheck, lint, build) count as one failure each. Usage: node scripts/test-summary.ts <failedSteps>
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

const failedSteps = Number(process.argv[2] ?? 0);
const unit = read('.tmp/results/vitest.json', vitestReport);
const e2e = read('.tmp/results/playwright.json', playwrightReport);

let passed = 0;
let failed = failedSteps;
let skipped = 0;
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += unit.numPendingTests + unit.numTodoTests;
  console.log(
    `unit+integration: ${unit.numPassedTests} passed, ${unit.numFailedTests} failed, ${unit.numPendingTests} skipped`,
  );
}
if (e2e) {
  const s = e2e.stats;
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  skipped += s.skipped;
  console.log(`e2e: ${s.expected} passed, ${s.unexpected + s.flaky} failed, ${s.skipped} skipped`);
}
console.log(`test: ${passed} passed, ${failed} failed, ${skipped} skipped`);
