// How a stored launch and its timeline rows look to the app (and to the CLI's report).
import type { LaunchView, TimelineEntry } from '../../../shared/ipc/channels/campaigns.ts';
import type { StoredLaunch, StoredStep } from './launches.queries.ts';

export const toLaunchView = (l: StoredLaunch): LaunchView => ({
  id: l.id,
  workspaceId: l.workspace_id,
  name: l.name,
  listId: l.list_id,
  agentId: l.agent_id,
  flow: l.flow,
  state: l.state,
  step: l.step as LaunchView['step'],
  serviceId: l.service_id,
  valid: l.valid,
  invalid: l.invalid,
  serviceInvalid: l.service_invalid,
  rejectsUrl: l.rejects_url,
  rowsServiceWillDrop: l.predicted_refused,
  arrived: l.arrived,
  message: l.message,
  createdAt: l.created_at,
  updatedAt: l.updated_at,
  draftId: l.draft_id,
  terminatedAt: l.terminated_at,
});

export const toTimelineEntry = (s: StoredStep): TimelineEntry => ({
  step: s.step as TimelineEntry['step'],
  outcome: s.outcome as TimelineEntry['outcome'],
  at: s.at,
  message: s.message,
  httpStatus: s.http_status,
});
