// What a call came to, in an operator's words: every status × sub-status pair of the calling
// service's interface mapped to one outcome, and plain words for each status and sub-status. The
// Calls table, Campaign results, the charts and the filters all read this one table (the DB worker
// turns it into SQL with `outcomeSql`, so SQL and this module never disagree).
import { callStatuses, callSubStatuses } from '../service/enums.ts';
import type { CallStatus, CallSubStatus } from '../service/enums.ts';

/** Outcomes, in the order they are listed (best first, then the ones still moving, then not called). */
export const CALL_OUTCOMES = [
  'completed',
  'voicemail',
  'no_answer',
  'busy',
  'failed',
  'dnd_skipped',
  'not_called_terminated',
  'not_called_time_up',
  'queued',
  'retrying',
  'in_progress',
  'not_called',
  'refused',
  'other',
] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export const OUTCOME_TEXT: Record<CallOutcome, string> = {
  completed: 'Completed',
  voicemail: 'Voicemail',
  no_answer: 'No answer',
  busy: 'Busy or unreachable',
  failed: 'Failed',
  dnd_skipped: 'DND skipped',
  not_called_terminated: 'Not called (terminated)',
  not_called_time_up: 'Not called (campaign time ended)',
  queued: 'Still queued',
  retrying: 'Retry scheduled',
  in_progress: 'In progress',
  // Campaign results only: a contact row with no call at all (yet).
  not_called: 'Not called yet',
  // Campaign results only: a row the service refused when the list was uploaded (never called).
  refused: 'Refused by the service',
  other: 'Other',
};

/** Outcomes after which nothing more happens to the call (the rest may still change). */
export const FINAL_OUTCOMES: ReadonlySet<CallOutcome> = new Set([
  'completed',
  'voicemail',
  'no_answer',
  'busy',
  'failed',
  'dnd_skipped',
  'not_called_terminated',
  'not_called_time_up',
  'refused',
  'other',
]);

/** Outcomes of a call someone picked up (the funnel's "answered"). */
export const ANSWERED_OUTCOMES: readonly CallOutcome[] = ['completed', 'voicemail'];

/**
 * THE TABLE. Per status: the outcome of any sub-status not listed (also none, and codes the
 * interface does not list, e.g. PIPECAT_TIMEOUT), then the sub-statuses that decide otherwise.
 * Reasons:
 * - `registered` is a call waiting its turn (IN_DB, QUEUED, RATE_LIMITED: still queued);
 *   `retry` waits for its next attempt; `ongoing` is on the line now.
 * - `completed` is an answered call; the service marks voicemail with VOICEMAIL_* sub-statuses.
 * - `failed`: USER_DID_NOT_JOIN and RETRY_LIMIT_REACHED (every retry unanswered) are no answer;
 *   NOT_ABLE_TO_CALL is a busy or unreachable line; DND_SKIPPED was never dialled.
 * - `cancelled`: the campaign was terminated (USER_TERMINATED) or its time ended
 *   (CAMPAIGN_TIME_EXCEEDED) before the call was placed; DND_SKIPPED never dialled.
 * - `error`: the service gave up on the call (PRE_CALL_API_FAILED, RECONCILED_TO_ERROR_*).
 * - `forwarded`: handed to a person after it was answered: completed.
 * A call flagged `voicemail_detected` whose outcome would be completed is voicemail (`outcomeOf`).
 */
export const OUTCOME_TABLE: Record<
  CallStatus,
  { otherwise: CallOutcome; bySubStatus: Partial<Record<CallSubStatus, CallOutcome>> }
> = {
  registered: { otherwise: 'queued', bySubStatus: { DND_SKIPPED: 'dnd_skipped' } },
  retry: { otherwise: 'retrying', bySubStatus: { DND_SKIPPED: 'dnd_skipped' } },
  ongoing: { otherwise: 'in_progress', bySubStatus: {} },
  completed: {
    otherwise: 'completed',
    bySubStatus: {
      VOICEMAIL_DETECTED: 'voicemail',
      VOICEMAIL_DETECTED_VIA_LLM: 'voicemail',
      USER_DID_NOT_JOIN: 'no_answer',
      NOT_ABLE_TO_CALL: 'busy',
      DND_SKIPPED: 'dnd_skipped',
    },
  },
  failed: {
    otherwise: 'failed',
    bySubStatus: {
      USER_DID_NOT_JOIN: 'no_answer',
      RETRY_LIMIT_REACHED: 'no_answer',
      NOT_ABLE_TO_CALL: 'busy',
      VOICEMAIL_DETECTED: 'voicemail',
      VOICEMAIL_DETECTED_VIA_LLM: 'voicemail',
      DND_SKIPPED: 'dnd_skipped',
      USER_TERMINATED: 'not_called_terminated',
      CAMPAIGN_TIME_EXCEEDED: 'not_called_time_up',
    },
  },
  cancelled: {
    otherwise: 'not_called_terminated',
    bySubStatus: {
      DND_SKIPPED: 'dnd_skipped',
      CAMPAIGN_TIME_EXCEEDED: 'not_called_time_up',
    },
  },
  error: { otherwise: 'failed', bySubStatus: { DND_SKIPPED: 'dnd_skipped' } },
  forwarded: { otherwise: 'completed', bySubStatus: {} },
};

