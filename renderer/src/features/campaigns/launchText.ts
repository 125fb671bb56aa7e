import type { LaunchState, LaunchView } from '../../../../shared/ipc/channels/campaigns.ts';

// Plain words for a launch's steps and states, shared by the builder's progress, the queue and the
// timeline.

export const STEP_TEXT: Record<LaunchView['step'], string> = {
  upload: 'Upload the list',
  'upload-status': 'Wait for the service to read the upload',
  balance: 'Check the credit balance',
  'make-call-async': 'Start the calls',
  save: 'Save the campaign',
  start: 'Start the campaign',
  'verify-start': 'Ask the service whether the start happened',
};

export const STATE_TEXT: Record<LaunchState, string> = {
  queued: 'Waiting for your confirmation',
  pending: 'Sending',
  waiting: 'Waiting for the service to be reachable',
  started: 'Started',
  failed: 'Refused',
  'needs-decision': 'Needs your decision',
};

/** The service's campaign statuses in words ("terminated": terminated, the listing says completed). */
const SERVICE_STATUS_TEXT: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  ongoing: 'Ongoing',
  completed: 'Completed',
  terminated: 'Terminated',
  failed: 'Failed',
  paused: 'Paused',
};

/** A campaign row's status: a local launch state, else the service's status, in words. */
export const campaignStatusText = (status: string): string =>
  STATE_TEXT[status as LaunchState] ?? SERVICE_STATUS_TEXT[status] ?? status;

/** The steps a launch of this flow goes through, in order. */
export function stepsOf(flow: LaunchView['flow']): LaunchView['step'][] {
  return flow === 'large' ? ['upload', 'upload-status', 'balance', 'make-call-async'] : ['save', 'start'];
}

export type StepStatus = 'done' | 'current' | 'failed' | 'todo';

/**
 * done / current / failed / todo for each step of the launch's flow. A refused launch's step is
 * failed (never current) and the steps after it were not started.
 */
export function stepStatus(launch: LaunchView): { step: LaunchView['step']; status: StepStatus }[] {
  const steps = stepsOf(launch.flow);
  const at = launch.step === 'verify-start' ? steps.length - 1 : steps.indexOf(launch.step);
  const here: StepStatus = launch.state === 'failed' ? 'failed' : 'current';
  return steps.map((step, i) => ({
    step,
    status: launch.state === 'started' || i < at ? 'done' : i === at ? here : 'todo',
  }));
}

/** A campaign's state in words: a terminated campaign says so whatever its launch did. */
export const campaignStateText = (launch: LaunchView): string =>
  launch.terminatedAt ? 'Terminated' : STATE_TEXT[launch.state];

const counted = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * A launch's rows in words, as the plan and the confirmation count them: the calls (rows sent less
 * the rows the service will drop; once it answered, the rows it accepted), the drops still predicted,
 * the invalid rows left out, and the rows the service refused.
 */
export function launchRowsText(
  l: Pick<LaunchView, 'valid' | 'invalid' | 'rowsServiceWillDrop' | 'serviceInvalid' | 'arrived'>,
): string {
  const answered = l.serviceInvalid !== null;
  const calls =
    l.arrived ?? Math.max(0, l.valid - (answered ? l.serviceInvalid! : (l.rowsServiceWillDrop ?? 0)));
  const parts = [counted(calls, 'call to place', 'calls to place')];
  if (!answered && (l.rowsServiceWillDrop ?? 0) > 0)
    parts.push(counted(l.rowsServiceWillDrop!, 'row the service will drop', 'rows the service will drop'));
  parts.push(`${l.invalid.toLocaleString()} invalid (not sent)`);
  if (answered) parts.push(`${l.serviceInvalid!.toLocaleString()} refused by the service`);
  return parts.join(' · ');
}
