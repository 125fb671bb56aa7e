import { Button } from '../components/Button.tsx';
import { useConnection } from '../desk/connectionStore.ts';

/** Shown above the page while the browser host's socket is down and we are reconnecting. */
export function ConnectionBanner() {
  const status = useConnection((s) => s.status);
  const retry = useConnection((s) => s.retry);
  if (status.state !== 'reconnecting') return null;
  const seconds = Math.max(1, Math.round(status.retryInMs / 1000));
  return (
    <div className="banner banner-warning" role="alert">
      <span>
        Lost the connection to Campaign Desk&apos;s back end. Trying again in {seconds} s (attempt{' '}
        {status.attempt}).
      </span>
      <Button size="sm" variant="ghost" onClick={retry}>
        Retry now
      </Button>
    </div>
  );
}
