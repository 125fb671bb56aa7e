// The dialer engine's SQL: every change is a guarded UPDATE (a call terminated meanwhile is
// simply skipped), prepared once per sandbox.
import type { Db } from '../store/index.ts';
import type { CallRow } from '../store/types.ts';

export const dialable = "status IN ('registered', 'retry')";

export function dialerStatements(db: Db) {
  return {
    selCall: db.prepare<[string], CallRow>('SELECT * FROM calls WHERE id = ?'),
    selDialable: db.prepare<[], CallRow>(
      `SELECT * FROM calls WHERE ${dialable} AND source != 'seeded' ORDER BY next_attempt_at, rowid`,
    ),
    selOngoing: db.prepare<[], CallRow>(
      "SELECT * FROM calls WHERE status = 'ongoing' AND source != 'seeded' ORDER BY rowid",
    ),
    selListDialable: db.prepare<[string], { rowid: number; id: string; next_attempt_at: number | null }>(
      `SELECT rowid, id, next_attempt_at FROM calls WHERE bulk_list_id = ? AND ${dialable} ORDER BY rowid`,
    ),
    updDial: db.prepare<[number, number, string, number, string]>(
      `UPDATE calls SET status = 'ongoing', sub_status = 'ACCEPTED', attempt_count = ?, call_attempt_time = ?,
       next_attempt_at = NULL, from_numbers = ?, updated_at = ? WHERE id = ? AND ${dialable}`,
    ),
    updSkip: db.prepare<[string, number, string]>(
      `UPDATE calls SET status = 'cancelled', sub_status = ?, next_attempt_at = NULL, updated_at = ?
       WHERE id = ? AND ${dialable}`,
    ),
    updFinish: db.prepare<
      [string, string, number, number, string | null, number, number | null, number, string]
    >(
      `UPDATE calls SET status = ?, sub_status = ?, call_duration = ?, call_cost = ?, credits_processed = 1,
       transcript = ?, voicemail_detected = ?, next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND status = 'ongoing'`,
    ),
    updFrom: db.prepare<[string, string]>('UPDATE calls SET from_numbers = ? WHERE id = ?'),
    updAnalysis: db.prepare<[string, number, string]>(
      'UPDATE calls SET analysis = ?, updated_at = ? WHERE id = ?',
    ),
    selListExpired: db.prepare<[string], { id: string }>(
      `SELECT id FROM calls WHERE bulk_list_id = ? AND ${dialable}`,
    ),
    updListExpired: db.prepare<[number, string]>(
      `UPDATE calls SET status = 'cancelled', sub_status = 'CAMPAIGN_TIME_EXCEEDED', next_attempt_at = NULL,
       updated_at = ? WHERE bulk_list_id = ? AND ${dialable}`,
    ),
    selCredits: db.prepare<[], { credits: number }>('SELECT credits FROM workspace LIMIT 1'),
    updCredits: db.prepare<[number]>('UPDATE workspace SET credits = round(credits - ?, 4)'),
  };
}
