// A canonical digest of what a history sync stored (bench/syncCpu.ts compares two builds' dumps of one
// seeded sandbox): every table the sync writes, ordered, without the columns that hold the time of
// writing; the search index as FTS5 sees it (fts5vocab: term, call, column, offset), not its pages,
// which differ with how the writes were batched. Answers each table's row count and hash.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

const TABLES: ReadonlyArray<readonly [string, string]> = [
  [
    'calls',
    `SELECT seq, id, workspace_id, bulk_list_id, to_number, name, status, sub_status, terminal, created_at,
       created_ms, attempt_ms, call_duration, call_cost, voicemail, agent_id, agent_name, transcript_raw,
       transcript_text, number_text, raw, first_seen_at = updated_at AS same_times FROM calls ORDER BY seq`,
  ],
  ['calls_fts', `SELECT term, doc, col, offset FROM temp.fts_terms ORDER BY doc, col, offset`],
  ['recordings', `SELECT * FROM recordings ORDER BY seq`],
  ['call_sync', `SELECT workspace_id, watermark_ms IS NOT NULL, pass FROM call_sync ORDER BY workspace_id`],
  [
    'call_quarantine',
    `SELECT workspace_id, record_key, call_id, field, reason, raw FROM call_quarantine ORDER BY 1, 2`,
  ],
  ['call_agg_pairs', `SELECT * FROM call_agg_pairs ORDER BY 1, 2, 3, 4, 5`],
  ['call_agg_slots', `SELECT * FROM call_agg_slots ORDER BY 1, 2, 3`],
  ['call_agg_values', `SELECT * FROM call_agg_values ORDER BY 1, 2, 3, 4`],
  ['call_agg_numbers', `SELECT * FROM call_agg_numbers ORDER BY 1, 2, 3, 4`],
  ['call_agg_ranks', `SELECT * FROM call_agg_ranks ORDER BY 1, 2, 3, 4`],
  ['call_agg_log', `SELECT * FROM call_agg_log`],
];

export function dumpSyncedFile(file: string): Record<string, { rows: number; sha: string }> {
  const db = new Database(file);
  const result: Record<string, { rows: number; sha: string }> = {};
  try {
    db.exec(`CREATE VIRTUAL TABLE temp.fts_terms USING fts5vocab(main, calls_fts, instance)`);
    db.exec(`INSERT INTO calls_fts (calls_fts, rank) VALUES ('integrity-check', 1)`);
    for (const [name, sql] of TABLES) {
      const hash = createHash('sha256');
      let rows = 0;
      for (const row of db.prepare(sql).raw().iterate()) {
        hash.update(JSON.stringify(row)).update('\n');
        rows++;
      }
      result[name] = { rows, sha: hash.digest('hex').slice(0, 16) };
    }
  } finally {
    db.close();
  }
  return result;
}
