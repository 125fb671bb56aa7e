import type { z } from 'zod';

/**
 * Stored JSON (a column holding JSON text) read back through its zod schema rather than cast:
 * a row written by an older build, or edited by hand, fails here with the column's name instead
 * of deep inside whoever used it. Build one reader per column at module load and reuse it.
 */
export function storedJson<S extends z.ZodType>(schema: S, what: string): (text: string) => z.output<S> {
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`Stored ${what} is not valid JSON.`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      throw new Error(
        `Stored ${what} does not have the expected shape${at}: ${issue?.message ?? 'invalid'}.`,
      );
    }
    return parsed.data;
  };
}
