// The QA report of a campaign as CSV (the app's `review:report` and the CLI's `calls qa-report`):
// every call of the campaign with its review, streamed from SQLite a page at a time into a
// temporary file renamed into place; every cell formula-safe, as the calls export writes them.
import { outcomeText } from '../../../shared/domain/callOutcome.ts';
import { safeCell } from '../../../shared/domain/contacts/csvWrite.ts';
import { createAtomicFile } from '../files/atomicFile.ts';
import type { DbClient } from '../db/client.ts';
import type { QaReportRow } from './callReviews.queries.ts';

export const QA_REPORT_COLUMNS = [
  'call_id',
  'to_number',
  'call_attempt_time',
  'outcome',
  'reviewed',
  'flag_reason',
  'note',
  'reviewer',
  'reviewed_at',
] as const;

const cell = (v: string | null): string => safeCell(v ?? '');

export const qaReportLine = (r: QaReportRow): string =>
  [
    r.id,
    r.to_number,
    r.attempt_ms === null ? null : new Date(r.attempt_ms).toISOString(),
    outcomeText(r.outcome),
    r.reviewed_at === null ? 'no' : 'yes',
    r.flag_label,
    r.note,
    r.reviewed_by,
    r.reviewed_at,
  ]
    .map(cell)
    .join(',') + '\n';

/** A file name for a campaign's report: its id made safe for every file system. */
export const qaReportFileName = (bulkListId: string): string =>
  `qa-report-${bulkListId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}.csv`;

export async function writeQaReport(
  db: DbClient,
  a: { workspaceId: string | null; bulkListId: string },
  target: string,
): Promise<{ rows: number; bytes: number }> {
  const file = await createAtomicFile(target);
  try {
    const header = QA_REPORT_COLUMNS.join(',') + '\n';
    await file.write(header);
    let bytes = Buffer.byteLength(header);
    let rows = 0;
    for await (const page of db.stream('reviews.report', a)) {
      let chunk = '';
      for (const r of page) chunk += qaReportLine(r);
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
