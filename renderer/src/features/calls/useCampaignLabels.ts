import { useMemo } from 'react';
import { campaignLabels } from './campaignNames.ts';
import { useCalls } from './callsStore.ts';

/** bulk_list_id → the campaign's name as the operator gave it (see campaignNames.ts). */
export function useCampaignLabels(): ReadonlyMap<string, string> {
  const campaigns = useCalls((s) => s.campaigns);
  return useMemo(() => campaignLabels(campaigns), [campaigns]);
}
