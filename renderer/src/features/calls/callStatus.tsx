import type { CallOutcome } from '../../../../shared/domain/callOutcome.ts';
import { OUTCOME_TEXT, outcomeText, statusText } from '../../../../shared/domain/callOutcome.ts';

const GOOD = new Set(['completed', 'forwarded']);
const BAD = new Set(['failed', 'error', 'cancelled', 'no_answer', 'busy', 'dnd_skipped', 'other', 'refused']);
const WAIT = new Set([
  'registered',
  'ongoing',
  'retry',
  'in_progress',
  'queued',
  'retrying',
  'not_called',
  'not_called_terminated',
  'not_called_time_up',
  'voicemail',
]);

function tone(value: string): string {
  const v = value.toLowerCase();
  if (GOOD.has(v)) return 'tone-good';
  if (BAD.has(v)) return 'tone-bad';
  if (WAIT.has(v)) return 'tone-wait';
  return '';
}

/** A call status as a badge in words; the words carry the meaning, the colour only helps. */
export function StatusBadge({ value }: { value: string | null }) {
  if (!value) return <span className="muted">—</span>;
  return <span className={`call-status ${tone(value)}`}>{statusText(value)}</span>;
}

/** An outcome of the outcome table as a badge (its words, e.g. "Not called (terminated)"). */
export function OutcomeBadge({ value }: { value: string }) {
  return (
    <span className={`call-status ${tone(value)}`} data-outcome-value={value}>
      {outcomeText(value)}
    </span>
  );
}

export const OUTCOME_LABELS: Record<CallOutcome, string> = OUTCOME_TEXT;
