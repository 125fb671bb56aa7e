import { z } from 'zod';
import type { HttpError } from '../http/errors.ts';
import { parseOr } from '../http/errors.ts';

const intText = (name: string) =>
  z.string().regex(/^\d+$/, `${name} must be a non-negative integer`).transform(Number).optional();

/** `limit`/`offset` of the listing operations (not history: it has its own strict rules). */
export function pageParams(
  query: unknown,
  fail: (m: string) => HttpError,
  defaults: { limit: number; max: number },
): { limit: number; offset: number } {
  const q = parseOr(z.looseObject({ limit: intText('limit'), offset: intText('offset') }), query, fail);
  const limit = q.limit ?? defaults.limit;
  if (limit > defaults.max) throw fail(`limit must be at most ${defaults.max}`);
  return { limit, offset: q.offset ?? 0 };
}
