// The one place a launch is built: the request it sends (from the builder's settings or the CLI's
// options) and its outbox entry (campaign_launches), with the rule that a campaign launches once.
// The app (campaigns:launch) and the CLI (`campaign-desk launch`) both come through here.
import type { CampaignSettings } from '../../../shared/ipc/channels/campaigns.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import type { NewLaunch, StoredLaunch, StoredStep } from './launches.queries.ts';
import { firstStep, flowFor, launchRequestSchema } from './launchRequest.ts';
import type { LaunchRequest } from './launchRequest.ts';
import { callConfigOf } from './validateSettings.ts';

/**
 * A launch request from its parts, trimmed (an empty callback URL is left out) and checked
 * against the outbox's schema: what the runner reads back after a restart is what was built.
 */
export function buildLaunchRequest(parts: LaunchRequest): LaunchRequest {
  const callbackUrl = parts.callbackUrl?.trim();
  const { callbackUrl: _dropped, concurrency, ...rest } = parts;
  return launchRequestSchema.parse({
    ...rest,
    name: parts.name.trim(),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(callbackUrl ? { callbackUrl } : {}),
  });
}

/** The upload's file name for a campaign name (the service shows it). */
export const uploadFileName = (name: string): string =>
  `${name.trim().replace(/[^\w.-]+/g, '_') || 'campaign'}.csv`;

/** The app's request: the builder's settings and the agent's variables map of the export. */
export function requestFromSettings(
  s: CampaignSettings,
  variablesMap: LaunchRequest['variablesMap'],
): LaunchRequest {
  return buildLaunchRequest({
    agentId: s.agentId ?? '',
    name: s.name,
    countryCode: s.countryCode,
    numberSource:
      s.numberSource.kind === 'numbers'
        ? { fromNumbers: s.numberSource.fromNumbers }
        : { numberPoolId: s.numberSource.numberPoolId },
    start: s.start,
    end: s.end,
    callConfig: callConfigOf(s),
    concurrency: s.concurrency,
    callbackUrl: s.callbackUrl,
    removeInvalid: s.removeInvalid,
    transliterate: s.transliterateNames,
    variablesMap,
    fileName: uploadFileName(s.name),
    ...(s.acceptShortfall ? { acceptShortfall: true } : {}),
  });
}

export interface OutboxInput {
  id: string;
  workspaceId: string;
  request: LaunchRequest;
  /** The contact list it came from (null for a CLI file). */
  listId: number | null;
  /** The builder draft (its campaign) it came from; null for the CLI. */
  draftId: string | null;
  /** The CLI's resume key; null for the app. */
  launchKey: string | null;
  uploadFile: string;
  valid: number;
  invalid: number;
  /** Rows the app predicts the service will refuse (an empty variable); the app's launches only. */
  predictedRefused?: number;
  /** Waits for the operator's confirmation (made offline) instead of going out at once. */
  queued: boolean;
  at: string;
}

/** The outbox row of a launch: its flow by row count, at the flow's first step. */
export function outboxEntry(i: OutboxInput): NewLaunch {
  const flow = flowFor(i.valid);
  return {
    id: i.id,
    workspace_id: i.workspaceId,
    launch_key: i.launchKey,
    list_id: i.listId,
    draft_id: i.draftId,
    name: i.request.name,
    agent_id: i.request.agentId,
    flow,
    state: i.queued ? 'queued' : 'pending',
    step: firstStep(flow),
    settings: JSON.stringify(i.request),
    upload_file: i.uploadFile,
    valid: i.valid,
    invalid: i.invalid,
    predicted_refused: i.predictedRefused ?? null,
    created_at: i.at,
  };
}

/** A start of this launch was sent without a clear answer: it may have started (never send it again). */
export const startMayHaveHappened = (steps: readonly Pick<StoredStep, 'step' | 'outcome'>[]): boolean =>
  steps.some(
    (s) =>
      s.step === 'verify-start' ||
      ((s.step === 'start' || s.step === 'make-call-async') && s.outcome === 'ambiguous'),
  );

/** Why a campaign that has a launch cannot be launched again (null when it can be sent again). */
export function launchAgainRefusal(
  launch: StoredLaunch,
  steps: readonly Pick<StoredStep, 'step' | 'outcome'>[],
): string | null {
  if (launch.state !== 'failed')
    return `${launch.name} was already launched${launch.service_id ? ` (id ${launch.service_id})` : ''}: a campaign launches once. Use "Duplicate as new campaign" to call its contacts again.`;
  if (startMayHaveHappened(steps))
    return `${launch.name} may have started (its start had no clear answer): check it on the service before sending anything again.`;
  return null;
}

/**
 * Puts a launch in the outbox: a new row, or, for a campaign (draft) whose launch the service
 * refused, the same row again with the corrected request (the same campaign, not a second one).
 * A campaign whose launch is under way, started or undecided is refused (`conflict`); the
 * unique index on draft_id refuses a second row even to a caller that skipped this check.
 */
export async function enqueueLaunch(db: DbClient, i: OutboxInput): Promise<StoredLaunch> {
  const entry = outboxEntry(i);
  if (i.draftId) {
    const existing = await db.call('campaigns.launchByDraft', { draftId: i.draftId });
    if (existing) {
      const steps = await db.call('campaigns.steps', { launchId: existing.id });
      const refusal = launchAgainRefusal(existing, steps);
      if (refusal || existing.workspace_id !== i.workspaceId)
        throw new DeskFailure(
          'conflict',
          refusal ?? 'This campaign belongs to another workspace.',
          'draftId',
        );
      const again = await db.call('campaigns.relaunch', {
        id: existing.id,
        name: entry.name,
        agent_id: entry.agent_id,
        flow: entry.flow,
        state: entry.state as 'pending' | 'queued',
        step: entry.step,
        settings: entry.settings,
        upload_file: entry.upload_file,
        valid: entry.valid,
        invalid: entry.invalid,
        predicted_refused: entry.predicted_refused ?? null,
        at: i.at,
      });
      if (!again)
        throw new DeskFailure(
          'conflict',
          `${existing.name} is being sent already: a campaign launches once.`,
          'draftId',
        );
      return again;
    }
  }
  try {
    return await db.call('campaigns.insertLaunch', entry);
  } catch (error) {
    // Two sends of one draft at the same moment: the unique index lets one in.
    if (i.draftId && error instanceof Error && /UNIQUE/.test(error.message))
      throw new DeskFailure(
        'conflict',
        `${entry.name} was already launched: a campaign launches once.`,
        'draftId',
      );
    throw error;
  }
}
