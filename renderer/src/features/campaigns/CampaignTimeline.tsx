import type { TimelineEntry } from '../../../../shared/ipc/channels/campaigns.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useCampaigns } from './campaignsStore.ts';
import { LaunchProgress } from './LaunchProgress.tsx';
import { STEP_TEXT } from './launchText.ts';

const OUTCOME_TEXT = {
  sent: 'sent',
  ok: 'answered',
  refused: 'refused',
  unreachable: 'service unreachable',
  ambiguous: 'outcome unknown',
  info: 'note',
} as const;

/** A launch's timeline entries: each step with its time, outcome and the service's message. */
export function TimelineEntries({ entries }: { entries: TimelineEntry[] }) {
  if (entries.length === 0) return <p className="muted">Nothing was sent yet.</p>;
  return (
    <ol className="timeline" data-testid="campaign-timeline">
      {entries.map((e, i) => (
        <li key={i} data-step={e.step} data-outcome={e.outcome}>
          <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time> · {STEP_TEXT[e.step]}:{' '}
          {OUTCOME_TEXT[e.outcome]}
          {e.httpStatus !== null ? ` (HTTP ${e.httpStatus})` : ''}
          {e.message ? <p className="timeline-message">{e.message}</p> : null}
        </li>
      ))}
    </ol>
  );
}

/** One campaign's launch: its steps with times and the service's messages in plain words. */
export function CampaignTimeline() {
  const timeline = useCampaigns((s) => s.timeline);
  const close = useCampaigns((s) => s.closeTimeline);
  if (!timeline) return null;
  const { launch, entries } = timeline;
  return (
    <Dialog open title={`Timeline of ${launch.name}`} onClose={close}>
      <div className="dialog-body">
        <LaunchProgress launch={launch} />
        <TimelineEntries entries={entries} />
      </div>
    </Dialog>
  );
}
