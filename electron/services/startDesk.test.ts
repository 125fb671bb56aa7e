// Integration: the hosts' start (startDesk) on real data folders with real SQLite: an old file
// that needs migration 0245 answers `app:startup` while it is upgraded, then starts; a failing
// step and a folder refused before any upgrade are reported as the hosts need.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Startup } from '../../shared/ipc/channels/app.ts';
import type { Desk } from './createDesk.ts';
import { DATABASE_FILE_NAME } from './db/openDatabase.ts';
import { seedPre0245File, tempDirs } from './db/testing.ts';
import { SessionSecretStore } from './secrets/sessionSecretStore.ts';
import { startDesk } from './startDesk.ts';

const dirs = tempDirs('desk-start-');
const open: Desk[] = [];
afterEach(async () => {
  for (const desk of open.splice(0)) await desk.close();
  dirs.cleanup();
});

const start = (dataDir: string) => {
  const starting = startDesk({
    dataDir,
    host: 'browser',
    version: '0',
    sandbox: 'off',
    secrets: new SessionSecretStore(),
  });
  open.push(starting.desk);
  const events: Startup[] = [];
  starting.desk.on('app:startup-changed', (s) => void events.push(s));
  return { ...starting, events };
};

const oldFolder = async (calls: number) => {
  const dir = dirs.make();
  await seedPre0245File(join(dir, DATABASE_FILE_NAME), calls);
  return dir;
};

describe('startDesk', () => {
  it('answers while an old file is upgraded, tells each step and its shares, then starts', async () => {
    const s = start(await oldFolder(20_000));
    await s.answering;
    const during = await s.desk.handle('app:startup', {});
    expect(during.ok && ['upgrading', 'ready'].includes((during.value as Startup).state)).toBe(true);
    // A request made during the upgrade waits for the start and is answered as usual.
    const info = s.desk.handle('app:info', {});
    await s.started;
    expect(await info).toMatchObject({ ok: true, value: { version: '0', host: 'browser' } });
    expect(await s.desk.handle('app:startup', {})).toEqual({ ok: true, value: { state: 'ready' } });
    expect(s.events.at(-1)).toEqual({ state: 'ready' });
    const upgrading = s.events.filter((e) => e.state === 'upgrading');
    expect(upgrading[0]).toEqual({
      state: 'upgrading',
      step: 1,
      steps: 1,
      version: 245,
      name: 'call rank counts',
      fraction: null,
    });
    expect(upgrading.at(-1)).toMatchObject({ fraction: 1 });
    expect(upgrading.length).toBeGreaterThan(2);
  }, 60_000);

  it('on a new folder starts without an upgrade (nothing to show)', async () => {
    const s = start(dirs.make());
    await s.answering;
    await s.started;
    expect(s.events).toEqual([{ state: 'ready' }]);
  }, 60_000);

  it('a step that fails is answered as failed with the file and the step; other requests say it too', async () => {
    const dir = await oldFolder(10);
    const file = join(dir, DATABASE_FILE_NAME);
    const db = new Database(file);
    db.exec('CREATE TABLE call_agg_ranks (x)'); // in the way of 0245's own table
    db.close();
    const s = start(dir);
    await s.answering; // the upgrade began: the host shows it
    await expect(s.started).rejects.toThrow(/failed at step 1 of 1/);
    const startup = await s.desk.handle('app:startup', {});
    const message = `Upgrading the data file ${file} failed at step 1 of 1 (0245 call rank counts): table call_agg_ranks already exists. Nothing of that step was written (the steps before it are kept). The details are in the log file.`;
    expect(startup).toEqual({ ok: true, value: { state: 'failed', message } });
    expect(await s.desk.handle('workspaces:list', {})).toEqual({
      ok: false,
      error: { code: 'database_error', message },
    });
    expect(s.events.at(-1)).toEqual({ state: 'failed', message });
  }, 60_000);

  it('rejects `answering` when the folder is refused before any upgrade (a newer schema)', async () => {
    const dir = dirs.make();
    const db = new Database(join(dir, DATABASE_FILE_NAME));
    db.pragma('user_version = 9990');
    db.close();
    const s = start(dir);
    await expect(s.answering).rejects.toThrow(/written by a newer Campaign Desk/);
  }, 60_000);
});
