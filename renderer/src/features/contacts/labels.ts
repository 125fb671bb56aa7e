// What the Contacts page calls the import's choices and a row's issues.
import { ENCODING_NAMES } from '../../../../shared/domain/contacts/encodingNames.ts';

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
