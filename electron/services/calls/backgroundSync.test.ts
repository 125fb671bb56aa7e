// The background calls sync through the desk: a workspace synced once gets new calls by itself
// while online (interval shortened for the test), against the real sandbox over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';
import { startSyncSandbox } from '../sync/testing.ts';

const dirs = tempDirs('desk-calls-background-');
let sandbox: SandboxProcess;
let desk: Desk;

const value = <T>(result: Result<unknown>): T => {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
};
const storedCalls = async () => value<SyncStatus>(await desk.handle('calls:sync-status', {})).calls;

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  await sandbox.control('POST', '/seed-calls', { count: 300 });
  desk = await createDesk({
    dataDir: dirs.make(),
    host: 'browser',
    version: '1',
    sandbox: 'off',
    secrets: new SessionSecretStore(),
    timings: { backgroundSyncIntervalMs: 250 },
  });
  const ws = value<{ id: string }>(
    await desk.handle('workspaces:create', {
      name: 'S',
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      sessionOnly: true,
    }),
  );
  value(await desk.handle('workspaces:set-active', { id: ws.id }));
}, 60_000);
afterAll(async () => {
  await desk?.close();
  await sandbox?.stop();
  dirs.cleanup();
});

describe('background calls sync', () => {
  it('a workspace synced once gets the calls made since by itself while online, no Sync asked', async () => {
    const finished = new Promise<SyncStatus>((resolve) =>
      desk.on('calls:sync-progress', (s) => {
        if (s.state !== 'running') resolve(s);
      }),
    );
    value(
      await desk.handle('calls:sync', {
        since: new Date(Date.now() - 31 * 86_400_000).toISOString(),
        recordings: false,
      }),
    );
    expect((await finished).state).toBe('done');
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
