import { describe, expect, it } from 'vitest';
import { cleanInMemory } from './cleanInMemory.ts';
import { cleanReportSchema } from './report.ts';

describe('report.json schema', () => {
  it('accepts what the engine writes', async () => {
    const { report } = await cleanInMemory(new TextEncoder().encode('Name,Phone\nA,9876543210\nB,1\n'), {
      country: 'IN',
    });
    expect(cleanReportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
    expect(report).toMatchObject({
      rows: 2,
      valid: 1,
      invalid: 1,
      duplicates: 0,
      encoding: 'utf-8',
      delimiter: ',',
      phone_column: 'Phone',
    });
  });

  it('refuses counts that do not add up, and unknown encodings or delimiters', async () => {
    const { report } = await cleanInMemory(new TextEncoder().encode('Name,Phone\nA,9876543210\n'), {
      country: 'IN',
    });
    expect(cleanReportSchema.safeParse({ ...report, valid: 5 }).success).toBe(false);
    expect(cleanReportSchema.safeParse({ ...report, encoding: 'latin9' }).success).toBe(false);
    expect(cleanReportSchema.safeParse({ ...report, delimiter: ':' }).success).toBe(false);
    expect(
      cleanReportSchema.safeParse({ ...report, issues: { ...report.issues, duplicate: -1 } }).success,
    ).toBe(false);
  });
});
