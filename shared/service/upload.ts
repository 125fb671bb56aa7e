import { z } from 'zod';
import { callConfigSchema } from './callConfig.ts';
import { textBooleanSchema } from './common.ts';

/** `country_code`: a dialing prefix with a plus sign (`+91`, the seed's form) or, read only, ISO-2 (`IN`). */
export const countryCodeSchema = z
  .string()
  .trim()
  .regex(
    /^(\+\d{1,4}|[A-Za-z]{2})$/,
    'must be a dialing prefix such as +91 (or a two-letter country code such as IN)',
  );

/** `DD/MM/YYYY, HH:MM` (shape only; shared/domain/dates.ts checks the calendar). */
export const campaignTimeSchema = z
  .string()
  .trim()
  .regex(
    /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/,
    'must be a date and time DD/MM/YYYY, HH:MM such as 18/10/2026, 09:00',
  );

/** `variables_map`: agent variable name → CSV column header. */
export const variablesMapSchema = z.record(z.string().min(1), z.string().min(1));
export type VariablesMap = z.infer<typeof variablesMapSchema>;

/**
 * The text fields of `POST /campaign/upload-csv` and `POST /campaign/save` as they arrive (multipart
 * text). The service's field tables mark the start/end times and call_config **Required** (notes,
 * "Where the service's own docs are stricter"), so they are required here.
 */
export const campaignUploadFieldsSchema = z.object({
  agent_id: z.string().trim().min(1, 'is required'),
  campaign_name: z.string().trim().min(1, 'is required'),
  country_code: countryCodeSchema,
  variables_map: z.string().min(1, 'is required'),
  campaign_start_time: campaignTimeSchema,
  campaign_end_time: campaignTimeSchema,
  call_config: z.string().min(1, 'is required'),
  remove_invalid_rows: textBooleanSchema.optional(),
  transliterate_callee_name: textBooleanSchema.optional(),
});
export type CampaignUploadFields = z.infer<typeof campaignUploadFieldsSchema>;

/** Form fields both uploads require; a missing one is a 422 naming it (FastAPI style). */
export const requiredUploadFields = [
  'file',
  'agent_id',
  'campaign_name',
  'country_code',
  'variables_map',
  'campaign_start_time',
  'campaign_end_time',
  'call_config',
] as const;

/** The same fields as a client builds them, before they are turned into multipart text. */
export const campaignUploadOptionsSchema = z.object({
  agent_id: z.string().min(1),
  campaign_name: z.string().min(1),
  country_code: countryCodeSchema,
  variables_map: variablesMapSchema,
  campaign_start_time: campaignTimeSchema,
  campaign_end_time: campaignTimeSchema,
  call_config: callConfigSchema,
  remove_invalid_rows: z.boolean().optional(),
  transliterate_callee_name: z.boolean().optional(),
});
export type CampaignUploadOptions = z.infer<typeof campaignUploadOptionsSchema>;

/** The list and row counters both the upload response and the upload status carry. */
const uploadedListFields = {
  bulk_list_id: z.string(),
  status: z.string(),
  campaign_name: z.string().nullish(),
  total_callees: z.number().int().nullish(),
  invalidated_rows_count: z.number().int().nullish(),
  invalidated_rows_csv_url: z.string().nullish(),
};

/** `POST /campaign/upload-csv` response: the schema sample, or the guidance's `status` + `message`. */
export const uploadCsvResponseSchema = z.object({
  ...uploadedListFields,
  message: z.string().nullish(),
});
export type UploadCsvResponse = z.infer<typeof uploadCsvResponseSchema>;

/**
 * `GET /campaign/upload-status/{bulk_list_id}` (notes §1): the schema example's counters
 * (`total_callees`, `invalidated_rows_*`) and the guidance's (`total_rows`, `processed_rows`,
 * `successful_rows`, `failed_rows`). Either set may be absent.
 */
export const uploadStatusResponseSchema = z.object({
  ...uploadedListFields,
  total_rows: z.number().int().nullish(),
  processed_rows: z.number().int().nullish(),
  successful_rows: z.number().int().nullish(),
  failed_rows: z.number().int().nullish(),
  message: z.string().nullish(),
});
export type UploadStatusResponse = z.infer<typeof uploadStatusResponseSchema>;

/** `POST /campaign/check-balance/{bulk_list_id}` (notes §2): both documented shapes, merged. */
export const balanceResponseSchema = z.object({
  bulk_list_id: z.string().nullish(),
  status: z.string().nullish(),
  message: z.string().nullish(),
  required_credits: z.number().nullish(),
  available_credits: z.number().nullish(),
  sufficient_balance: z.boolean().nullish(),
});
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;

/** `POST /campaign/save` response (notes §3b). */
export const campaignSaveResponseSchema = z.object({
  message: z.string().nullish(),
  list_id: z.string(),
  custom_args_values: z.array(z.record(z.string(), z.unknown())).nullish(),
  total_rows: z.number().int().nullish(),
  successful_rows: z.number().int().nullish(),
  failed_rows: z.number().int().nullish(),
});
export type CampaignSaveResponse = z.infer<typeof campaignSaveResponseSchema>;
