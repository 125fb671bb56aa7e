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

/** One item of a FastAPI validation error: where (`["body", "call_config"]`), what, and its kind. */
export const validationIssueSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])).optional(),
  msg: z.string().optional(),
  type: z.string().optional(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/**
 * `{ detail }`: a string (seed), or the FastAPI validation list `[{ loc, msg, type }]` (a missing
 * required form field on the uploads). Readers accept both.
 */
export const detailBodySchema = z.object({
  detail: z.union([z.string(), z.array(validationIssueSchema)]),
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

/** FastAPI's answer to missing required fields: one `{loc, msg, type: "missing"}` per field. */
export const missingFieldsBody = (where: 'body' | 'query', fields: readonly string[]) => ({
  detail: fields.map((f) => ({ type: 'missing', loc: [where, f], msg: 'Field required', input: null })),
});

/** Where a validation issue points, without the `body`/`query` prefix (`call_config`, `items.0`). */
function issueField(d: ValidationIssue): string {
  return (d.loc ?? [])
    .filter((p, i) => !(i === 0 && (p === 'body' || p === 'query' || p === 'path')))
    .join('.');
}

export interface ErrorMessage {
  message: string;
  code: string | null;
  /** Fields a validation list names, in its order (empty for the other shapes). */
  fields: string[];
}

/** A human message from any of the three error shapes, or null when the body is none of them. */
export function errorMessageOf(body: unknown): ErrorMessage | null {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return null;
  const value = parsed.data;
  if ('error' in value) return { message: value.error.message, code: value.error.code, fields: [] };
  if (typeof value.detail === 'string') return { message: value.detail, code: null, fields: [] };
  const fields = value.detail.map(issueField).filter((f) => f !== '');
  const parts = value.detail.map((d) => {
    const where = issueField(d);
    const what = d.msg ?? 'invalid value';
    return where ? `${where}: ${what}` : what;
  });
  return { message: parts.join('; ') || 'Request rejected', code: null, fields };
}
