// eslint.config.js caps product files at 500 lines (`max-lines`); this proves the cap fires on line
// 501 of a product file, lets 500 through, and leaves tests, e2e specs, test helpers and migrations
// alone (a rule that never fires would pass silently).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

function fileOf(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
}

async function maxLinesErrors(filePath: string, lines: number): Promise<string[]> {
  const [result] = await eslint.lintText(fileOf(lines), { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'max-lines').map((m) => m.message);
}

const product = [
  'electron/services/probe.ts',
  'electron/cli/probe.ts',
  'renderer/src/features/probe/Probe.tsx',
  'sandbox/probe.ts',
  'shared/domain/probe.ts',
];
const excepted = [
  'electron/services/probe.test.ts',
  'renderer/src/features/probe/Probe.test.tsx',
  'e2e/probe.spec.ts',
  'electron/services/probe/testing.ts',
  'shared/testing/probe.ts',
  'sandbox/dialer/testSupport.ts',
  'electron/services/db/migrations/9999_probe.ts',
];

describe('lint caps product files at 500 lines', () => {
  for (const file of product) {
    it(`${file} refuses 501 lines`, async () => {
      expect(await maxLinesErrors(file, 501)).toEqual([expect.stringMatching(/Maximum allowed is 500/)]);
    });
    it(`${file} accepts 500 lines`, async () => {
      expect(await maxLinesErrors(file, 500)).toEqual([]);
    });
  }
  for (const file of excepted)
    it(`${file} is excepted: 501 lines pass`, async () => {
      expect(await maxLinesErrors(file, 501)).toEqual([]);
    });
});
