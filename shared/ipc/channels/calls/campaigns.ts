import { z } from 'zod';
import { bulkListId, campaignOutcomeSchema, CAMPAIGN_OUTCOMES, count, workspaceId } from './fields.ts';
import type { CampaignOutcome } from './fields.ts';

// Campaigns known on this machine: their results (each contact row's latest call, counts per
// outcome) and the live counters of the ones launched from here.

/** A campaign known on this machine: a bulk list id with calls, or launched from a contact list. */
export const callCampaignSchema = z.object({
  bulkListId,
  workspaceId,
  /** The contact list it was launched from (campaign_lists), or null. */
  listId: z.number().int().positive().nullable(),
  listName: z.string().nullable(),
  /** The operator's name for the campaign (the launch made here, else the service's listing). */
  campaignName: z.string().nullable(),
  /** When it was launched (or created on the service), to tell apart campaigns of the same name. */
  startedAt: z.string().nullable(),
  calls: count,
  firstCallAt: z.string().nullable(),
  lastCallAt: z.string().nullable(),
});
export type CallCampaign = z.infer<typeof callCampaignSchema>;

export const outcomeCountsSchema = z.object(
  Object.fromEntries(CAMPAIGN_OUTCOMES.map((o) => [o, count])) as Record<CampaignOutcome, typeof count>,
);
export type OutcomeCounts = z.infer<typeof outcomeCountsSchema>;

/** A contact row of a launched list with its latest call. */
export const campaignResultRowSchema = z.object({
  /** Spreadsheet row of the contact list. */
  row: z.number().int().positive(),
  cells: z.array(z.string()),
  /** E.164 with '+', or null. */
  phone: z.string().nullable(),
  outcome: campaignOutcomeSchema,
  /** The latest call to the number in this campaign, or null (not called yet). */
  callId: z.string().nullable(),
  status: z.string().nullable(),
  subStatus: z.string().nullable(),
  /** When the latest call was dialled (UTC ISO), null when it never was. */
  calledAt: z.string().nullable(),
  /** When the latest call was queued (UTC ISO), null without a call. */
  queuedAt: z.string().nullable(),
  callDuration: z.number().nullable(),
  calls: count,
});
export type CampaignResultRow = z.infer<typeof campaignResultRowSchema>;

/** A campaign launched from here, with the figures of its calls synced so far. */
export const liveCampaignSchema = z.object({
  bulkListId,
  name: z.string(),
  /** Still running (its calls are polled while online) or finished. */
  running: z.boolean(),
  contacts: count,
  dialled: count,
  answered: count,
  completed: count,
  /** Contacts not done yet (open calls and rows with no call yet). */
  left: count,
  /** Sum of the calls' cost (credits). */
  credits: z.number(),
  /** At the dialling pace so far (UTC ISO), null when unknown or done. */
  estimatedFinishAt: z.string().nullable(),
});
export type LiveCampaign = z.infer<typeof liveCampaignSchema>;

export const liveStatusSchema = z.object({
  workspaceId,
  campaigns: z.array(liveCampaignSchema),
  /** A running campaign's calls are being polled (online, something running). */
  polling: z.boolean(),
  /** When the figures were last brought up to date from the service (UTC ISO), null: never here. */
  updatedAt: z.string().nullable(),
});
export type LiveStatus = z.infer<typeof liveStatusSchema>;
