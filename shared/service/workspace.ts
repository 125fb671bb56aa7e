import { z } from 'zod';
import { agentRefSchema } from './common.ts';

/** `GET /workspace` (notes §7). Credits may be integers or floats (3025 or 3025.0). */
export const workspaceInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string().nullish(),
  credits: z.number(),
  locked_credits: z.number().nullish(),
  // The real service echoes the key here; readers never keep it (zod drops unknown keys, and this
  // one is declared only so the server side can send a masked value).
  api_key: z.string().nullish(),
});
export type WorkspaceInfo = z.infer<typeof workspaceInfoSchema>;

export const workspaceInfoResponseSchema = z.object({ workspace_info: workspaceInfoSchema });
export type WorkspaceInfoResponse = z.infer<typeof workspaceInfoResponseSchema>;

/** One caller number of the workspace (`GET /workspace/numbers`). `id` is the `from_number_id`. */
export const workspaceNumberSchema = z.object({
  id: z.string(),
  number: z.string(),
  created_at: z.string().nullish(),
  call_count: z.number().nullish(),
  agent: agentRefSchema.nullish(),
  is_inbound_enabled: z.boolean().nullish(),
  is_test_number: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
  is_spam: z.boolean().nullish(),
  spam_message: z.string().nullish(),
  provider: z.string().nullish(),
  display_name: z.string().nullish(),
  owner: z.string().nullish(),
  is_custom_number: z.boolean().nullish(),
  telephony_id: z.string().nullish(),
  number_pool_id: z.string().nullish(),
});
export type WorkspaceNumber = z.infer<typeof workspaceNumberSchema>;

export const workspaceNumbersResponseSchema = z.object({
  workspace_numbers: z.array(workspaceNumberSchema),
});
export type WorkspaceNumbersResponse = z.infer<typeof workspaceNumbersResponseSchema>;

export const pageQuerySchema = z.object({
  limit: z.number().int().min(0).optional(),
  offset: z.number().int().min(0).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;
