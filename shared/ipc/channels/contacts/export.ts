import { z } from 'zod';
import { count } from './fields.ts';

// Export of a list: the upload or rejects file, and what the export answers.

export const exportKinds = ['upload', 'rejects'] as const;
export type ExportKind = (typeof exportKinds)[number];

export const exportResultSchema = z.object({
  kind: z.enum(exportKinds),
  rows: count,
  bytes: count,
  fileName: z.string(),
  /** Where the file was written (Electron: the chosen path), or null for a download. */
  path: z.string().nullable(),
  /** Same-origin address that streams the file once (browser host), or null. */
  downloadUrl: z.string().nullable(),
  /** With an agent: the launch's variables_map (variable → upload column), derived from the mapping. */
  variablesMap: z.record(z.string(), z.string()).nullable().optional(),
});
export type ExportResult = z.infer<typeof exportResultSchema>;
