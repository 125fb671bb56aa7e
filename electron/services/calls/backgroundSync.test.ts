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
  ({ desk } = await deskOnSandbox(sandbox, dirs.make(), {
    backgroundSyncIntervalMs: 250,
    connectivityIntervalMs: 100,
  }));
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

  it('starts no pass while the service is unreachable, and catches up by itself once it is back', async () => {
    const before = await storedCalls();
    expect(before).toBeGreaterThan(0); // synced once (the test above), so background passes apply
    type Fault = { id: number; path: string; hits: number };
    const faults = async () => (await sandbox.control<{ faults: Fault[] }>('GET', '/faults')).faults;
    // First match wins: history requests are counted apart from the rest (the connectivity checks).
    await sandbox.control('POST', '/faults', { path: '/v0/calling/history*', kind: 'drop' });
    await sandbox.control('POST', '/faults', { path: '/v0*', kind: 'drop' });
    const [history, rest] = await faults();
    // The desk has seen the service go (its connectivity check, every 100 ms here).
    await expect
      .poll(async () => value<{ online: boolean }>(await desk.handle('app:connectivity', {})).online, {
        timeout: 20_000,
        interval: 50,
      })
      .toBe(false);
    // A pass a background tick began just before (while the desk still saw the service) is stopped;
    // what is asserted is that none starts from here on.
    value(await desk.handle('calls:sync-cancel', {}));
    const historyHits = (await faults()).find((f) => f.id === history!.id)!.hits;
    const started: SyncStatus[] = [];
    desk.on('calls:sync-progress', (s) => {
      if (s.state === 'running') started.push(s);
    });
    const now = Date.now();
    await sandbox.control('POST', '/seed-calls', {
      count: 20,
      start_date: new Date(now - 60_000).toISOString(),
      end_date: new Date(now).toISOString(),
    });
    // Offline for at least 12 connectivity checks (100 ms apart): over four background intervals.
    const offlineHits = (await faults()).find((f) => f.id === rest!.id)!.hits;
    await expect
      .poll(async () => (await faults()).find((f) => f.id === rest!.id)!.hits - offlineHits, {
        timeout: 20_000,
        interval: 50,
      })
      .toBeGreaterThanOrEqual(12);
    expect((await faults()).find((f) => f.id === history!.id)!.hits).toBe(historyHits);
    expect(started).toEqual([]);
    expect(await storedCalls()).toBe(before);

    await sandbox.control('DELETE', '/faults');
    await expect.poll(storedCalls, { timeout: 30_000, interval: 100 }).toBe(before + 20);
  }, 60_000);
});
