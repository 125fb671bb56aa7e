import { z } from 'zod';
// The specific modules (not the engine's index) so the contract does not pull papaparse and the
// phone metadata into the UI bundle.
import type { CleanReport } from '../../../domain/contacts/report.ts';
import { DELIMITERS, ENCODINGS } from '../../../domain/contacts/types.ts';
import type { CleanChoices } from '../../../domain/contacts/types.ts';
import { count, country, sourceSchema, variableName } from './fields.ts';

// An import's settings: the operator's choices (country, encoding, delimiter, phone column, the
// prompt variables' mapping), what the engine detected, and its end-of-run report; and how the
// choices become the engine's.

/** A prompt variable mapped to a column of the file ('' = not mapped yet). */
export const variableMappingSchema = z.object({
  variable: variableName,
  column: z.string().max(500),
  optional: z.boolean(),
});
export type VariableMapping = z.infer<typeof variableMappingSchema>;

/** The operator's choices for one import (undefined = detect). */
export const importChoicesSchema = z.object({
  country,
  encoding: z.enum(ENCODINGS).optional(),
  delimiter: z.enum(DELIMITERS).optional(),
  phoneColumn: z.string().max(500).optional(),
  variables: z.array(variableMappingSchema).max(200),
  /** An Excel workbook's sheet by name (default: the first sheet with a phone column). */
  sheet: z.string().max(255).optional(),
});
export type ImportChoices = z.infer<typeof importChoicesSchema>;

/** What the file turned out to be (the engine's sniff), shown beside the choices. */
export const detectedSchema = z.object({
  encoding: z.enum(ENCODINGS),
  encodingSource: sourceSchema,
  /**
   * What was detected for a file that is not UTF-8/16 and how sure the detector is, or why the
   * encoding differs from the first guess (invalid UTF-8 later in the file).
   */
  encodingNote: z.string().max(500).nullable(),
  /** The encoding is a guess of low confidence: the operator checks the names (lists before issue 25: absent). */
  encodingUncertain: z.boolean().optional(),
  delimiter: z.enum(DELIMITERS),
  delimiterSource: sourceSchema,
  newline: z.enum(['\n', '\r\n', '\r']),
  header: z.array(z.string().max(2000)).min(1).max(2000),
  headerRow: z.number().int().positive(),
  /** How the header was found when it was not the first line (title lines skipped, a stray quote). */
  headerNote: z.string().max(1000).nullable().optional(),
  phoneColumn: z.string(),
  /** Excel workbooks: the sheet read, and every sheet with the phone column it would get. */
  sheet: z.string().max(255).optional(),
  sheets: z
    .array(z.object({ name: z.string().max(255), phoneColumn: z.string().max(2000).nullable() }))
    .max(1000)
    .optional(),
});
export type Detected = z.infer<typeof detectedSchema>;

/** The engine's end-of-run figures the back end checks its own counts against. */
export const importReportSchema = z.object({
  rows: count,
  valid: count,
  invalid: count,
  duplicates: count,
  blankRows: count,
  encoding: z.enum(ENCODINGS),
  encodingSource: sourceSchema,
  encodingNote: z.string().max(500).nullable(),
  split: z.object({
    workers: z.number().int().positive(),
    mode: z.string().max(40),
    reason: z.string().max(500).nullable(),
  }),
  elapsedMs: count,
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** The engine's end-of-run report as contacts:import-finish carries it. */
export const toImportReport = (report: CleanReport, elapsedMs: number): ImportReport => ({
  rows: report.rows,
  valid: report.valid,
  invalid: report.invalid,
  duplicates: report.duplicates,
  blankRows: report.blank_rows,
  encoding: report.encoding,
  encodingSource: report.encoding_source,
  encodingNote: report.encoding_note,
  split: { workers: report.split.workers, mode: report.split.mode, reason: report.split.reason },
  elapsedMs: Math.round(elapsedMs),
});

/** The engine's checks of the prompt variables: mapped ones only (an unmapped one has nothing to check). */
export function variableChecks(
  variables: readonly VariableMapping[],
): Required<Pick<CleanChoices, 'map' | 'optional'>> {
  const mapped = variables.filter((v) => v.column.trim() !== '');
  return {
    map: mapped.map((v) => [v.variable, v.column] as const),
    optional: mapped.filter((v) => v.optional).map((v) => v.variable),
  };
}

/** The engine's choices from the operator's (`variables`: the mapping as it stands now). */
export const engineChoices = (
  choices: ImportChoices,
  variables: readonly VariableMapping[] = choices.variables,
): CleanChoices => ({
  country: choices.country,
  encoding: choices.encoding,
  delimiter: choices.delimiter,
  phoneColumn: choices.phoneColumn,
  ...variableChecks(variables),
});
