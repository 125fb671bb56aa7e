// The filtered calls as CSV, one row per call (the CLI's `calls export` and calls:export): streamed
// from SQLite a page at a time into a temporary file renamed into place; every cell formula-safe,
// the number as `tel:+91…` (text to a spreadsheet, read back by the contacts importer).
import { outcomeText } from '../../../shared/domain/callOutcome.ts';
import { safeCell, safePhoneCell } from '../../../shared/domain/contacts/csvWrite.ts';
import type { CallFilter, CallSort } from '../../../shared/ipc/channels/calls.ts';
import { join } from 'node:path';
import { newDownload, removeDownload } from '../files/downloads.ts';
import { createAtomicFile } from '../files/atomicFile.ts';
import type { DbClient } from '../db/client.ts';
import type { ExportRow } from './search/search.queries.ts';

export const CALL_CSV_COLUMNS = [
  'call_id',
  'bulk_list_id',
  'to_number',
  'name',
  'status',
  'sub_status',
  'created_at',
  'call_duration',
  'call_cost',
  'agent_id',
  'voicemail',
  'recording',
  'recording_path',
  // The time of the call (empty: never dialled) and what it came to (the outcome table), in words.
  'call_attempt_time',
  'outcome',
] as const;

const text = (v: string | number | null): string => (v === null ? '' : String(v));

export const callCsvLine = (r: ExportRow): string =>
  [
    safeCell(text(r.id)),
    safeCell(text(r.bulk_list_id)),
    safePhoneCell(text(r.to_number)),
    ...[
      r.name,
      r.status,
      r.sub_status,
      r.created_at,
      r.call_duration,
      r.call_cost,
      r.agent_id,
      r.voicemail === null ? null : r.voicemail ? 'true' : 'false',
      r.recording,
      r.recording_path,
      r.attempt_ms === null ? null : new Date(r.attempt_ms).toISOString(),
      outcomeText(r.outcome),
    ].map((v) => safeCell(text(v))),
  ].join(',') + '\n';

export async function writeCallsCsv(
  db: DbClient,
  a: { workspaceId: string | null; filter: CallFilter; sort?: CallSort },
  target: string,
): Promise<{ rows: number; bytes: number }> {
  const file = await createAtomicFile(target);
  try {
    const header = CALL_CSV_COLUMNS.join(',') + '\n';
    await file.write(header);
    let bytes = Buffer.byteLength(header);
    let rows = 0;
    // Read ahead: SQLite reads the next batch in the worker while this one becomes CSV here.
    for await (const page of db.stream(
      'calls.export',
      { workspaceId: a.workspaceId, filter: a.filter, ...(a.sort ? { sort: a.sort } : {}) },
      { readAhead: true },
    )) {
      let chunk = '';
      for (const r of page) chunk += callCsvLine(r);
      rows += page.length;
      bytes += Buffer.byteLength(chunk);
      await file.write(chunk);
    }
    await file.commit();
    return { rows, bytes };
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/**
 * calls:export: the CSV written to `path` when the operator chose one, else into a fresh download
 * folder (the browser host hands it over by URL; the folder goes if writing fails).
 */
export async function exportCallsFile(
  db: DbClient,
  dataDir: string,
  args: { workspaceId: string; filter: CallFilter; sort?: CallSort },
  path: string | null,
) {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const fileName = `calls-${stamp}.csv`;
  if (path !== null) {
    const { rows, bytes } = await writeCallsCsv(db, args, path);
    return { rows, bytes, fileName: path.split(/[\\/]/).pop() ?? fileName, path, downloadUrl: null };
  }
  const download = newDownload(dataDir);
  try {
    const { rows, bytes } = await writeCallsCsv(db, args, join(download.dir, fileName));
    return { rows, bytes, fileName, path: null, downloadUrl: download.url };
  } catch (error) {
    removeDownload(download.dir);
    throw error;
  }
}
