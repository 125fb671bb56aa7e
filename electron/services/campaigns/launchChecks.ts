// What refuses a launch before anything is uploaded: more calls than credits (both figures said), and
// calls that cannot fit before the campaign's end unless the operator accepted the shortfall. The
// app's launch handler checks before it stores the launch; the runner checks again right before the
// upload or save (app and CLI alike), since credits may have gone meanwhile or the launch was queued.
import { callConfigDefaults as d } from '../../../shared/domain/callConfig.ts';
import type { CampaignPlan } from '../../../shared/ipc/channels/campaigns.ts';
import type { StoredLaunch } from './launches.queries.ts';
import { formatCount } from '../../../shared/domain/formatCount.ts';
import type { LaunchRequest } from './launchRequest.ts';
import { fitCalls } from './plan.ts';

export interface LaunchCheckInput {
  calls: number;
  /** Credits the service reports now; null when it did not say (the service checks again). */
  credits: number | null;
  /** Calls the plan cannot place before the end. */
  callsNotFitting: number;
  acceptShortfall: boolean;
}

export interface LaunchRefusal {
  kind: 'credits' | 'shortfall';
  message: string;
}

export function launchRefusals(c: LaunchCheckInput): LaunchRefusal[] {
  const out: LaunchRefusal[] = [];
  if (c.credits !== null && c.calls > c.credits)
    out.push({
      kind: 'credits',
      message: `Not enough credits: this campaign needs ${formatCount(c.calls)} credits (one a call) and the workspace has ${formatCount(Math.floor(c.credits))}. Add credits or send fewer rows, then launch again. Nothing was uploaded.`,
    });
  if (c.callsNotFitting > 0 && !c.acceptShortfall)
    out.push({
      kind: 'shortfall',
      message: `${formatCount(c.callsNotFitting)} of ${formatCount(c.calls)} calls do not fit before the campaign ends: widen the daily window, raise the concurrency or move the end, or accept the shortfall. Nothing was uploaded.`,
    });
  return out;
}

/**
 * The plan's refusals (the builder disables Launch with them; the launch summary refuses them):
 * credits as the service reported them for this plan, and the calls that do not fit.
 */
export const planRefusals = (
  plan: Pick<CampaignPlan, 'calls' | 'callsNotFitting' | 'credits'>,
  acceptShortfall: boolean,
): LaunchRefusal[] =>
  launchRefusals({
    calls: plan.calls,
    credits: plan.credits.source === 'service' ? plan.credits.available : null,
    callsNotFitting: plan.callsNotFitting,
    acceptShortfall,
  });

/**
 * The calls a stored launch places: the rows its upload file carries less the rows the service
 * will drop (predicted when the file was written), as the plan and the confirmation count them.
 */
export const callsOfLaunch = (l: Pick<StoredLaunch, 'valid' | 'predicted_refused'>): number =>
  Math.max(0, l.valid - (l.predicted_refused ?? 0));

/** The calls of a stored launch request that do not fit before its end. */
export function callsNotFittingOf(req: LaunchRequest, calls: number, nowMs: number): number {
  const t = req.callConfig.call_time;
  return fitCalls({
    calls,
    from: nowMs,
    start: req.start,
    end: req.end,
    timezone: t?.timezone ?? d.timezone,
    windowStart: t?.call_start_time ?? d.callStartTime,
    windowEnd: t?.call_end_time ?? d.callEndTime,
    maxCallLengthSeconds: req.callConfig.max_call_length ?? d.maxCallLengthSeconds,
    concurrency: req.concurrency,
  }).callsNotFitting;
}
