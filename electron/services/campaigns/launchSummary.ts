// The confirmation before calls go out: its figures (the app's dialog shows them, the CLI prints
// them as lines) and which other campaigns count for the overlap (running, or run in the last 7 days).
import { callConfigDefaults } from '../../../shared/domain/callConfig.ts';
import { campaignTimeToInstant } from '../../../shared/domain/dates.ts';
import type { AgentLint } from '../../../shared/ipc/channels/agents.ts';
import type {
  CampaignPlan,
  CampaignSettings,
  LaunchSummary,
  Overlaps,
} from '../../../shared/ipc/channels/campaigns.ts';
import type { StoredLaunch } from './launches.queries.ts';
import { callsNotFittingOf } from './launchChecks.ts';
import { launchRequestSchema } from './launchRequest.ts';
import type { LaunchRequest } from './launchRequest.ts';

export const OVERLAP_DAYS = 7;

/**
 * A launch whose contacts count as "being called": queued or under way, or started and not
 * ended (nor terminated) more than 7 days ago. A refused launch called nobody.
 */
export function recentOrRunning(l: StoredLaunch, nowMs: number): boolean {
  if (l.state === 'failed') return false;
  const since = nowMs - OVERLAP_DAYS * 86_400_000;
  if (l.terminated_at) return Date.parse(l.terminated_at) >= since;
  if (l.state !== 'started' && l.state !== 'needs-decision') return true;
  const request = launchRequestSchema.safeParse(JSON.parse(l.settings));
  const end = request.success
    ? campaignTimeToInstant(request.data.end, request.data.callConfig.call_time?.timezone ?? 'UTC')
    : null;
  return (end?.ok ? end.value : Date.parse(l.updated_at)) >= since;
}

/**
 * Rows the service will drop: with "remove invalid rows" on, the rows whose mapped, non-optional
 * variable is empty (each row once, as the variable check counts them); with it off the launch is
 * refused while any would be sent, so none are dropped.
 */
export function predictServiceDrops(s: CampaignSettings, lint: AgentLint): number {
  return s.removeInvalid ? lint.rowsServiceWillDrop : 0;
}

export function launchSummaryOf(a: {
  settings: CampaignSettings;
  listName: string;
  /** Its calls, drops and credits are the summary's: the plan and the confirmation agree. */
  plan: CampaignPlan;
  agentName: string | null;
  overlaps: Overlaps | null;
  /** Rows held back: their number is on the do-not-call list. */
  heldBack?: number;
}): LaunchSummary {
  const s = a.settings;
  return {
    name: s.name.trim(),
    list: a.listName,
    calls: a.plan.calls,
    rowsServiceWillDrop: a.plan.rowsServiceWillDrop,
    callsNotFitting: a.plan.callsNotFitting,
    credits: { needed: a.plan.credits.needed, available: a.plan.credits.available },
    window: { start: s.call.windowStart, end: s.call.windowEnd },
    timezone: s.timezone,
    start: s.start,
    end: s.end,
    callers:
      s.numberSource.kind === 'numbers'
        ? { kind: 'numbers', numbers: s.numberSource.fromNumbers }
        : { kind: 'pool', pool: s.numberSource.numberPoolId },
    agent: { id: s.agentId ?? '', name: a.agentName, version: s.versionId },
    overlaps: a.overlaps,
    hoursWarning: a.plan.hoursWarning,
    ...(a.heldBack !== undefined ? { heldBack: a.heldBack } : {}),
  };
}

/**
 * The summary of a launch request (the CLI's: a file, no plan). Credits needed are one a call, as
 * the plan counts them; the rows the service will drop are the file's rows left out when the
 * service removes invalid rows itself (the cleaner has already taken them out: none). A window the
 * request leaves out is the service's default one.
 */
