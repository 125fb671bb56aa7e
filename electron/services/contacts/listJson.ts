// Readers of the JSON a contact list stores (contact_lists.counts, setup, detected, mapping,
// report): each built once, parsed through its schema, so a row an older build wrote fails with the
// column's name rather than deep inside its user.
import { isSupportedCountry } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import { DELIMITERS } from '../../../shared/domain/contacts/types.ts';
import type { EngineSetup } from '../../../shared/domain/contacts/index.ts';
import {
  detectedSchema,
  importReportSchema,
  variableMappingSchema,
} from '../../../shared/ipc/channels/contacts.ts';
import { ISSUE_BITS } from '../db/migrations/0130-contacts-formula-bidi-codes.ts';
import { storedJson } from '../db/storedJson.ts';
import type { StoredCounts } from './rowState.ts';

const pair = z.tuple([z.number(), z.number()]);
const issueCodes = Object.keys(ISSUE_BITS) as Array<keyof typeof ISSUE_BITS>;

/** contact_lists.counts: rows by [bucket][excluded], rows per issue bit, edited rows. */
const storedCountsSchema: z.ZodType<StoredCounts, unknown> = z.object({
  byBucket: z.tuple([pair, pair, pair]),
  // Lists counted before an issue code existed lack its key: it counts 0 (a strict enum record
  // would refuse them).
  issues: z
    .record(z.string(), z.number())
    .transform((i) => Object.fromEntries(issueCodes.map((c) => [c, i[c] ?? 0])) as StoredCounts['issues']),
  edited: z.number(),
});

const engineSetupSchema: z.ZodType<EngineSetup> = z.object({
  wireEncoding: z.enum(['utf-8', 'windows-1252']),
  country: z.custom<CountryCode>((v) => typeof v === 'string' && isSupportedCountry(v), 'unknown country'),
  callingCode: z.string(),
  delimiter: z.enum(DELIMITERS),
  newline: z.enum(['\n', '\r\n', '\r']),
  header: z.array(z.string()),
  headerRow: z.number(),
  phoneIndex: z.number(),
  nameIndex: z.number(),
  variables: z.array(
    z.object({ variable: z.string(), column: z.string(), index: z.number(), optional: z.boolean() }),
  ),
  uploadColumns: z.array(z.number()),
  keepFormulaCells: z.boolean().optional(),
});

export const countsJson = storedJson(storedCountsSchema, 'list counts');
export const setupJson = storedJson(engineSetupSchema, 'list setup');
export const detectedJson = storedJson(detectedSchema, 'list detection');
export const mappingJson = storedJson(z.array(variableMappingSchema), 'list variable mapping');
export const reportJson = storedJson(importReportSchema, 'import report');
