// A workspace's whole sync as the app and the CLI run it: the history pass with the recordings
// queue downloading alongside (then to its end), with one status object
// (shared/ipc/channels/calls.ts SyncStatus) kept up to date.
import type { SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import type { DbClient } from '../db/client.ts';
import type { FetchHistory, SyncPolicy } from './historySync.ts';
import { runHistorySync, SyncFailure } from './historySync.ts';
import { maxRequestsInFlight } from './inFlightSetting.ts';
import type { RecordingsResult } from './recordings.ts';
import { maxRecordingMegabytes, saveRecordings } from './recordings.ts';

export interface WorkspaceSyncOptions {
  db: DbClient;
  dataDir: string;
  workspaceId: string;
  /** The workspace's base URL: recordings on its origin are trusted wherever it runs. */
  serviceBaseUrl: string;
  fetchHistory: FetchHistory;
  signal: AbortSignal;
  sinceMs?: number;
  recordings: boolean;
  policy?: Partial<SyncPolicy>;
  onStatus?: (s: SyncStatus) => void;
}

export interface WorkspaceSyncReport {
  ok: boolean;
  status: SyncStatus;
  recordings: RecordingsResult;
}

export async function idleStatus(db: DbClient, workspaceId: string): Promise<SyncStatus> {
  const s = await db.call('calls.syncState', { workspaceId });
  return {
    workspaceId,
    state: s.pass ? 'failed' : 'idle',
    phase: null,
    received: 0,
    inserted: 0,
    updated: 0,
    pages: 0,
    retries: 0,
    skipped: 0,
    quarantined: s.quarantined,
    windowsDone: 0,
    windowsTotal: 0,
    calls: s.calls,
    recordings: s.recordings,
    startedAt: null,
    finishedAt: null,
    lastSyncedAt: s.lastSyncedAt,
    watermark: s.watermarkMs === null ? null : new Date(s.watermarkMs).toISOString(),
    message: s.pass ? 'The last sync stopped before the end; the next one resumes it.' : null,
  };
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

export async function runWorkspaceSync(o: WorkspaceSyncOptions): Promise<WorkspaceSyncReport> {
  const status: SyncStatus = {
    ...(await idleStatus(o.db, o.workspaceId)),
    state: 'running',
    phase: 'history',
    message: null,
    startedAt: new Date().toISOString(),
  };
  let lastEmit = 0;
  const emit = (force = false) => {
    const t = Date.now();
    if (!force && t - lastEmit < 250) return;
    lastEmit = t;
    o.onStatus?.({ ...status, recordings: { ...status.recordings } });
  };
  emit(true);
  const recordings: RecordingsResult = { saved: 0, expired: 0, failed: 0, retried: 0, resumed: 0 };
  const refresh = async () => {
    const s = await o.db.call('calls.syncState', { workspaceId: o.workspaceId });
    status.calls = s.calls;
    status.recordings = s.recordings;
    status.quarantined = s.quarantined;
    status.lastSyncedAt = s.lastSyncedAt;
    status.watermark = s.watermarkMs === null ? null : new Date(s.watermarkMs).toISOString();
  };
  // Recordings are downloaded alongside the history pass (their own few slots, soonest expiry
  // first), then to the end once it is done; a failed pass stops them (they resume next time).
  const stopRecordings = new AbortController();
  let historyRunning = true;
  let recordingsDone: Promise<void> = Promise.resolve();
  try {
    if (o.recordings) {
      const maxBytes = (await maxRecordingMegabytes(o.db)) * 1_000_000;
      recordingsDone = saveRecordings({
        db: o.db,
        dataDir: o.dataDir,
        workspaceId: o.workspaceId,
        signal: AbortSignal.any([o.signal, stopRecordings.signal]),
        serviceOrigin: originOf(o.serviceBaseUrl),
        maxBytes,
        moreComing: () => historyRunning,
        onProgress: (r) => {
          Object.assign(recordings, r);
          if (status.phase !== 'recordings') return; // the history's own progress speaks meanwhile
          status.message = `Recordings: ${r.saved} saved, ${r.expired} expired, ${r.failed} failed`;
          emit();
        },
      }).then((r) => void Object.assign(recordings, r));
      // Awaited below; a failure meanwhile must not count as unhandled.
      recordingsDone.catch(() => undefined);
    }
    const policy = { maxInFlight: await maxRequestsInFlight(o.db), ...o.policy };
    // Stored calls move with the pass (new calls are counted once stored), not only at its end.
    const callsBefore = status.calls;
    await runHistorySync({
      db: o.db,
      workspaceId: o.workspaceId,
      fetchHistory: o.fetchHistory,
      signal: o.signal,
      ...(o.sinceMs !== undefined ? { sinceMs: o.sinceMs } : {}),
      policy,
      onProgress: (p) => {
        Object.assign(status, p);
        status.calls = callsBefore + p.inserted;
        emit();
      },
    }).finally(() => (historyRunning = false));
    await refresh();
    if (o.recordings) {
      status.phase = 'recordings';
      status.message = `Recordings: ${recordings.saved} saved, ${recordings.expired} expired, ${recordings.failed} failed`;
      emit(true);
      await recordingsDone;
      await refresh();
    }
    if (o.signal.aborted) throw new SyncFailure('cancelled', 'Sync cancelled');
    status.state = 'done';
    status.message = null;
  } catch (error) {
    historyRunning = false;
    stopRecordings.abort();
    await recordingsDone.catch(() => undefined);
    const failure = error instanceof SyncFailure ? error : null;
    status.state = failure?.code === 'cancelled' ? 'cancelled' : 'failed';
    status.message = failure
      ? failure.message
      : 'The sync stopped on an unexpected error (details in the log).';
    await refresh().catch(() => undefined);
    if (!failure) {
      status.finishedAt = new Date().toISOString();
      status.phase = null;
      emit(true);
      throw error;
    }
  }
  status.finishedAt = new Date().toISOString();
  status.phase = null;
  emit(true);
  return { ok: status.state === 'done', status: { ...status }, recordings };
}
