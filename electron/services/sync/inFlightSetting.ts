// The setting for how many history requests a sync keeps in flight per workspace (at most; the
// pass halves it on a 429 or rising latency). Stored like the recordings' size cap.
import { z } from 'zod';
import type { DbClient } from '../db/client.ts';
import { defaultSyncPolicy } from './syncPolicy.ts';

export const MAX_IN_FLIGHT_SETTING = 'sync.maxRequestsInFlight';
export const maxInFlightSchema = z.number().int().min(1).max(16);

/** The limit in force: the setting, or the default (4) when none (or a damaged one) is stored. */
export async function maxRequestsInFlight(db: DbClient): Promise<number> {
  const parsed = maxInFlightSchema.safeParse(await db.call('settings.get', { key: MAX_IN_FLIGHT_SETTING }));
  return parsed.success ? parsed.data : defaultSyncPolicy.maxInFlight;
}
