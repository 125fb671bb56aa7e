// The grid's filters: their labels and how many rows each shows (from the list's counts, the same
// figures the back end pages through).
import { ISSUE_CODES } from '../../../../shared/domain/contacts/issues.ts';
import type { ContactFilter, ListCounts } from '../../../../shared/ipc/channels/contacts.ts';
import { ISSUE_LABELS } from './labels.ts';

export function filterTotal(counts: ListCounts, filter: ContactFilter): number {
  switch (filter) {
    case 'all':
      return counts.rows;
    case 'bucket:valid':
      return counts.valid;
    case 'bucket:invalid':
      return counts.invalid;
    case 'bucket:duplicate':
      return counts.duplicates;
    case 'excluded':
      return counts.excluded;
    case 'edited':
      return counts.edited;
    case 'suppressed':
      // Counted by the back end (suppression:list-check): the grid takes it from filterExtra.
      return 0;
    default:
      return counts.issues[filter.slice(6) as keyof ListCounts['issues']];
  }
}

export const FILTER_OPTIONS: ReadonlyArray<{ value: ContactFilter; label: string }> = [
  { value: 'all', label: 'All rows' },
  { value: 'bucket:valid', label: 'Valid' },
  { value: 'bucket:invalid', label: 'Invalid' },
  { value: 'bucket:duplicate', label: 'Duplicates' },
  ...ISSUE_CODES.map((code) => ({
    value: `issue:${code}` as ContactFilter,
    label: `Issue: ${ISSUE_LABELS[code]}`,
  })),
  { value: 'excluded', label: 'Excluded' },
  { value: 'edited', label: 'Edited' },
];
