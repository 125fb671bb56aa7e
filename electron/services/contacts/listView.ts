// A stored list as the renderer sees it.
import { uploadColumnNames } from '../../../shared/domain/contacts/merger.ts';
import type { ContactFilter, ContactList, ListCounts } from '../../../shared/ipc/channels/contacts.ts';
import { countsJson, detectedJson, mappingJson, reportJson, setupJson } from './listJson.ts';
import type { StoredList } from './storedList.ts';
import { listCounts } from './rowState.ts';

export function toContactList(list: StoredList): ContactList {
  const setup = setupJson(list.setup);
  const report = list.report === null ? null : reportJson(list.report);
  return {
    id: list.id,
    name: list.name,
    fileName: list.file_name,
    fileBytes: list.file_bytes,
    status: list.status === 'ready' ? 'ready' : 'importing',
    detected: detectedJson(list.detected),
    country: list.country,
    countryCode: setup.country,
    callingCode: setup.callingCode,
    variables: mappingJson(list.mapping),
    uploadColumns: uploadColumnNames(setup).slice(1),
    nameColumn: setup.nameIndex >= 0 ? (setup.header[setup.nameIndex] ?? null) : null,
    counts: listCounts(countsJson(list.counts)),
    blankRows: report?.blankRows ?? 0,
    split: report?.split ?? null,
    importMs: report?.elapsedMs ?? null,
    undo: list.undo_label,
    createdAt: list.created_at,
    updatedAt: list.updated_at,
  };
}

/** How many rows a filter shows, from the list's counts. */
export function filterTotal(counts: ListCounts, filter: ContactFilter): number {
  if (filter === 'all') return counts.rows;
  if (filter === 'bucket:valid') return counts.valid;
  if (filter === 'bucket:invalid') return counts.invalid;
  if (filter === 'bucket:duplicate') return counts.duplicates;
  if (filter === 'excluded') return counts.excluded;
  if (filter === 'edited') return counts.edited;
  if (filter.startsWith('empty:') || filter === 'suppressed')
    throw new Error(`internal: ${filter} is counted in SQLite`);
  return counts.issues[filter.slice(6) as keyof ListCounts['issues']];
}
