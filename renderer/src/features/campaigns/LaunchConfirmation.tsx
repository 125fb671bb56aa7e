import type { LaunchSummary } from '../../../../shared/ipc/channels/campaigns.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { formatCount, formatCredits } from '../../components/format.ts';
import { useListAgent } from '../../shared-listAgent/listAgentStore.ts';
import { useCampaigns } from './campaignsStore.ts';
import { callersText, campaignTimeText, versionText } from './confirmationText.ts';

/** "Start 1,234 calls" in the operator's locale. */
export const startLabel = (calls: number): string =>
  `Start ${formatCount(calls)} ${calls === 1 ? 'call' : 'calls'}`;

/** The overlap in words: "1,641 contacts are also in Nov reminders (1,641)". */
export function overlapText(o: NonNullable<LaunchSummary['overlaps']>): string {
  if (o.contacts === 0) return 'None in campaigns running or run in the last 7 days';
  const which = o.campaigns.map((c) => `${c.name} (${formatCount(c.contacts)})`).join(', ');
  return `${formatCount(o.contacts)} ${o.contacts === 1 ? 'contact is' : 'contacts are'} also in ${which}, running or run in the last 7 days`;
}

/**
 * The confirmation before calls go out: what is about to start, with the plan's figures. Escape
 * or "Go back" cancels (nothing is sent); the confirming button names the calls it starts.
 */
export function LaunchConfirmation({
  summary,
  busy,
  onConfirm,
  onCancel,
}: {
  summary: LaunchSummary;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const s = summary;
  const numbers = useCampaigns((st) => st.numbers);
  const versions = useListAgent((st) => st.agent?.agentVersions ?? null);
  const facts: Array<[string, string, string]> = [
    ['name', 'Campaign', s.name],
    ['list', 'Contact list', s.list],
    ['calls', 'Calls to place', formatCount(s.calls)],
    ...(s.heldBack !== undefined
      ? [['held-back', 'Held back (do not call)', formatCount(s.heldBack)] as [string, string, string]]
      : []),
    [
      'service-drops',
      'Rows the service will drop',
      s.rowsServiceWillDrop === null ? 'Not predicted' : formatCount(s.rowsServiceWillDrop),
    ],
    ['credits-needed', 'Credits needed', formatCredits(s.credits.needed)],
    [
      'credits-available',
      'Credits available',
      s.credits.available === null ? 'Not reported (offline or unknown)' : formatCredits(s.credits.available),
    ],
    ['window', 'Daily window', `${s.window.start}–${s.window.end} (${s.timezone})`],
    ['start', 'Start', campaignTimeText(s.start, s.timezone)],
    ['end', 'End', campaignTimeText(s.end, s.timezone)],
    ['callers', 'Caller numbers', callersText(s.callers, numbers)],
    ['agent', 'Agent', `${s.agent.name ?? s.agent.id}, ${versionText(s.agent.version, versions)}`],
    ['overlaps', 'Overlaps', s.overlaps ? overlapText(s.overlaps) : 'Not checked'],
    ...(s.hoursWarning
      ? [['calling-hours', 'Calling hours', `${s.hoursWarning} (acknowledged)`] as [string, string, string]]
      : []),
  ];
  return (
    <Dialog open role="alertdialog" title={`Start ${s.name}?`} onClose={onCancel}>
      <div className="dialog-body launch-confirmation" data-testid="launch-confirmation">
        <p>Calls go out once you start them. Check what will be sent:</p>
        <dl>
          {facts.map(([key, label, text]) => (
            <div key={key} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd data-fact={key}>{text}</dd>
            </div>
          ))}
        </dl>
        {s.overlaps && s.overlaps.contacts > 0 ? (
          <p className="warn-text" role="note" data-testid="confirmation-overlap">
            {overlapText(s.overlaps)}: they would be called again.
          </p>
        ) : null}
        {s.callsNotFitting > 0 ? (
          <p className="warn-text" role="note">
            {formatCount(s.callsNotFitting)} calls do not fit before the campaign ends.
          </p>
        ) : null}
      </div>
      <div className="dialog-footer">
        <Button onClick={onCancel} data-autofocus>
          Go back
        </Button>
        <Button variant="primary" busy={busy} onClick={onConfirm}>
          {startLabel(s.calls)}
        </Button>
      </div>
    </Dialog>
  );
}