export function summaryFromRequest(a: {
  request: LaunchRequest;
  list: string;
  calls: number;
  creditsAvailable: number | null;
  /** The agent's name (the local library's, else the service's); null when neither said. */
  agentName: string | null;
  /** Contacts of the file in other campaigns (overlaps.ts); null when not checked. */
  overlaps: Overlaps | null;
  hoursWarning: string | null;
  nowMs: number;
}): LaunchSummary {
  const r = a.request;
  const time = r.callConfig.call_time;
  return {
    name: r.name,
    list: a.list,
    calls: a.calls,
    rowsServiceWillDrop: 0,
    callsNotFitting: callsNotFittingOf(r, a.calls, a.nowMs),
    credits: { needed: a.calls, available: a.creditsAvailable },
    window: {
      start: time?.call_start_time ?? callConfigDefaults.callStartTime,
      end: time?.call_end_time ?? callConfigDefaults.callEndTime,
    },
    timezone: time?.timezone ?? callConfigDefaults.timezone,
    start: r.start,
    end: r.end,
    callers:
      'numberPoolId' in r.numberSource
        ? { kind: 'pool', pool: r.numberSource.numberPoolId }
        : { kind: 'numbers', numbers: r.numberSource.fromNumbers },
    agent: { id: r.agentId, name: a.agentName, version: null },
    overlaps: a.overlaps,
    hoursWarning: a.hoursWarning,
  };
}

/** "Start 1,234 calls": the confirming button's words. */
export const startLabel = (calls: number, locale?: string): string =>
  `Start ${calls.toLocaleString(locale)} ${calls === 1 ? 'call' : 'calls'}`;

/** The first line of the CLI's summary; the figures follow, indented by two spaces. */
export const SUMMARY_HEADING = 'campaign-desk launch: before calls go out:';

/** The summary as lines of text (the CLI prints them before asking): a heading, then indented figures. */
export function summaryLines(s: LaunchSummary, locale?: string): string[] {
  return [SUMMARY_HEADING, ...summaryFigures(s, locale).map((line) => `  ${line}`)];
}

function summaryFigures(s: LaunchSummary, locale: string | undefined): string[] {
  const n = (v: number) => v.toLocaleString(locale);
  const overlaps = s.overlaps;
  return [
    `Campaign:          ${s.name}`,
    `List:              ${s.list}`,
    `Calls to place:    ${n(s.calls)}`,
    ...(s.heldBack !== undefined ? [`Held back:         ${n(s.heldBack)} on the do-not-call list`] : []),
    `Service will drop: ${s.rowsServiceWillDrop === null ? 'not predicted' : `${n(s.rowsServiceWillDrop)} rows`}`,
    ...(s.callsNotFitting > 0 ? [`Do not fit:        ${n(s.callsNotFitting)} calls before the end`] : []),
    `Credits:           ${n(s.credits.needed)} needed, ${s.credits.available === null ? 'available not known' : `${n(s.credits.available)} available`}`,
    `Window:            ${s.window.start}–${s.window.end} daily (${s.timezone})`,
    `Start – end:       ${s.start} – ${s.end} (${s.timezone})`,
    `Caller numbers:    ${s.callers.kind === 'pool' ? `number pool ${s.callers.pool}` : s.callers.numbers.join(', ')}`,
    `Agent:             ${s.agent.name ? `${s.agent.name} (${s.agent.id})` : s.agent.id}, ${s.agent.version ? `version ${s.agent.version}` : 'active version'}`,
    ...(s.hoursWarning ? [`Calling hours:     ${s.hoursWarning}`] : []),
    `Overlaps:          ${
      overlaps === null
        ? 'not checked'
        : overlaps.contacts === 0
          ? 'none in campaigns running or run in the last 7 days'
          : `${n(overlaps.contacts)} ${overlaps.contacts === 1 ? 'contact is' : 'contacts are'} also in ${overlaps.campaigns.map((c) => `${c.name} (${n(c.contacts)})`).join(', ')}, running or run in the last 7 days`
    }`,
  ];
}
