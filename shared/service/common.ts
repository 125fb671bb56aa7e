import { z } from 'zod';

/** `{ id, agent_display_name }`: how other records point at an agent. */
export const agentRefSchema = z.object({
  id: z.string(),
  agent_display_name: z.string().nullish(),
});
export type AgentRef = z.infer<typeof agentRefSchema>;

/** E.164: a plus sign, a non-zero digit, 7 to 14 more digits. */
export const e164Pattern = /^\+[1-9]\d{7,14}$/;
export const e164Schema = z.string().regex(e164Pattern, 'must be an E.164 number such as +919876543210');

/** An http(s) URL. */
export const httpUrlSchema = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL');

/** Booleans sent as multipart text ("true"/"false"). */
export const textBooleanSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), 'must be true or false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
