import { z } from 'zod';

/**
 * The two error bodies the calling service answers with (seed, "Errors"):
 * an `error` object with `code` and `message`, and a flat `detail` string.
 */
export const errorObjectBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
  }),
});
export type ErrorObjectBody = z.infer<typeof errorObjectBodySchema>;

/**
 * `{ detail }`. The seed shows a string; FastAPI-style services also answer validation errors with an
 * array of `{ loc, msg }` items, so reading accepts both (send only the string form).
 */
export const detailBodySchema = z.object({
  detail: z.union([
    z.string(),
    z.array(
      z.looseObject({
        loc: z.array(z.union([z.string(), z.number()])).optional(),
        msg: z.string().optional(),
      }),
    ),
  ]),
});
export type DetailBody = z.infer<typeof detailBodySchema>;

export const errorBodySchema = z.union([errorObjectBodySchema, detailBodySchema]);
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The seed's exact 401 body. */
export const unauthorizedBody = {
  error: { code: '401 Unauthorized', message: 'Invalid credentials' },
} as const satisfies ErrorObjectBody;

export const serverErrorCode = '500 Internal Server Error';
export const invalidParameterCode = 'invalid_parameter';

export const errorObjectBody = (code: string, message: string): ErrorObjectBody => ({
  error: { code, message },
});
export const detailBody = (detail: string): { detail: string } => ({ detail });

/** A human message from either error shape, or null when the body is neither. */
export function errorMessageOf(body: unknown): { message: string; code: string | null } | null {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return null;
  const value = parsed.data;
  if ('error' in value) return { message: value.error.message, code: value.error.code };
  if (typeof value.detail === 'string') return { message: value.detail, code: null };
  const parts = value.detail.map((d) => {
    const where = d.loc?.filter((p) => p !== 'body').join('.') ?? '';
    const what = d.msg ?? 'invalid value';
    return where ? `${where}: ${what}` : what;
  });
  return { message: parts.join('; ') || 'Request rejected', code: null };
}
