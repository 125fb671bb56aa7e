// The data folder is private (0700 folders, 0600 files): created so and tightened when found
// looser, through the app's service creation (createDesk) and a CLI command (a child process).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesk } from './createDesk.ts';
import { DATABASE_FILE_NAME } from './db/openDatabase.ts';
import { tempDirs } from './db/testing.ts';
import { ensurePrivateDir } from './privateFiles.ts';
import { SessionSecretStore } from './secrets/sessionSecretStore.ts';

const dirs = tempDirs('desk-modes-');
afterEach(() => dirs.cleanup());

const modeOf = (path: string) => statSync(path).mode & 0o777;
const cli = fileURLToPath(new URL('../cli/main.ts', import.meta.url));

/** A data folder as an older build (or a umask of 022) left it: everything readable by others. */
function looseDataDir(): string {
  const data = join(dirs.make(), 'data');
  mkdirSync(join(data, 'logs'), { recursive: true });
  mkdirSync(join(data, 'recordings', 'w1'), { recursive: true });
  writeFileSync(join(data, 'logs', 'desk.log'), 'old line\n');
  writeFileSync(join(data, 'logs', 'desk.1.log'), 'older line\n');
  writeFileSync(join(data, 'recordings', 'w1', 'c1.wav'), 'RIFF');
  for (const d of [data, join(data, 'logs'), join(data, 'recordings'), join(data, 'recordings', 'w1')])
    chmodSync(d, 0o755);
  for (const f of ['logs/desk.log', 'logs/desk.1.log', 'recordings/w1/c1.wav'])
    chmodSync(join(data, f), 0o644);
  return data;
}

function expectPrivate(data: string, files: string[]) {
  for (const d of [data, join(data, 'logs'), join(data, 'recordings'), join(data, 'recordings', 'w1')])
    expect([d, modeOf(d).toString(8)]).toEqual([d, '700']);
  for (const f of files) expect([f, modeOf(join(data, f)).toString(8)]).toEqual([f, '600']);
}

function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('private data folder (POSIX modes)', () => {
  it('ensurePrivateDir creates missing folders 0700 and tightens an existing 0755 one', () => {
    const root = dirs.make();
    ensurePrivateDir(join(root, 'a', 'b'));
    expect(modeOf(join(root, 'a')).toString(8)).toBe('700');
    expect(modeOf(join(root, 'a', 'b')).toString(8)).toBe('700');
    chmodSync(join(root, 'a', 'b'), 0o755);
    ensurePrivateDir(join(root, 'a', 'b'));
    expect(modeOf(join(root, 'a', 'b')).toString(8)).toBe('700');
  });

  it("createDesk makes a new data folder's files private", async () => {
    const data = join(dirs.make(), 'new');
    const desk = await createDesk({
      dataDir: data,
      host: 'browser',
      version: '9.9.9',
      sandbox: 'off',
      secrets: new SessionSecretStore(),
    });
    try {
      expect(modeOf(data).toString(8)).toBe('700');
      expect(modeOf(join(data, 'logs')).toString(8)).toBe('700');
      for (const f of [
        DATABASE_FILE_NAME,
        `${DATABASE_FILE_NAME}-wal`,
        `${DATABASE_FILE_NAME}-shm`,
        'logs/desk.log',
      ])
        expect([f, modeOf(join(data, f)).toString(8)]).toEqual([f, '600']);
    } finally {
      await desk.close();
    }
  });

  it('createDesk tightens a data folder left 0755 with 0644 files (database, logs, recordings)', async () => {
    const data = looseDataDir();
    // A database an older build created 0644, with its WAL files.
    const first = await createDesk({
      dataDir: data,
      host: 'browser',
      version: '9.9.9',
      sandbox: 'off',
      secrets: new SessionSecretStore(),
    });
    await first.close();
    chmodSync(data, 0o755);
    chmodSync(join(data, DATABASE_FILE_NAME), 0o644);
    const desk = await createDesk({
      dataDir: data,
      host: 'browser',
      version: '9.9.9',
      sandbox: 'off',
      secrets: new SessionSecretStore(),
    });
    try {
      expectPrivate(data, [
        DATABASE_FILE_NAME,
        `${DATABASE_FILE_NAME}-wal`,
        `${DATABASE_FILE_NAME}-shm`,
        'logs/desk.log',
        'logs/desk.1.log',
        'recordings/w1/c1.wav',
      ]);
    } finally {
      await desk.close();
    }
  });

  it('a CLI command (calls export) creates its data folder 0700 and tightens an existing 0755 one', async () => {
    const fresh = join(dirs.make(), 'cli-new');
    const made = await runCli(['calls', 'export', '--data', fresh, '--out', join(dirs.make(), 'a.csv')]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(modeOf(fresh).toString(8)).toBe('700');
    expect(modeOf(join(fresh, DATABASE_FILE_NAME)).toString(8)).toBe('600');

    const data = looseDataDir();
    writeFileSync(join(data, `${DATABASE_FILE_NAME}`), '');
    chmodSync(join(data, DATABASE_FILE_NAME), 0o644);
    const r = await runCli(['calls', 'export', '--data', data, '--out', join(dirs.make(), 'b.csv')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expectPrivate(data, [DATABASE_FILE_NAME, 'logs/desk.log', 'logs/desk.1.log', 'recordings/w1/c1.wav']);
  }, 60_000);
});
