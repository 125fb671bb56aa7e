import { useRef } from 'react';
import { Button } from '../../components/Button.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useFocusWhenLost } from '../../components/useFocusWhenLost.ts';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { formatBytes, formatCount, formatDuration } from '../../components/format.ts';
import { ImportSettings } from './ImportSettings.tsx';

/** A running (or failed, or cancelled) import: real progress, Cancel, and the detected settings. */
export function ImportProgressPanel() {
  const importing = useContacts((s) => s.importing);
  const source = useContacts((s) => s.source);
  const cancelImport = useContacts((s) => s.cancelImport);
  const closeList = useContacts((s) => s.closeList);
  const reimport = useContacts((s) => s.reimport);
  const titleRef = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(titleRef);
  if (!importing || !source) return null;
  const { progress, phase } = importing;
  const total = progress?.totalBytes ?? source.file.size;
  const fraction = total > 0 && progress ? Math.min(1, progress.bytes / total) : 0;
  const active = phase === 'reading' || phase === 'importing' || phase === 'finishing';
  const cancelling = phase === 'cancelling';

  return (
    <section className="panel" aria-labelledby="import-progress-title">
      <h2 id="import-progress-title" className="section-title" ref={titleRef} tabIndex={-1}>
        {phase === 'failed'
          ? 'Import failed'
          : phase === 'cancelled'
            ? 'Import cancelled'
            : cancelling
              ? 'Cancelling the import…'
              : `Importing ${source.file.name}`}
      </h2>
      {active ? (
        <>
          <progress
            className="import-bar"
            max={1000}
            value={phase === 'finishing' ? 1000 : Math.round(fraction * 1000)}
            aria-label="Import progress"
          />
          {/* Not a live region: it changes several times a second. Screen readers hear the
              progress at a calm rate from useImportAnnouncements (ContactsPage). */}
          <div className="import-stats" data-testid="import-stats">
            <span>
              {phase === 'finishing'
                ? 'Checking the stored rows…'
                : phase === 'reading'
                  ? 'Reading the start of the file…'
                  : `${formatCount(progress?.rows ?? 0)} rows checked`}
            </span>
            <span>{formatCount(importing.savedRows)} rows saved</span>
            <span>
              {formatBytes(progress?.bytes ?? 0)} of {formatBytes(total)}
            </span>
            <span>{progress ? `${formatCount(Math.round(progress.rowsPerSecond))} rows/s` : '— rows/s'}</span>
            <span>
              {progress?.etaSeconds != null
                ? `about ${formatDuration(progress.etaSeconds)} left`
                : 'estimating time left'}
            </span>
          </div>
          <div className="form-actions">
            <Button onClick={cancelImport}>Cancel import</Button>
          </div>
        </>
      ) : null}
      {phase === 'failed' ? (
        <Notice tone="error" title="The file could not be imported" role="alert">
          <p>{importing.error}</p>
        </Notice>
      ) : null}
      {cancelling ? (
        <p className="import-stats" role="status" aria-live="polite">
          Removing what was saved from this file…
        </p>
      ) : null}
      {phase === 'cancelled' ? (
        <Notice tone="info" role="status">
          <p>Nothing from this file was kept.</p>
        </Notice>
      ) : null}
      {!active && !cancelling ? (
        <div className="form-actions">
          <Button variant="primary" onClick={() => reimport({})}>
            Try again
          </Button>
          <Button onClick={closeList}>Back to all lists</Button>
        </div>
      ) : null}
      {importing.detected ? (
        <ImportSettings detected={importing.detected} variables={importing.variables} editable />
      ) : null}
    </section>
  );
}
