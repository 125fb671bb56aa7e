import { z } from 'zod';

/** Error codes every channel may answer with. Messages are for people: no stack traces. */
export const errorCodes = [
  'invalid_request',
  'not_found',
  'conflict',
  'unauthorized',
  'unreachable',
  'timeout',
  'service_error',
  'keychain_unavailable',
  'database_error',
  'file_error',
  'cancelled',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const deskErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  /** Where the problem is, when it has a place: a field, a row, a file. */
  field: z.string().optional(),
});
export type DeskError = z.infer<typeof deskErrorSchema>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: DeskError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string, field?: string): Result<never> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
});

/** Thrown inside the back end to answer with a specific error; the dispatcher turns it into a Result. */
export class DeskFailure extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'DeskFailure';
    this.code = code;
    this.field = field;
  }
}

export const resultSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: deskErrorSchema }),
  ]);
