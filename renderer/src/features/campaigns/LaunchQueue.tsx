import { useId } from 'react';
import { Button } from '../../components/Button.tsx';
import { CheckboxField } from '../../components/Field.tsx';
import { formatCount, formatWhen } from '../../components/format.ts';
import { useCampaigns } from './campaignsStore.ts';
import { STATE_TEXT } from './launchText.ts';

/**
 * Launches prepared offline (or with auto-send off) wait here until the operator sends each one
 * (a launch whose start the service could not confirm is decided in the campaigns list).
 */
export function LaunchQueue() {
  const id = useId();
  const queue = useCampaigns((s) => s.queue);
  const autoSend = useCampaigns((s) => s.autoSend);
  const setAutoSend = useCampaigns((s) => s.setAutoSend);
  const confirm = useCampaigns((s) => s.confirm);
  const discard = useCampaigns((s) => s.discard);

  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="launch-queue">
      <h2 id={`${id}-title`} className="section-title">
        Launch queue
      </h2>
      <CheckboxField
        label="Send queued launches automatically when the service is reachable"
        checked={autoSend}
        onChange={(on) => void setAutoSend(on)}
      />
      {queue.length === 0 ? (
        <p className="muted">No launch is waiting.</p>
      ) : (
        <ul className="queue-list">
          {queue.map((l) => (
            <li key={l.id} className="queue-item" data-launch={l.id} data-state={l.state}>
              <div>
                <strong>{l.name}</strong> · {formatCount(l.valid)} rows · {l.flow} flow ·{' '}
                {STATE_TEXT[l.state]} · prepared {formatWhen(l.createdAt)}
                {l.message ? <p className="muted">{l.message}</p> : null}
              </div>
              <div className="action-row">
                <Button size="sm" variant="primary" onClick={() => void confirm(l.id)}>
                  Send {l.name}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => void discard(l.id)}>
                  Discard {l.name}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
