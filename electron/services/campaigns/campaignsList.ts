// The campaigns list: the service's listing and the local launches merged, each campaign once (by
// its service id), with whether the service can terminate it.
import type { z } from 'zod';
import type { campaignRowSchema } from '../../../shared/ipc/channels/campaigns.ts';
import { callConfigDefaults } from '../../../shared/domain/callConfig.ts';
import { campaignTimeToInstant } from '../../../shared/domain/dates.ts';
import type { StoredLaunch } from './launches.queries.ts';
import { callsOfLaunch } from './launchChecks.ts';
import { launchRequestSchema } from './launchRequest.ts';

type CampaignRow = z.infer<typeof campaignRowSchema>;

/** Service statuses of a campaign that has started and not finished (its calls can be terminated). */
const RUNNING = new Set([
  'scheduled',
  'ongoing',
  'started',
  'running',
  'in_progress',
  'in-progress',
  'paused',
]);
/** Service statuses that say it never started or is over. */
const NOT_RUNNING = new Set([
  'draft',
  'failed',
  'completed',
  'terminated',
  'cancelled',
  'canceled',
  'stopped',
]);

/**
 * Terminate is offered for a started, not finished campaign: by the service's status when listed,
 * else by the local launch (started, not terminated). Never for one that never started.
 */
export function canTerminate(serviceStatus: string | null, local: StoredLaunch | null): boolean {
  if (local?.terminated_at) return false;
  if (local && local.state !== 'started') return false;
  const status = serviceStatus?.toLowerCase() ?? null;
  if (status !== null) return RUNNING.has(status) || (!NOT_RUNNING.has(status) && local?.state === 'started');
  return local?.state === 'started' && local.service_id !== null;
}

const num = (v: unknown) => (typeof v === 'number' && v >= 0 ? v : null);

/** A local launch's start (its request's `DD/MM/YYYY, HH:MM` in its zone) as an instant, and the zone. */
function startOf(l: StoredLaunch): { startsAt: string | null; timezone: string | null } {
  let settings: unknown;
  try {
    settings = JSON.parse(l.settings);
  } catch {
    return { startsAt: null, timezone: null };
  }
  const r = launchRequestSchema.safeParse(settings);
  if (!r.success) return { startsAt: null, timezone: null };
  const timezone = r.data.callConfig.call_time?.timezone ?? callConfigDefaults.timezone;
  const at = campaignTimeToInstant(r.data.start, timezone);
  return { startsAt: at.ok ? new Date(at.value).toISOString() : null, timezone };
}

/** The service's campaign_start_time (an ISO instant), null when absent or unreadable. */
const serviceStart = (v: unknown): string | null =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v)).toISOString() : null;

/** Status words of a local launch (terminated wins). */
const localStatus = (l: StoredLaunch) => (l.terminated_at ? 'terminated' : l.state);

export function mergeCampaigns(
  launches: readonly StoredLaunch[],
  listing: ReadonlyArray<Record<string, unknown>>,
): CampaignRow[] {
  const byServiceId = new Map<string, StoredLaunch>();
  for (const l of launches) {
    if (l.bulk_list_id) byServiceId.set(l.bulk_list_id, l);
    if (l.service_list_id) byServiceId.set(l.service_list_id, l);
  }
  const merged = new Set<string>();
  const seen = new Set<string>();
  const fromService: CampaignRow[] = [];
  for (const c of listing) {
    const campaignId = String(c.id ?? '');
    const serviceId = String(c.bulk_list_id ?? campaignId);
    // The listing may name a campaign twice (pages that moved): once here.
    if (!serviceId || seen.has(serviceId)) continue;
    seen.add(serviceId);
    const local = byServiceId.get(serviceId) ?? byServiceId.get(campaignId) ?? null;
    if (local) merged.add(local.id);
    const status = typeof c.campaign_status === 'string' ? c.campaign_status : null;
    fromService.push({
      launchId: local?.id ?? null,
      campaignId,
      serviceId,
      name: local?.name ?? String(c.name ?? campaignId),
      status: local?.terminated_at ? 'terminated' : (status ?? (local ? local.state : 'unknown')),
      registered: num(c.registered_count),
      completed: num(c.completed_count),
      total: num(c.total_count),
      updatedAt: typeof c.updated_at === 'string' ? c.updated_at : null,
      canTerminate: canTerminate(status, local),
      ...(local ? startOf(local) : { startsAt: serviceStart(c.campaign_start_time), timezone: null }),
    });
  }
  const localOnly = launches
    .filter((l) => !merged.has(l.id))
    .map((l): CampaignRow => ({
      launchId: l.id,
      campaignId: l.service_id,
      serviceId: l.service_id,
      name: l.name,
      status: localStatus(l),
      registered: null,
      completed: null,
      // Its calls: what the service accepted, else the rows sent less those it will drop.
      total: l.arrived ?? callsOfLaunch(l),
      updatedAt: l.updated_at,
      canTerminate: canTerminate(null, l),
      ...startOf(l),
    }));
  return [...localOnly, ...fromService];
}
