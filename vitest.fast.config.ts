// `npm run test:fast`: the pure unit tests only, for a developer's loop (scripts/fastTests.ts
// chooses them from their imports: no SQLite, keychain, child process, worker thread or socket).
// `npm test` still runs everything.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';
import { classifyTests } from './scripts/fastTests.ts';

const verdicts = classifyTests();
const pure = verdicts.filter((v) => !v.impure).map((v) => v.test);
console.log(
  `test:fast: ${pure.length} of ${verdicts.length} test files (pure: chosen by scripts/fastTests.ts)`,
);

// Spread, not mergeConfig: mergeConfig concatenates arrays, which would keep the base's include.
// Threads, not forks: a worker per file costs about half the CPU of a process per file, and a pure
// test does not care which (`npm test` keeps forks).
export default defineConfig({ ...base, test: { ...base.test, include: pure, pool: 'threads' } });
