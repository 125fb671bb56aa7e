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

/** done / current / todo for each step of the launch's flow. */
export function stepStatus(
  launch: LaunchView,
): { step: LaunchView['step']; status: 'done' | 'current' | 'todo' }[] {
  const steps = stepsOf(launch.flow);
  const at = launch.step === 'verify-start' ? steps.length - 1 : steps.indexOf(launch.step);
  return steps.map((step, i) => ({
    step,
    status: launch.state === 'started' || i < at ? 'done' : i === at ? 'current' : 'todo',
  }));
}
