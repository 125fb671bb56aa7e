import { z } from 'zod';
import { CALL_OUTCOMES } from '../../../domain/callOutcome.ts';
import { callStatuses } from '../../../service/enums.ts';

// Field schemas the calls channels share: ids, times, counts, statuses and outcomes.

export const count = z.number().int().nonnegative();
export const isoTime = z.iso.datetime({ offset: true });
export const workspaceId = z.string().min(1).max(200);
export const callId = z.string().min(1).max(200);
export const bulkListId = z.string().min(1).max(200);

/** Statuses the service documents; stored calls may carry others (shown as they came). */
export const CALL_STATUSES = callStatuses;

/**
 * What a call, or a contact row of a launched list (its latest call), came to: the outcome table of
 * shared/domain/callOutcome.ts ("not_called": a row with no call yet).
 */
export const CAMPAIGN_OUTCOMES = CALL_OUTCOMES;
export type CampaignOutcome = (typeof CAMPAIGN_OUTCOMES)[number];
export const campaignOutcomeSchema = z.enum(CAMPAIGN_OUTCOMES);
