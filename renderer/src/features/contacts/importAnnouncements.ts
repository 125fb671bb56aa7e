import { useEffect } from 'react';
import { useProgressAnnouncer } from '../../components/announcer.ts';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { formatCount, formatDuration } from '../../components/format.ts';

/**
 * Tells screen readers how an import goes: progress at a calm rate (every 10 s or each further
 * 10%), then its end (done with the counts, or cancelled; a failure is an alert on the page).
 */
export function useImportAnnouncements(): void {
  const announcer = useProgressAnnouncer();
  useEffect(
    () =>
      useContacts.subscribe((state, previous) => {
        const now = state.importing;
        const before = previous.importing;
        if (!now || now === before) return;
        const name = state.source?.file.name ?? 'the file';
        if (now.phase === 'done' && before?.phase !== 'done') {
          const counts = now.list?.counts;
          announcer.finish(
            counts
              ? `Import of ${name} finished: ${formatCount(counts.rows)} rows, ${formatCount(counts.valid)} valid, ${formatCount(counts.invalid)} invalid, ${formatCount(counts.duplicates)} duplicates.`
              : `Import of ${name} finished.`,
          );
        } else if (now.phase === 'cancelled' && before?.phase !== 'cancelled') {
          announcer.finish(`Import of ${name} cancelled; no rows were kept.`);
        } else if (now.phase === 'reading' || now.phase === 'importing') {
          const total = now.progress?.totalBytes ?? state.source?.file.size ?? 0;
          const fraction = total > 0 && now.progress ? Math.min(1, now.progress.bytes / total) : 0;
          const eta = now.progress?.etaSeconds;
          announcer.progress(
            fraction,
            `Importing ${name}: ${Math.floor(fraction * 100)}%, ${formatCount(now.savedRows)} rows saved` +
              (eta != null ? `, about ${formatDuration(eta)} left.` : '.'),
          );
        }
      }),
    [announcer],
  );
}
