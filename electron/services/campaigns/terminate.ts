// Terminating a campaign's remaining calls on the service, remembered on its launch and its calls.
import type { ResponseOf } from '../../../shared/ipc/contract.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { agentServiceFailure } from '../workspaces/workspaceAccess.ts';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import type { DbClient } from '../db/client.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import { explainApiError, isOffline } from './explainError.ts';
import type { StoredLaunch } from './launches.queries.ts';
import { TIMEOUT_MS } from './launchQueue.ts';

export async function terminateCampaign(
  db: DbClient,
  record: WorkspaceRecord,
  client: () => Promise<ApiClient>,
  campaignId: string,
  onLaunch: (l: StoredLaunch) => void,
): Promise<ResponseOf<'campaigns:terminate'>> {
  const now = () => new Date().toISOString();
  try {
    const r = await (await client()).terminateCalls({ campaign_id: campaignId });
    const marked = await db.call('campaigns.markTerminated', {
      workspaceId: record.id,
      serviceId: campaignId,
      at: now(),
    });
    if (marked) {
      const l = (await db.call('campaigns.launches', { workspaceId: record.id })).find(
        (x) => x.service_id === campaignId,
      );
      if (l) onLaunch(l);
    }
    // Remembered so calls of it read "Terminated" where the service's listing says completed.
    await db.call('calls.recordTermination', { workspaceId: record.id, campaignId, at: now() });
    return { message: r.message, terminated: r.terminated_count ?? null };
  } catch (e) {
    if (!isApiError(e)) throw e;
    if (isOffline(e)) throw agentServiceFailure(e, record, TIMEOUT_MS);
    throw new DeskFailure('service_error', explainApiError(e));
  }
}
