// The do-not-call list as a file: the export's columns (CSV written with the contacts engine's
// csvCell, so a spreadsheet reads it as the upload files), and the reading of those columns back
// from a list the contacts engine imported (it read the encoding, delimiter and phone column).
import { csvCell } from '../../../shared/domain/contacts/csvWrite.ts';
import { SOURCE_KINDS, SUPPRESSION_REASONS } from '../../../shared/domain/suppression.ts';
import type {
  SuppressionEntry,
  SuppressionReason,
  SuppressionSource,
} from '../../../shared/domain/suppression.ts';
import type { StoredEntry } from './entries.queries.ts';

export const FILE_COLUMNS = [
  'Mobile Number',
  'reason',
  'list',
  'sources',
  'added_by',
  'added_at',
  'expires_at',
];

/** Sources in one cell: `kind:ref@at` joined by " | " (a person reads it; the import parses it back). */
export const sourcesCell = (sources: readonly SuppressionSource[]): string =>
  sources.map((s) => `${s.kind}:${s.ref}@${s.at}`).join(' | ');

export function parseSourcesCell(text: string): SuppressionSource[] {
  const out: SuppressionSource[] = [];
  for (const part of text.split(' | ')) {
    const m = /^([a-z]+):(.*)@([^@]+)$/.exec(part.trim());
    if (m && (SOURCE_KINDS as readonly string[]).includes(m[1]!) && isIso(m[3]!))
      out.push({ kind: m[1] as SuppressionSource['kind'], ref: m[2]!, at: m[3]! });
  }
  return out;
}

const isIso = (text: string) => /^\d{4}-\d\d-\d\dT/.test(text) && !Number.isNaN(Date.parse(text));

export const fileHeader = (): string => FILE_COLUMNS.map(csvCell).join(',') + '\n';

/** An entry's cells in FILE_COLUMNS order (the .xlsx export writes them as text cells). */
export const fileCells = (e: StoredEntry): string[] => [
  `+${e.e164}`,
  e.reason,
  e.workspaceId === '' ? 'shared' : 'workspace',
  sourcesCell(e.sources),
  e.addedBy,
  e.addedAt,
  e.expiresAt ?? '',
];

export const fileLine = (e: StoredEntry): string => fileCells(e).map(csvCell).join(',') + '\n';

/** Where the optional columns of an imported file are (by header name, case-insensitive). */
export function fileColumns(headers: readonly string[]) {
  const at = (name: string) => headers.findIndex((h) => h.trim().toLowerCase() === name);
  return {
    reason: at('reason'),
    sources: at('sources'),
    addedBy: at('added_by'),
    addedAt: at('added_at'),
    expiresAt: at('expires_at'),
  };
}

/**
 * One imported row as an entry: its own reason, sources, author and times when the file has them
 * (a list exported on another laptop keeps its history), else the import's; the file is a source.
 */
export function entryOfRow(
  e164: number,
  cells: readonly string[],
  cols: ReturnType<typeof fileColumns>,
  fallback: { reason: SuppressionReason; fileName: string; by: string; at: string },
): SuppressionEntry {
  const cell = (i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
  const reason = cell(cols.reason);
  const addedAt = cell(cols.addedAt);
  const expiresAt = cell(cols.expiresAt);
  const at = isIso(addedAt) ? new Date(addedAt).toISOString() : fallback.at;
  return {
    e164,
    reason: (SUPPRESSION_REASONS as readonly string[]).includes(reason)
      ? (reason as SuppressionReason)
      : fallback.reason,
    sources: [
      ...parseSourcesCell(cell(cols.sources)),
      { kind: 'file', ref: fallback.fileName, at: fallback.at },
    ],
    addedBy: cell(cols.addedBy) || fallback.by,
    addedAt: at,
    expiresAt: isIso(expiresAt) ? new Date(expiresAt).toISOString() : null,
  };
}
