// What the calling service refuses of an uploaded campaign list, predicted by the app and read back
// afterwards. The service checks each row of the upload (upload-csv and campaign/save alike): its
// field count, its phone (E.164 with the campaign's country), every mapped variable non-empty
// (after trimming: "<Column> is empty (needed for <variable>)"), and its number not repeating an
// earlier accepted row. The app's upload file already carries only valid, unique numbers of full
// rows, so what remains for the service to refuse is a row with a mapped variable left empty.
import { parseRecords } from './contacts/parseRecords.ts';

/**
 * The service refuses a row whose mapped variable is empty; a variable the operator marked
 * optional is still mapped (the service wants every agent variable in variables_map), so its blank
 * cells are sent as this dash: the row arrives and the prompt reads "-" where the value would be.
 */
export const OPTIONAL_BLANK_VALUE = '-';

export interface MappedVariable {
  variable: string;
  /** Column header ('' = not mapped). */
  column: string;
  optional: boolean;
}

/** Column indexes whose blank cell makes the service refuse a row: mapped, not optional, not the phone. */
export function refusingColumns(
  mapping: readonly MappedVariable[],
  header: readonly string[],
  phoneIndex: number,
): number[] {
  const out = new Set<number>();
  for (const m of mapping) {
    if (m.column === '' || m.optional || m.variable === 'mobile_number') continue;
    const index = header.indexOf(m.column);
    if (index >= 0 && index !== phoneIndex) out.add(index);
  }
  return [...out].sort((a, b) => a - b);
}

/** Column indexes sent with the dash when blank: optional mapped variables (not the phone). */
export function optionalColumns(
  mapping: readonly MappedVariable[],
  header: readonly string[],
  phoneIndex: number,
): number[] {
  const required = new Set(refusingColumns(mapping, header, phoneIndex));
  const out = new Set<number>();
  for (const m of mapping) {
    if (m.column === '' || !m.optional || m.variable === 'mobile_number') continue;
    const index = header.indexOf(m.column);
    if (index >= 0 && index !== phoneIndex && !required.has(index)) out.add(index);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * The figure the launch confirmation shows: rows the service will drop ("Remove invalid rows" on)
 * or refuse the whole upload for (off, so the launch is blocked).
 */
export const rowsServiceWillDrop = (check: { rowsServiceWillDrop: number }): number =>
  check.rowsServiceWillDrop;

/** The service's words for a row refused for an empty variable. */
export const emptyVariableReason = (column: string, variable: string): string =>
  `${column} is empty (needed for ${variable})`;

export interface UploadRefusal {
  /** 1-based data row of the upload file (the header is not counted). */
  uploadRow: number;
  reason: string;
}

export interface ListRefusal extends UploadRefusal {
  /** The spreadsheet row of the operator's list (its source file's row number). */
  row: number;
}

/**
 * The service's rejects file (`invalidated_rows_csv_url`): the upload's columns plus a row number
 * and a reason. The row number column is found by name ("Row Number", "row", "row_number"…), the
 * reason by "Reason"/"Error"/"Message"; rows without a usable number are skipped.
 */
export function parseRejectsCsv(text: string): UploadRefusal[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const newline = body.includes('\r\n') ? '\r\n' : '\n';
  const [header, ...rows] = parseRecords(body, ',', newline);
  if (!header) return [];
  const norm = header.map((h) =>
    h
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, ' '),
  );
  const rowAt = norm.findIndex((h) => h === 'row number' || h === 'row' || h === 'row no' || h === 'line');
  const reasonAt = norm.findIndex((h) => /^(reason|reasons|error|errors|message)$/.test(h));
  if (rowAt < 0) return [];
  const out: UploadRefusal[] = [];
  for (const cells of rows) {
    const n = Number((cells[rowAt] ?? '').trim());
    if (!Number.isInteger(n) || n < 1) continue;
    out.push({ uploadRow: n, reason: (reasonAt >= 0 ? cells[reasonAt] : '')?.trim() || 'refused' });
  }
  return out;
}

/**
 * Upload rows → the operator's list rows. `uploadRows[i]` is the list's spreadsheet row written as
 * the upload's data row i + 1 (kept when the upload file is written). A number outside the upload
 * is dropped (it names no row the app sent).
 */
export function mapRefusalsToList(
  uploadRows: ArrayLike<number>,
  refusals: readonly UploadRefusal[],
): ListRefusal[] {
  const out: ListRefusal[] = [];
  const seen = new Set<number>();
  for (const r of refusals) {
    const row =
      r.uploadRow >= 1 && r.uploadRow <= uploadRows.length ? uploadRows[r.uploadRow - 1] : undefined;
    if (row === undefined || seen.has(row)) continue;
    seen.add(row);
    out.push({ ...r, row });
  }
  return out;
}
