// The calls store: a history page written (upsertCalls.ts) and one call read back by id.
import type { Db } from '../../db/define.ts';
import { prepared, query, read } from '../../db/define.ts';
import { storedCallRecord, SUMMARY_COLUMNS } from './callsTable.ts';
import type { SummaryRow } from './callsTable.ts';
import { storeHistoryPages } from './storePages.ts';
import { upsertCalls } from './upsertCalls.ts';

export interface CallRowFull extends SummaryRow {
  call_type: string | null;
  call_attempt_time: string | null;
  from_numbers: string[];
  inbound_from: string | null;
  credits_processed: boolean | null;
  transcript_raw: string | null;
  raw: string;
  first_seen_at: string;
  updated_at: string;
  rec_path: string | null;
  rec_bytes: number | null;
  rec_sha256: string | null;
  rec_expires_ms: number | null;
  rec_attempts: number | null;
  rec_error: string | null;
}

/** A call by id; with a workspace, only when the call is that workspace's. */
function getCall(db: Db, a: { callId: string; workspaceId?: string }): CallRowFull | null {
  const row = prepared<
    [string, string | null, string | null],
    Omit<
      CallRowFull,
      'call_type' | 'call_attempt_time' | 'from_numbers' | 'inbound_from' | 'credits_processed'
    >
  >(
    db,
    `SELECT ${SUMMARY_COLUMNS}, c.transcript_raw, c.raw, c.first_seen_at, c.updated_at,
       r.path AS rec_path, r.bytes AS rec_bytes, r.sha256 AS rec_sha256, r.expires_ms AS rec_expires_ms,
       r.attempts AS rec_attempts, r.error AS rec_error
     FROM calls c LEFT JOIN recordings r ON r.seq = c.seq WHERE c.id = ? AND (? IS NULL OR c.workspace_id = ?)`,
  ).get(a.callId, a.workspaceId ?? null, a.workspaceId ?? null);
  if (!row) return null;
  const raw = storedCallRecord(row.raw);
  return {
    ...row,
    call_type: raw.call_type ?? null,
    call_attempt_time: raw.call_attempt_time ?? null,
    from_numbers: raw.from_numbers ?? [],
    inbound_from: raw.inbound_from ?? null,
    credits_processed: raw.credits_processed ?? null,
  };
}

export const callStoreQueries = {
  'calls.upsert': query(upsertCalls),
  'calls.storePages': query(storeHistoryPages),
  'calls.get': read(getCall),
};
