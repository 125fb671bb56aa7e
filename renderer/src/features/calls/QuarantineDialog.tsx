import { useEffect, useState } from 'react';
import type { QuarantinedRecord } from '../../../../shared/ipc/channels/calls.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { formatCount, formatWhen } from '../../components/format.ts';
import { desk } from '../../desk/desk.ts';

/**
 * History records the sync refused (a date that does not exist, a number out of range): call id,
 * field, reason and when, newest first. Text only (the reason quotes what the service sent).
 */
export function QuarantineDialog({ onClose }: { onClose: () => void }) {
  const [list, setList] = useState<{ total: number; rows: QuarantinedRecord[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void desk()
      .calls.quarantine({})
      .then((r) => {
        if (r.ok) setList(r.value);
        else setError(r.error.message);
      });
  }, []);

  return (
    <Dialog
      open
      title="Skipped records"
      description="Records the calling service sent that could not be stored. Each is kept with the reason; a later sync stores it once the service sends it valid."
      onClose={onClose}
    >
      {error ? <p role="alert">{error}</p> : null}
      {list === null && !error ? <p>Loading…</p> : null}
      {list && list.rows.length === 0 ? <p>No skipped records.</p> : null}
      {list && list.rows.length > 0 ? (
        <>
          {list.total > list.rows.length ? (
            <p className="muted">
              The newest {formatCount(list.rows.length)} of {formatCount(list.total)}.
            </p>
          ) : null}
          <div className="quarantine-scroll">
            <table className="quarantine-table" data-testid="quarantine-table">
              <thead>
                <tr>
                  <th scope="col">Call id</th>
                  <th scope="col">Field</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((r, i) => (
                  <tr key={`${r.callId ?? 'none'}-${i}`}>
                    <td className="mono">{r.callId ?? '(none)'}</td>
                    <td className="mono">{r.field}</td>
                    <td>{r.reason}</td>
                    <td>{formatWhen(r.lastSeenAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
