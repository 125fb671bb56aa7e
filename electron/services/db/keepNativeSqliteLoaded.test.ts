// The SQLite binary stays mapped in the main thread (the worker-exit SIGSEGV guard), checked in a
// fresh Node process from /proc/self/maps: requiring the package alone does not load it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const modulePath = fileURLToPath(new URL('./keepNativeSqliteLoaded.ts', import.meta.url));

/** Whether better-sqlite3's binary (a prebuild or a local build) is mapped in a new process after `code` ran there. */
function mappedAfter(code: string): boolean {
  const script = `${code}
const { readFileSync } = await import('node:fs');
console.log(/better.sqlite3\\/.*\\.node$/m.test(readFileSync('/proc/self/maps', 'utf8')));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim() === 'true';
}

describe('keepNativeSqliteLoaded', () => {
  it('maps the native binary in the calling thread, which requiring the package does not', (ctx) => {
    if (!existsSync('/proc/self/maps')) ctx.skip('needs /proc (Linux)');
    expect(
      mappedAfter(`const { createRequire } = await import('node:module');
createRequire(${JSON.stringify(modulePath)})('better-sqlite3');`),
    ).toBe(false);
    expect(
      mappedAfter(`const { keepNativeSqliteLoaded } = await import(${JSON.stringify(modulePath)});
keepNativeSqliteLoaded();`),
    ).toBe(true);
  });
});
