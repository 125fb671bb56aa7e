import { z } from 'zod';
import { callConfigSchema } from './callConfig.ts';
import { httpUrlSchema } from './common.ts';
import { callbackArgsSchema, smartFormatterSchema } from './smartFormatter.ts';

const oneOrMany = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** Values substituted into the prompt. The real service treats them as text; numbers are accepted. */
export const customArgsValuesSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type CustomArgsValues = z.infer<typeof customArgsValuesSchema>;

/**
 * `POST /calling/v2/outbound/individual` (seed §4). The number-source rule is checked separately so
 * its message can say which rule was broken.
 */
export const individualCallRequestSchema = z.object({
  name: z.string().trim().min(1),
  mobile_number: z.string().min(1),
  agent_id: z.guid({ error: 'agent_id must be a UUID' }),
  number_pool_id: z.string().min(1).optional(),
  from_number_id: oneOrMany.optional(),
  from_number: oneOrMany.optional(),
  custom_args_values: customArgsValuesSchema.optional(),
  smart_formatter: smartFormatterSchema.optional(),
  call_config: callConfigSchema.optional(),
  voice_id: z.string().min(1).optional(),
  version_id: z.string().min(1).optional(),
  call_category: z.string().optional(),
  parent_call_id: z.string().optional(),
  callback_url: httpUrlSchema.optional(),
  callback_args: callbackArgsSchema.optional(),
});
export type IndividualCallRequest = z.infer<typeof individualCallRequestSchema>;

/** Exactly one caller-number source, as the type of what a client may send. */
export type IndividualCallNumberSource =
  | { number_pool_id: string; from_number_id?: never; from_number?: never }
  | { from_number_id: string | string[]; number_pool_id?: never; from_number?: never }
  | { from_number: string | string[]; number_pool_id?: never; from_number_id?: never };

/** An individual call as the app builds it: the request with exactly one number source. */
export type IndividualCallInput = Omit<
  IndividualCallRequest,
  'number_pool_id' | 'from_number_id' | 'from_number'
> &
  IndividualCallNumberSource;

/**
 * Null when exactly one number source is given (initiate-individual-call-v2: "give exactly one of
 * number_pool_id, from_number_id, from_number"), else why not, naming the fields.
 */
export function numberSourceProblem(r: {
  number_pool_id?: unknown;
  from_number_id?: unknown;
  from_number?: unknown;
}): string | null {
  const has = (v: unknown) => v !== undefined && v !== null;
  const given = (['number_pool_id', 'from_number_id', 'from_number'] as const).filter((k) => has(r[k]));
  if (given.length === 0)
    return 'give exactly one of number_pool_id, from_number_id or from_number (none given)';
  if (given.length > 1) {
    return `give exactly one of number_pool_id, from_number_id or from_number (got ${given.join(' and ')})`;
  }
  return null;
}

export const individualCallResponseSchema = z.object({
  status: z.string(),
  data: z.object({
    call_id: z.string(),
    call_direction: z.string().nullish(),
    call_status: z.string().nullish(),
    /** Date-time without offset in the seed's sample. */
    initiated_at: z.string().nullish(),
    agent_id: z.string().nullish(),
    custom_args_values: z.record(z.string(), z.unknown()).nullish(),
  }),
  message: z.string().nullish(),
});
export type IndividualCallResponse = z.infer<typeof individualCallResponseSchema>;
