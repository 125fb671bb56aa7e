// Which test files `npm run test:fast` runs: a test is fast (pure) when nothing it imports, directly
// or through our own modules, reaches a package or Node module that leaves the process's memory —
// SQLite (a DB file), the keychain, child processes, worker threads, sockets/servers, Electron,
// bundlers that spawn. The rule is computed from the imports (importGraph.ts; `import type` is no
// import), so a new test is placed by what it uses, with no hand list to keep.
// Run `npm exec -- node scripts/fastTests.ts` to see each slow test and the import that makes it so.
import fs from 'node:fs';
import path from 'node:path';
import { sourceFilesUnder, valueImportsOf } from './importGraph.ts';

const NODE_IMPURE = [
  'child_process',
  'worker_threads',
  'cluster',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
];
const PACKAGE_IMPURE = [
  'better-sqlite3',
  '@napi-rs/keyring',
  'electron',
  'fastify',
  '@fastify/',
  'ws',
  'playwright',
  '@playwright/',
  'esbuild',
  'vite',
];

/** Why a bare specifier makes a test impure, or null when it does not. */
export function impureSpecifier(specifier: string): string | null {
  const node = specifier.replace(/^node:/, '').split('/')[0]!;
  if (NODE_IMPURE.includes(node) && !specifier.startsWith('.')) return specifier;
  for (const name of PACKAGE_IMPURE)
    if (
      name.endsWith('/') ? specifier.startsWith(name) : specifier === name || specifier.startsWith(`${name}/`)
    )
      return specifier;
  return null;
}

// bench/ is left out: its tests check measuring helpers (one reads the process's own /proc
// counters, one runs the 1M-number phone agreement), not a developer's loop.
const TEST_ROOTS = ['shared', 'electron', 'sandbox', 'renderer', 'scripts'];

export type Verdict = { test: string; impure: string | null };

/**
 * For each test file under the roots: the first impure import in its closure (as `file → specifier`,
 * paths relative to the repo), or null when the test is pure.
 */
export function classifyTests(repo: string = path.resolve(import.meta.dirname, '..')): Verdict[] {
  const cache = new Map<string, string | null>();
  const visiting = new Set<string>();
  const reason = (file: string): string | null => {
    if (cache.has(file)) return cache.get(file)!;
    if (visiting.has(file)) return null;
    visiting.add(file);
    let found: string | null = null;
    for (const { specifier, resolved } of valueImportsOf(file)) {
      if (resolved) found = /\.tsx?$/.test(resolved) ? reason(resolved) : null;
      else if (!specifier.startsWith('.'))
        found = impureSpecifier(specifier) && `${path.relative(repo, file)} → ${specifier}`;
      if (found) break;
    }
    visiting.delete(file);
    cache.set(file, found);
    return found;
  };
  return TEST_ROOTS.filter((root) => fs.existsSync(path.join(repo, root)))
    .flatMap((root) => sourceFilesUnder(path.join(repo, root)))
    .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes(`${path.sep}node_modules${path.sep}`))
    .map((file) => ({ test: path.relative(repo, file), impure: reason(file) }));
}

if (import.meta.filename === process.argv[1]) {
  const verdicts = classifyTests();
  for (const v of verdicts) if (v.impure) console.log(`slow  ${v.test}  (${v.impure})`);
  const fast = verdicts.filter((v) => !v.impure).length;
  console.log(`${fast} of ${verdicts.length} test files outside bench/ are pure (test:fast)`);
}