const isStatus = (s: string): s is CallStatus => (callStatuses as readonly string[]).includes(s);

/** The outcome of one call (a status outside the interface: "other"). */
export function outcomeOf(status: string, subStatus: string | null, voicemail?: boolean | null): CallOutcome {
  if (!isStatus(status)) return 'other';
  const row = OUTCOME_TABLE[status];
  const outcome =
    (subStatus === null ? undefined : row.bySubStatus[subStatus as CallSubStatus]) ?? row.otherwise;
  return outcome === 'completed' && voicemail === true ? 'voicemail' : outcome;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The table as one SQL expression over a call's columns (`status`, `sub_status`, `voicemail` given
 * as SQL, e.g. `c.status`). A null status (no call) is "not called".
 */
export function outcomeSql(status: string, subStatus: string, voicemail: string): string {
  const branches = callStatuses.map((s) => {
    const row = OUTCOME_TABLE[s];
    const subs = Object.entries(row.bySubStatus).map(([sub, o]) => `WHEN ${quote(sub)} THEN ${quote(o)}`);
    const otherwise =
      row.otherwise === 'completed'
        ? `CASE WHEN ${voicemail} = 1 THEN 'voicemail' ELSE 'completed' END`
        : quote(row.otherwise);
    const inner = subs.length === 0 ? otherwise : `CASE ${subStatus} ${subs.join(' ')} ELSE ${otherwise} END`;
    return `WHEN ${status} = ${quote(s)} THEN ${inner}`;
  });
  return `(CASE WHEN ${status} IS NULL THEN 'not_called' ${branches.join(' ')} ELSE 'other' END)`;
}

export const STATUS_TEXT: Record<CallStatus, string> = {
  registered: 'Queued',
  ongoing: 'On a call',
  retry: 'Waiting to retry',
  error: 'Error',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  forwarded: 'Forwarded',
};

/** Each of the interface's 22 sub-statuses in plain words. */
export const SUB_STATUS_TEXT: Record<CallSubStatus, string> = {
  IN_DB: 'Waiting in the service’s queue',
  QUEUED: 'Queued for dialling',
  ACCEPTED: 'Answered',
  RATE_LIMITED: 'Held back by the rate limit',
  RETRY_LIMIT_REACHED: 'No answer after every retry',
  RETRY_SCHEDULED: 'Retry scheduled',
  FAILED: 'Call failed',
  USER_DID_NOT_JOIN: 'Not picked up',
  USER_LEFT: 'The person hung up',
  USER_BECAME_IDLE: 'The person stopped responding',
  CAMPAIGN_TIME_EXCEEDED: 'Campaign time ended before the call',
  MAX_CALL_DURATION: 'Reached the maximum call length',
  NOT_ABLE_TO_CALL: 'Could not connect (busy or unreachable)',
  USER_TERMINATED: 'Stopped by a terminate request',
  DND_SKIPPED: 'Skipped: number on Do Not Disturb',
  VOICEMAIL_DETECTED: 'Voicemail detected',
  VOICEMAIL_DETECTED_VIA_LLM: 'Voicemail detected by the agent',
  PRE_CALL_API_FAILED: 'Pre-call API failed',
  RECONCILED_TO_ERROR_FROM_REGISTERED: 'Closed as an error by the service (was queued)',
  RECONCILED_TO_ERROR_FROM_RETRY: 'Closed as an error by the service (was waiting to retry)',
  RECONCILED_TO_ERROR_FROM_ONGOING: 'Closed as an error by the service (was on a call)',
  RECONCILED_TO_COMPLETED_FROM_ONGOING: 'Closed as completed by the service (was on a call)',
};

/** "SOME_NEW_CODE" → "Some new code" (a code this app does not know yet). */
const words = (code: string): string => {
  const w = code.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
};

export const statusText = (status: string | null): string =>
  status === null ? '—' : isStatus(status) ? STATUS_TEXT[status] : words(status);

export const subStatusText = (sub: string | null): string =>
  sub === null
    ? '—'
    : (callSubStatuses as readonly string[]).includes(sub)
      ? SUB_STATUS_TEXT[sub as CallSubStatus]
      : words(sub);

export const outcomeText = (o: string): string =>
  (CALL_OUTCOMES as readonly string[]).includes(o) ? OUTCOME_TEXT[o as CallOutcome] : words(o);
