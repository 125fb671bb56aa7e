import { useAnnouncer } from './announcer.ts';

/**
 * The app's two live regions (rendered once, always present, so screen readers watch them from the
 * start). Each message is keyed by its id, so the same words said twice are announced twice. No
 * status/alert role: they are the app's voice, not a status or alert of the page's content.
 */
export function LiveAnnouncer() {
  const polite = useAnnouncer((s) => s.polite);
  const assertive = useAnnouncer((s) => s.assertive);
  return (
    <div className="visually-hidden live-region">
      <div aria-live="polite" aria-atomic="true" data-testid="announcer-polite">
        <span key={polite.id}>{polite.text}</span>
      </div>
      <div aria-live="assertive" aria-atomic="true" data-testid="announcer-assertive">
        <span key={assertive.id}>{assertive.text}</span>
      </div>
    </div>
  );
}
