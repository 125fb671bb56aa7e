import { useEffect, useState } from 'react';
import type { DiskUsage, SyncStatus } from '../../../../shared/ipc/channels/calls.ts';
import { Button } from '../../components/Button.tsx';
import { formatBytes, formatCount, formatWhen } from '../../components/format.ts';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { useCalls } from './callsStore.ts';
import { Labelled } from './Labelled.tsx';
import { QuarantineDialog } from './QuarantineDialog.tsx';

const PHASES: Record<NonNullable<SyncStatus['phase']>, string> = {
  history: 'Reading call history',
  revisit: 'Rechecking calls still in progress',
  campaigns: 'Linking calls to campaigns',
  recordings: 'Saving recordings',
};

const RETENTION = [
  { value: '', label: 'Keep recordings until deleted' },
  { value: '30', label: 'Keep recordings 30 days' },
  { value: '90', label: 'Keep recordings 90 days' },
  { value: '365', label: 'Keep recordings 1 year' },
];

/** The recording size cap (MB); larger recordings are not downloaded. */
const MAX_SIZES = [50, 100, 200, 500, 1000, 2000];

function stateLine(sync: SyncStatus): string {
  switch (sync.state) {
    case 'running':
      return sync.phase ? `${PHASES[sync.phase]}…` : 'Syncing…';
    case 'done':
      return sync.skipped > 0
        ? `Sync finished: every page was stored, except ${formatCount(sync.skipped)} skipped ${sync.skipped === 1 ? 'record' : 'records'} the service sent malformed (kept apart with the reason).`
        : 'Sync finished: every page was stored.';
    case 'failed':
      return `Sync failed${sync.message ? `: ${sync.message}` : '.'}`;
    case 'cancelled':
      return 'Sync cancelled. What was stored is kept; the next sync continues from there.';
    case 'idle':
      return sync.calls > 0 ? 'Not syncing.' : 'No calls on this computer yet. Sync to bring them in.';
  }
}

/** Sync now / Cancel, what the pass is doing (counts, pages, retries), last synced, disk use. */
export function SyncPanel() {
  const sync = useCalls((s) => s.sync);
  const startSync = useCalls((s) => s.startSync);
  const cancelSync = useCalls((s) => s.cancelSync);
  const [disk, setDisk] = useState<DiskUsage | null>(null);
  const [showSkipped, setShowSkipped] = useState(false);
  const running = sync?.state === 'running';
  const saved = sync?.recordings.saved ?? 0;

  useEffect(() => {
    void desk()
      .recordings.diskUsage({})
      .then((r) => {
        if (r.ok) setDisk(r.value);
      });
  }, [running, saved]);

  const setRetention = async (value: string) => {
    const result = await desk().recordings.setRetention({ retentionDays: value ? Number(value) : null });
    if (result.ok) setDisk(result.value);
    else toast.error(result.error.message);
  };

  const setMaxSize = async (value: string) => {
    const result = await desk().recordings.setMaxSize({ maxMegabytes: Number(value) });
    if (result.ok) setDisk(result.value);
    else toast.error(result.error.message);
  };

  return (
    <section className="panel" aria-labelledby="calls-sync-title">
      <div className="calls-row">
        <h2 id="calls-sync-title" className="calls-title">
          Sync
        </h2>
        <Button variant="primary" busy={running} onClick={() => void startSync()}>
          {running ? 'Syncing' : 'Sync now'}
        </Button>
        {running ? <Button onClick={() => void cancelSync()}>Cancel sync</Button> : null}
        <span className="muted" data-testid="last-synced">
          Last synced: {sync?.lastSyncedAt ? formatWhen(sync.lastSyncedAt) : 'never'}
        </span>
      </div>
      {sync ? (
        <>
          <p role="status" data-testid="sync-state" data-state={sync.state}>
            {stateLine(sync)}
            {running && sync.message ? ` ${sync.message}` : ''}
          </p>
          {running && sync.windowsTotal > 0 ? (
            <progress
              className="calls-progress"
              aria-label="Sync progress"
              max={sync.windowsTotal}
              value={sync.windowsDone}
            />
          ) : null}
          <p className="calls-figures" data-testid="sync-figures">
            <span>
              Stored calls: <strong data-count="calls">{formatCount(sync.calls)}</strong>
            </span>
            <span>
              This pass: <strong data-count="received">{formatCount(sync.received)}</strong> received,{' '}
              <strong data-count="inserted">{formatCount(sync.inserted)}</strong> new,{' '}
              <strong data-count="updated">{formatCount(sync.updated)}</strong> updated
            </span>
            <span>
              Pages: <strong data-count="pages">{formatCount(sync.pages)}</strong>
            </span>
            <span>
              Retries: <strong data-count="retries">{formatCount(sync.retries)}</strong>
            </span>
            <span>
              Skipped records: <strong data-count="skipped">{formatCount(sync.skipped)}</strong>
              {sync.quarantined > 0 ? ` (${formatCount(sync.quarantined)} kept apart)` : ''}
            </span>
            <span>
              Recordings: {formatCount(sync.recordings.saved)} saved, {formatCount(sync.recordings.pending)}{' '}
              waiting, {formatCount(sync.recordings.expired)} expired, {formatCount(sync.recordings.failed)}{' '}
              failed
            </span>
          </p>
          {sync.quarantined > 0 || sync.skipped > 0 ? (
            <div className="calls-row">
              <Button aria-haspopup="dialog" onClick={() => setShowSkipped(true)}>
                Show skipped records
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
      {showSkipped ? <QuarantineDialog onClose={() => setShowSkipped(false)} /> : null}
      {disk ? (
        <div className="calls-row">
          <span className="muted">
            Recordings use {formatBytes(disk.bytes)} ({formatCount(disk.files)} files
            {disk.partialBytes > 0 ? `, ${formatBytes(disk.partialBytes)} of unfinished downloads` : ''}) in{' '}
            {disk.folder}
          </span>
          <Labelled className="calls-row" label="Retention">
            {(id) => (
              <select
                id={id}
                className="select"
                value={disk.retentionDays === null ? '' : String(disk.retentionDays)}
                onChange={(e) => void setRetention(e.target.value)}
              >
                {RETENTION.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
                {disk.retentionDays !== null &&
                !RETENTION.some((r) => r.value === String(disk.retentionDays)) ? (
                  <option value={String(disk.retentionDays)}>
                    Keep recordings {disk.retentionDays} days
                  </option>
                ) : null}
              </select>
            )}
          </Labelled>
          <Labelled className="calls-row" label="Largest recording">
            {(id) => (
              <select
                id={id}
                className="select"
                data-testid="recording-max-size"
                value={String(disk.maxMegabytes)}
                onChange={(e) => void setMaxSize(e.target.value)}
              >
                {[...new Set([...MAX_SIZES, disk.maxMegabytes])]
                  .sort((a, b) => a - b)
                  .map((mb) => (
                    <option key={mb} value={String(mb)}>
                      {mb >= 1000 ? `${mb / 1000} GB` : `${mb} MB`}
                    </option>
                  ))}
              </select>
            )}
          </Labelled>
        </div>
      ) : null}
    </section>
  );
}
