import { useEffect, useState } from 'react';
import type { BulkProgress } from '../../../../shared/ipc/channels/contacts.ts';
import { Button } from '../../components/Button.tsx';
import { desk } from '../../desk/desk.ts';
import { formatCount } from '../../components/format.ts';

/**
 * The latest progress event of long work on lists (a bulk change, an undo, a deletion) that
 * `accept` picks, cleared once it ends.
 */
export function useBulkProgress(accept: (p: BulkProgress) => boolean): BulkProgress | null {
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  useEffect(
    () =>
      desk().on('contacts:bulk-progress', (p) => {
        if (!accept(p)) return;
        setProgress(p.state === 'running' || p.state === 'cancelling' ? p : null);
      }),
    // `accept` is a filter on stable data (a list id, an action); subscribing once is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return progress;
}

/** A bulk change running on a list: what it does, how far it is, and Cancel while it can stop. */
export function BulkProgressBar({ progress }: { progress: BulkProgress }) {
  const [asked, setAsked] = useState(false);
  const fraction = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
  const cancel = async () => {
    setAsked(true);
    await desk().contacts.bulkCancel({ listId: progress.listId });
  };
  return (
    <div className="bulk-progress" role="status" aria-live="polite" data-testid="bulk-progress">
      <span className="bulk-progress-label">
        {progress.state === 'cancelling' ? `Cancelling: putting the rows back` : progress.label}
      </span>
      <progress max={1} value={fraction} aria-label={`${progress.label} progress`} />
      <span className="bulk-progress-count">
        {formatCount(progress.done)} of {formatCount(progress.total)} rows
      </span>
      {/* A deletion can be cancelled only before its rows start to go (its Cancel window). */}
      {progress.action !== 'delete' || progress.cancellable ? (
        <Button
          size="sm"
          disabled={!progress.cancellable || asked || progress.state === 'cancelling'}
          onClick={() => void cancel()}
        >
          Cancel
        </Button>
      ) : null}
    </div>
  );
}
