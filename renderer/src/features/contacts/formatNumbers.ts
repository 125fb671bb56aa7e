// Display formats for the Contacts page.
import { ENCODING_NAMES } from '../../../../shared/domain/contacts/encodingNames.ts';

import { formatInteger } from '../../components/format.ts';

export const formatCount = formatInteger;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return 'less than a second';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return `${m} min ${s} s`;
}

export const ENCODING_LABELS: Record<string, string> = ENCODING_NAMES;

export const DELIMITER_LABELS: Record<string, string> = {
  ',': 'Comma ( , )',
  ';': 'Semicolon ( ; )',
  '\t': 'Tab',
  '|': 'Pipe ( | )',
};

export const SOURCE_LABELS: Record<string, string> = {
  bom: 'from the byte-order mark',
  detected: 'detected',
  default: 'default',
  override: 'your choice',
};

export const ISSUE_LABELS: Record<string, string> = {
  row_ragged: 'Wrong number of cells',
  phone_missing: 'Phone missing',
  phone_scientific_notation: 'Phone damaged by Excel (9.19E+11)',
  phone_excel_decimal: 'Phone with Excel decimal (.0)',
  phone_invalid: 'Phone invalid',
  duplicate: 'Duplicate',
  variable_missing: 'Variable missing',
  phone_landline: 'Landline only (warning)',
  quote_unbalanced: 'Quote never closed',
  formula_cell: 'Formula cell (warning)',
  phone_bidi_control: 'Phone with hidden direction controls',
};
