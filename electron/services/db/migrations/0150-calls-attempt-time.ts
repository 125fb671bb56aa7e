import { parseServiceTimestamp } from '../../../../shared/service/normalize.ts';
import type { Migration } from './migration.ts';

/**
 * A call's time is when it was dialled (`call_attempt_time`), not when it was queued (issue 24):
 * `calls.attempt_ms` (null: never dialled) with an index for the Calls table's "Time" sort and the
 * charts, filled from each stored record. `campaign_terminations` remembers a campaign terminated
 * from this computer, so its status reads "Terminated" where the service's listing says completed.
 */
export const migration: Migration = {
  version: 150,
  name: 'calls-attempt-time',
  up(db) {
    db.exec(`
      ALTER TABLE calls ADD COLUMN attempt_ms INTEGER;
      CREATE TABLE campaign_terminations (
        workspace_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        terminated_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, campaign_id)
      ) WITHOUT ROWID;
    `);
    // The service's timestamps come in several forms (with or without offset or fraction): the
    // same parser as the sync's, row by row, only for calls that were dialled.
    const set = db.prepare(`UPDATE calls SET attempt_ms = ? WHERE seq = ?`);
    const rows = db
      .prepare<[], { seq: number; at: string }>(
        `SELECT seq, json_extract(raw, '$.call_attempt_time') AS at FROM calls
         WHERE json_extract(raw, '$.call_attempt_time') IS NOT NULL`,
      )
      .all();
    for (const r of rows) {
      const ms = parseServiceTimestamp(r.at);
      if (ms !== null) set.run(ms, r.seq);
    }
    db.exec(`CREATE INDEX calls_ws_attempt ON calls (workspace_id, attempt_ms DESC, id)`);
    // The charts read every filtered call's outcome, time, duration, cost and number: from this
    // covering index, not the fat rows (raw JSON, transcripts).
    db.exec(`CREATE INDEX calls_ws_charts ON calls (workspace_id, bulk_list_id, attempt_ms, status, sub_status,
      voicemail, call_duration, call_cost, to_number)`);
  },
};
