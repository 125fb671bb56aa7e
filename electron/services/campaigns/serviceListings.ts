// The workspace's caller numbers and the service's campaign listing, kept in campaign_cache so the
// builder and the campaigns list work offline: refreshed on request, read back from the cache.
import { z } from 'zod';
import type { ResponseOf } from '../../../shared/ipc/contract.ts';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import type { DbClient } from '../db/client.ts';
import { storedJson } from '../db/storedJson.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import { mergeCampaigns } from './campaignsList.ts';
import { explainApiError } from './explainError.ts';
import { poolDetail } from './numberPools.ts';

/**
 * A cached body: the service's objects as it sent them. Read loosely (key by key below) rather than
 * by the API's schemas, which would drop the older keys read as fallbacks (phone_number, name).
 */
const cachedBodyJson = storedJson(z.array(z.record(z.string(), z.unknown())), 'cached service answer');

type CacheKind = 'numbers' | 'listing';

/** Asks the service and keeps its answer; a service error is kept as the cache's last error. */
async function refreshCache(
  db: DbClient,
  workspaceId: string,
  kind: CacheKind,
  fetch: () => Promise<unknown[]>,
): Promise<void> {
  try {
    const body = JSON.stringify(await fetch());
    await db.call('campaigns.setCache', {
      workspaceId,
      kind,
      body,
      syncedAt: new Date().toISOString(),
      error: null,
    });
  } catch (e) {
    if (!isApiError(e)) throw e;
    await db.call('campaigns.setCache', { workspaceId, kind, error: explainApiError(e) });
  }
}

async function readCache(db: DbClient, workspaceId: string, kind: CacheKind) {
  const cached = await db.call('campaigns.cache', { workspaceId, kind });
  return {
    body: cachedBodyJson(cached?.body ?? '[]'),
    syncedAt: cached?.synced_at ?? null,
    lastError: cached?.last_error ?? null,
  };
}

export async function workspaceNumbers(
  db: DbClient,
  record: WorkspaceRecord,
  client: (() => Promise<ApiClient>) | null,
): Promise<ResponseOf<'campaigns:numbers'>> {
  if (client)
    await refreshCache(db, record.id, 'numbers', async () =>
      (await client()).listWorkspaceNumbers({ limit: 100 }),
    );
  const cached = await readCache(db, record.id, 'numbers');
  const numbers = cached.body.map((n) => ({
    id: String(n.id ?? ''),
    number: String(n.number ?? n.phone_number ?? ''),
    numberPoolId: typeof n.number_pool_id === 'string' ? n.number_pool_id : null,
    label: typeof n.display_name === 'string' ? n.display_name : typeof n.name === 'string' ? n.name : null,
  }));
  const pools = [...new Set(numbers.flatMap((n) => (n.numberPoolId ? [n.numberPoolId] : [])))];
  const poolDetails = pools.map((id) => poolDetail(id, numbers));
  return { numbers, pools, poolDetails, syncedAt: cached.syncedAt, lastError: cached.lastError };
}

/** The campaigns list: this desk's launches merged with the service's listing. */
export async function campaignsListing(
  db: DbClient,
  record: WorkspaceRecord,
  client: (() => Promise<ApiClient>) | null,
): Promise<ResponseOf<'campaigns:list'>> {
  if (client)
    await refreshCache(
      db,
      record.id,
      'listing',
      async () => (await (await client()).listCampaigns({ limit: 100, callCount: true })).campaigns,
    );
  const cached = await readCache(db, record.id, 'listing');
  const launches = await db.call('campaigns.launches', { workspaceId: record.id });
  return {
    campaigns: mergeCampaigns(launches, cached.body),
    syncedAt: cached.syncedAt,
    lastError: cached.lastError,
  };
}
