import type { CampaignOutcome } from '../../../../shared/ipc/channels/calls.ts';
import { humanize } from './callFormat.ts';

const GOOD = new Set(['completed', 'forwarded']);
const BAD = new Set(['failed', 'error', 'cancelled', 'no_answer', 'busy', 'refused']);
const WAIT = new Set(['registered', 'ongoing', 'retry', 'in_progress', 'not_called', 'voicemail']);

function tone(value: string): string {
  const v = value.toLowerCase();
  if (GOOD.has(v)) return 'tone-good';
  if (BAD.has(v)) return 'tone-bad';
  if (WAIT.has(v)) return 'tone-wait';
  return '';
}

/** A status (or campaign outcome) as a badge; the words carry the meaning, the colour only helps. */
export function StatusBadge({ value }: { value: string | null }) {
  if (!value) return <span className="muted">—</span>;
  return <span className={`call-status ${tone(value)}`}>{humanize(value)}</span>;
}

export const OUTCOME_LABELS: Record<CampaignOutcome, string> = {
  not_called: 'Not called yet',
  refused: 'Refused by the service',
  in_progress: 'In progress',
  completed: 'Completed',
  no_answer: 'No answer',
  busy: 'Busy',
  voicemail: 'Voicemail',
  failed: 'Failed',
};
