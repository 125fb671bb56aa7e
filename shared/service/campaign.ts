import { z } from 'zod';
import { campaignCallConfigSchema } from './callConfig.ts';
import { httpUrlSchema } from './common.ts';
import { campaignTimeSchema, countryCodeSchema } from './upload.ts';

/**
 * `POST /campaign/make-call-async` body (seed §3). The "exactly one of from_numbers / number_pool_id"
 * rule is checked separately (it answers 422), so both are optional here.
 */
export const makeCallAsyncRequestSchema = z.object({
  bulk_list_id: z.string().min(1),
  agent_id: z.string().min(1),
  from_numbers: z.array(z.string().min(1)).min(1).optional(),
  number_pool_id: z.string().min(1).optional(),
  country_code: countryCodeSchema.optional(),
  campaign_start_time: campaignTimeSchema.optional(),
  campaign_end_time: campaignTimeSchema.optional(),
  call_config: campaignCallConfigSchema.optional(),
  concurrency_percentage: z.number().int().min(0).max(100).optional(),
  callback_url: httpUrlSchema.optional(),
  email_completion_user_ids: z.array(z.string()).optional(),
});
export type MakeCallAsyncRequest = z.infer<typeof makeCallAsyncRequestSchema>;

/** make-call-async as the app builds it: exactly one of from_numbers / number_pool_id. */
export type MakeCallAsyncInput = Omit<MakeCallAsyncRequest, 'from_numbers' | 'number_pool_id'> &
  ({ from_numbers: string[]; number_pool_id?: never } | { number_pool_id: string; from_numbers?: never });

/** True when exactly one number source is given (the 422 rule; an empty from_numbers fails the schema). */
export const hasExactlyOneNumberSource = (r: { from_numbers?: unknown; number_pool_id?: unknown }): boolean =>
  (r.from_numbers !== undefined && r.from_numbers !== null) !==
  (r.number_pool_id !== undefined && r.number_pool_id !== null);

export const makeCallAsyncResponseSchema = z.object({
  bulk_list_id: z.string(),
  status: z.string(),
  message: z.string().nullish(),
});
export type MakeCallAsyncResponse = z.infer<typeof makeCallAsyncResponseSchema>;

/** `POST /campaign/start` (standard flow, deprecated; notes §3c). */
export const campaignStartRequestSchema = z.object({
  agent_id: z.string().min(1),
  list_id: z.string().min(1),
  from_numbers: z.array(z.string().min(1)).min(1),
});
export type CampaignStartRequest = z.infer<typeof campaignStartRequestSchema>;

/** `POST /campaign/v2/start` (number pool). */
export const campaignStartV2RequestSchema = z.object({
  agent_id: z.string().min(1),
  list_id: z.string().min(1),
  number_pool_id: z.string().min(1),
  callback_url: httpUrlSchema.optional(),
  email_completion_user_ids: z.array(z.string()).optional(),
});
export type CampaignStartV2Request = z.infer<typeof campaignStartV2RequestSchema>;

export const campaignStartResponseSchema = z.object({
  status: z.string(),
  has_ongoing_calls: z.boolean().nullish(),
});
export type CampaignStartResponse = z.infer<typeof campaignStartResponseSchema>;

/** One campaign of `GET /campaign/all` (notes §3a; counts only with `call_count=true`). */
export const campaignSummarySchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  campaign_status: z.string().nullish(),
  campaign_start_time: z.string().nullish(),
  campaign_end_time: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  registered_count: z.number().int().nullish(),
  completed_count: z.number().int().nullish(),
  total_count: z.number().int().nullish(),
  bulk_list_id: z.string().nullish(),
  agent_id: z.string().nullish(),
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

export const campaignListResponseSchema = z.object({
  campaigns: z.array(campaignSummarySchema),
  pagination: z
    .object({
      limit: z.number().int().nullish(),
      offset: z.number().int().nullish(),
      total: z.number().int().nullish(),
    })
    .nullish(),
});
export type CampaignListResponse = z.infer<typeof campaignListResponseSchema>;

/** `PATCH /campaign/terminate` (and `/calls`, `/numbers`). */
export const terminateRequestSchema = z.object({
  agent_id: z.string().min(1).optional(),
  call_ids: z.array(z.string().min(1)).max(100).optional(),
  campaign_id: z.string().min(1).optional(),
  mobile_numbers: z.array(z.string().min(1)).max(100).optional(),
});
export type TerminateRequest = z.infer<typeof terminateRequestSchema>;

export const terminateResponseSchema = z.object({
  message: z.string(),
  terminated_count: z.number().int().nullish(),
});
export type TerminateResponse = z.infer<typeof terminateResponseSchema>;
