// What is wrong with a row, said where it is: one chip per problem that names it (a missing
// variable names the variable and its column), and the cells at fault, so the grid can mark them
// with an icon and words as well as colour.
import { formulaCellIndexes } from '../../../../shared/domain/contacts/formulaCells.ts';
import type { IssueCode } from '../../../../shared/domain/contacts/issues.ts';
import type { ContactList, ContactRow } from '../../../../shared/ipc/channels/contacts.ts';
import { REASON_TEXT } from '../../../../shared/domain/suppression.ts';
import { formatCount } from '../../components/format.ts';
import { ISSUE_LABELS } from './labels.ts';

export interface IssueChip {
  /**
   * An engine issue, `service_refused` (the calling service refused the row at a launch) or
   * `suppressed` (its number is on the do-not-call list: held back from the upload).
   */
  code: IssueCode | 'service_refused' | 'suppressed';
  /** Short text on the chip. */
  text: string;
  /** The whole sentence (tooltip, and what a screen reader hears after the chip). */
  detail: string;
}

export interface RowIssues {
  chips: IssueChip[];
  /** File-column index → what is wrong with that cell. */
  cells: Map<number, string>;
  /** The cells of `cells` that only warn (a formula cell: the row stays valid). */
  warnings: Set<number>;
}

type ListShape = Pick<ContactList, 'variables'> & {
  detected: Pick<ContactList['detected'], 'header' | 'phoneColumn'>;
};

const PHONE_ISSUES: ReadonlySet<IssueCode> = new Set([
  'phone_missing',
  'phone_scientific_notation',
  'phone_excel_decimal',
  'phone_invalid',
  'phone_bidi_control',
]);

/** The mapped, required variables whose cell in this row is empty (the engine's rule). */
export function missingVariables(
  cells: readonly string[],
  list: ListShape,
): Array<{ variable: string; column: string; index: number }> {
  const missing: Array<{ variable: string; column: string; index: number }> = [];
  for (const v of list.variables) {
    if (v.optional || v.column.trim() === '') continue;
    const index = list.detected.header.indexOf(v.column);
    if (index < 0) continue;
    const value = cells[index];
    if (value === undefined || value.trim() === '')
      missing.push({ variable: v.variable, column: v.column, index });
  }
  return missing;
}

export function rowIssues(
  row: Pick<ContactRow, 'issues' | 'cells'> & Partial<Pick<ContactRow, 'refused' | 'suppressed'>>,
  list: ListShape,
): RowIssues {
  const chips: IssueChip[] = [];
  if (row.suppressed !== undefined)
    chips.push({
      code: 'suppressed',
      text: `do not call: ${REASON_TEXT[row.suppressed].toLowerCase()}`,
      detail: `This number is on the do-not-call list (${REASON_TEXT[row.suppressed]}): it is held back from the upload`,
    });
  if (row.refused !== undefined)
    chips.push({
      code: 'service_refused',
      text: `refused by the service: ${row.refused}`,
      detail: `The calling service refused this row when the list was launched: ${row.refused}`,
    });
  const cells = new Map<number, string>();
  const warnings = new Set<number>();
  const header = list.detected.header;
  const phoneIndex = header.indexOf(list.detected.phoneColumn);
  const phoneName = list.detected.phoneColumn || `column ${phoneIndex + 1}`;
  for (const code of row.issues) {
    if (code === 'duplicate') continue;
    if (code === 'variable_missing') {
      const missing = missingVariables(row.cells, list);
      for (const m of missing) {
        chips.push({
          code,
          text: `${m.variable} missing`,
          detail: `Variable ${m.variable} is missing: column "${m.column}" is empty`,
        });
        cells.set(m.index, `${m.variable} missing`);
      }
      // The engine said so but the mapping on screen cannot tell which: still say it.
      if (missing.length === 0)
        chips.push({ code, text: 'variable missing', detail: ISSUE_LABELS[code] ?? code });
      continue;
    }
    if (code === 'formula_cell') {
      // One chip per column, as the engine finds them (the phone column is never one).
      const found = formulaCellIndexes(row.cells, phoneIndex);
      for (const index of found) {
        const column = header[index] || `column ${index + 1}`;
        chips.push({
          code,
          text: `formula in ${column}`,
          detail: `Column "${column}" starts like a spreadsheet formula: the upload drops its leading = + - @`,
        });
        cells.set(index, `formula in ${column}`);
        warnings.add(index);
      }
      if (found.length === 0) chips.push({ code, text: 'formula cell', detail: ISSUE_LABELS[code] ?? code });
      continue;
    }
    if (code === 'row_ragged') {
      chips.push({
        code,
        text: `${formatCount(row.cells.length)} of ${formatCount(header.length)} cells`,
        detail: `Wrong number of cells: ${formatCount(row.cells.length)} where the header has ${formatCount(header.length)}`,
      });
      continue;
    }
    const label = ISSUE_LABELS[code] ?? code;
    chips.push({
      code,
      text: label.replace(/ \(.*\)$/, '').toLowerCase(),
      detail: `${label} in column "${phoneName}"`,
    });
    if (PHONE_ISSUES.has(code) && phoneIndex >= 0) cells.set(phoneIndex, label);
  }
  return { chips, cells, warnings };
}
