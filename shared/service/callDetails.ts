import { z } from 'zod';

/** One conversation turn: an object keyed by the speaker (`bot`, `user`), plus optional metadata. */
export const transcriptTurnSchema = z.record(z.string(), z.unknown());
export type TranscriptTurn = z.infer<typeof transcriptTurnSchema>;

/** `GET /calling/call-details?id=` (notes §5). `transcription_url` is a list of turns or a JSON string of one. */
export const callDetailsSchema = z.object({
  id: z.string(),
  call_direction: z.string().nullish(),
  call_status: z.string().nullish(),
  call_sub_status: z.string().nullish(),
  from_number: z.string().nullish(),
  to_number: z.string().nullish(),
  callee_name: z.string().nullish(),
  agent_id: z.string().nullish(),
  initiation_time: z.string().nullish(),
  recording_url: z.string().nullish(),
  transcription_url: z.union([z.array(transcriptTurnSchema), z.string()]).nullish(),
  custom_args_values: z.record(z.string(), z.unknown()).nullish(),
  bulk_list_id: z.string().nullish(),
  call_duration: z.number().nullish(),
  call_cost: z.number().nullish(),
  retry_count: z.number().int().nullish(),
  platform_analysis: z.record(z.string(), z.unknown()).nullish(),
  client_analysis: z.record(z.string(), z.unknown()).nullish(),
});
export type CallDetails = z.infer<typeof callDetailsSchema>;

export const callDetailsResponseSchema = z.object({
  status: z.string().nullish(),
  data: callDetailsSchema,
});
export type CallDetailsResponse = z.infer<typeof callDetailsResponseSchema>;

/** Turns from either transport form; an unparsable string gives no turns rather than an error. */
export function transcriptTurns(value: unknown): TranscriptTurn[] {
  if (Array.isArray(value))
    return value.filter((t): t is TranscriptTurn => typeof t === 'object' && t !== null);
  if (typeof value === 'string' && value.trim() !== '') {
    try {
      return transcriptTurns(JSON.parse(value));
    } catch {
      return [];
    }
  }
  return [];
}
