// The background calls sync through the desk: a workspace synced once gets new calls by itself
// while online (interval shortened for the test), against the real sandbox over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { startSyncSandbox } from '../sync/testing.ts';
import { deskOnSandbox, syncNow, value } from './testing.ts';

const dirs = tempDirs('desk-calls-background-');
let sandbox: SandboxProcess;
let desk: Desk;

const storedCalls = async () => value<SyncStatus>(await desk.handle('calls:sync-status', {})).calls;

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  await sandbox.control('POST', '/seed-calls', { count: 300 });
  ({ desk } = await deskOnSandbox(sandbox, dirs.make(), { backgroundSyncIntervalMs: 250 }));
}, 60_000);
afterAll(async () => {
  await desk?.close();
  await sandbox?.stop();
  dirs.cleanup();
});

describe('background calls sync', () => {
  it('a workspace synced once gets the calls made since by itself while online, no Sync asked', async () => {
    expect((await syncNow(desk)).final.state).toBe('done');
    expect(await storedCalls()).toBe(300);

    // New calls on the service; nobody asks for a sync.
    const passes: SyncStatus[] = [];
    desk.on('calls:sync-progress', (s) => {
      if (s.state !== 'running') passes.push(s);
    });
    const now = Date.now();
    await sandbox.control('POST', '/seed-calls', {
      count: 40,
      start_date: new Date(now - 60_000).toISOString(),
      end_date: new Date(now).toISOString(),
    });
    // A background pass has finished with every new call stored.
    await expect
      .poll(async () => ({ calls: await storedCalls(), finished: passes.some((p) => p.calls === 340) }), {
        timeout: 30_000,
        interval: 100,
      })
      .toEqual({ calls: 340, finished: true });
    expect(passes.every((p) => p.state === 'done')).toBe(true);
  }, 60_000);
});
