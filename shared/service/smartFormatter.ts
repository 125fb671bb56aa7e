import { z } from 'zod';

/** `smart_formatter` (seed; individual call). */
export const smartFormatterSchema = z.object({
  extract_first_name: z.boolean().optional(),
  transliteration: z.boolean().optional(),
  transliteration_language: z
    .object({
      source: z.string().min(1),
      target: z.string().min(1),
    })
    .optional(),
});
export type SmartFormatter = z.infer<typeof smartFormatterSchema>;

/** `callback_args` (seed): headers and query params sent with each callback. */
export const callbackArgsSchema = z.object({
  headers: z.record(z.string(), z.string()).optional(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type CallbackArgs = z.infer<typeof callbackArgsSchema>;
