// What every operation of the client shares: the options a call takes and the check of a
// request before it leaves (a bad request never leaves the machine).
import type { z } from 'zod';
import { ApiError } from './apiError.ts';

/** Options every call accepts. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface PageOptions extends CallOptions {
  limit?: number;
  offset?: number;
}

export const enc = encodeURIComponent;

export const refused = (operation: string, message: string) =>
  new ApiError({ kind: 'rejected', operation, message });

/** Check what we are about to send; a bad request never leaves the machine. */
export function checked<T extends z.ZodType>(operation: string, schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw refused(operation, `${where}${issue?.message ?? 'invalid request'}`);
}
