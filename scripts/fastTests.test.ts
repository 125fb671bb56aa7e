// test:fast keeps a test only when its import closure stays in memory (fastTests.ts). Proven on a
// synthetic tree, both ways, then on the repo: the keychain and SQLite tests are out, pure ones in.
import { describe, expect, it } from 'vitest';
import { tempTrees } from './testing.ts';
import { classifyTests, impureSpecifier } from './fastTests.ts';

describe('an impure import', () => {
  it('is a process, thread, socket, SQLite, keychain or Electron module', () => {
    for (const s of [
      'node:child_process',
      'worker_threads',
      'node:http',
      'net',
      'better-sqlite3',
      '@napi-rs/keyring',
      'electron',
      'fastify',
      '@fastify/multipart',
      'ws',
    ])
      expect(impureSpecifier(s), s).toBe(s);
  });

  it('is not a pure package or a look-alike name', () => {
    for (const s of [
      'node:fs',
      'node:path',
      'zod',
      'react',
      'wsx',
      'electron-builder-x',
      'vitest',
      './child_process.ts',
    ])
      expect(impureSpecifier(s), s).toBeNull();
  });
});

describe('classifyTests on a synthetic tree', () => {
  const tree = tempTrees('fast-tests-');

  it('follows our own modules to an impure import, and ignores import type', () => {
    const repo = tree({
      'shared/pure.ts':
        "import fs from 'node:fs';\nimport type Database from 'better-sqlite3';\nexport const p = fs;\n",
      'shared/pure.test.ts': "import { p } from './pure.ts';\nconsole.log(p);\n",
      'electron/spawns.ts': "import { spawn } from 'node:child_process';\nexport const s = spawn;\n",
      'electron/via.ts': "export { s } from './spawns.ts';\n",
      'electron/deep.test.ts': "import { s } from './via.ts';\nconsole.log(s);\n",
      'renderer/lazy.test.ts': "export const f = () => import('fastify');\n",
      'bench/any.test.ts': 'export const x = 1;\n',
    });
    expect(classifyTests(repo)).toEqual([
      { test: 'shared/pure.test.ts', impure: null },
      { test: 'electron/deep.test.ts', impure: 'electron/spawns.ts → node:child_process' },
      { test: 'renderer/lazy.test.ts', impure: 'renderer/lazy.test.ts → fastify' },
    ]);
  });
});

describe('classifyTests on the repo', () => {
  const verdicts = new Map(classifyTests().map((v) => [v.test, v.impure]));

  it('leaves out the keychain, SQLite and child-process tests', () => {
    for (const test of [
      'electron/services/secrets/keychainSecretStore.test.ts',
      'electron/services/db/migrate.test.ts',
      'scripts/build-electron.test.ts',
    ])
      expect(verdicts.get(test), test).toEqual(expect.any(String));
  });

  it('keeps pure unit tests', () => {
    for (const test of [
      'shared/domain/phone/fastPath.test.ts',
      'renderer/src/features/contacts/rowCache.test.ts',
    ])
      expect(verdicts.get(test), test).toBeNull();
  });
});
