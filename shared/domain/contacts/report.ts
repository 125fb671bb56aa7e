// report.json: what the cleaning decided, validated with zod before it is written (a file is a
// boundary). `rows = valid + invalid + duplicates` is checked, not assumed.
import { z } from 'zod';
import { ISSUE_CODES } from './issues.ts';
import { DELIMITERS, ENCODINGS } from './types.ts';

const count = z.number().int().nonnegative();

export const cleanReportSchema = z
  .object({
    rows: count,
    valid: count,
    invalid: count,
    duplicates: count,
    encoding: z.enum(ENCODINGS),
    /** The delimiter character itself (",", ";", "\t", "|"). */
    delimiter: z.enum(DELIMITERS),
    phone_column: z.string(),
    /** Rows carrying each issue code (a row may carry several). */
    issues: z.object(
      Object.fromEntries(ISSUE_CODES.map((c) => [c, count])) as Record<
        (typeof ISSUE_CODES)[number],
        typeof count
      >,
    ),
    // More detail for people and scripts:
    blank_rows: count,
    encoding_source: z.enum(['bom', 'detected', 'default', 'override']),
    /**
     * What was detected for a file that is not UTF-8/16 and how sure the detector is, or why the
     * encoding differs from the first guess (invalid UTF-8 later in the file).
     */
    encoding_note: z.string().nullable(),
    /** The detector's confidence (0-100) for a file that is not UTF-8/16; null otherwise. */
    encoding_confidence: z.number().min(0).max(100).nullable(),
    /** The encoding is a guess from little evidence: check the text before uploading. */
    encoding_uncertain: z.boolean(),
    delimiter_source: z.enum(['bom', 'detected', 'default', 'override']),
    newline: z.enum(['lf', 'crlf', 'cr']),
    country: z.string(),
    calling_code: z.string(),
    header: z.array(z.string()),
    header_row: z.number().int().positive(),
    /** How the header was found when it was not simply the first line (titles skipped, a stray quote). */
    header_note: z.string().nullable(),
    name_column: z.string().nullable(),
    variables: z.array(z.object({ variable: z.string(), column: z.string(), optional: z.boolean() })),
    upload_columns: z.array(z.string()),
    /** Header names the file repeats, with their 1-based positions (pick one with "#N"). */
    duplicate_columns: z.array(
      z.object({ name: z.string(), positions: z.array(z.number().int().positive()) }),
    ),
    phone_validation: z.object({ fast_path: count, library: count }),
    split: z.object({
      workers: z.number().int().positive(),
      mode: z.enum(['parallel', 'sequential', 'parallel-then-sequential']),
      reason: z.string().nullable(),
    }),
    /** The sheet read, when the input was an Excel workbook. */
    sheet: z.string().optional(),
    input: z.object({ file: z.string(), bytes: count }).optional(),
    outputs: z.object({ upload: z.string(), rejects: z.string(), report: z.string() }).optional(),
    elapsed_ms: count.optional(),
  })
  .refine((r) => r.rows === r.valid + r.invalid + r.duplicates, {
    message: 'rows must equal valid + invalid + duplicates',
  })
  .refine((r) => r.issues.duplicate >= r.duplicates, {
    message: 'every duplicate row carries the duplicate code',
  });

export type CleanReport = z.infer<typeof cleanReportSchema>;

export const newlineName = (newline: string): 'lf' | 'crlf' | 'cr' =>
  newline === '\r\n' ? 'crlf' : newline === '\r' ? 'cr' : 'lf';
