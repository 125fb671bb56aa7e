// One call as the detail pane shows it: its summary, the record's other fields, the transcript's
// turns, the recording (with a playback URL when its file is on disk) and the record as received.
import { existsSync } from 'node:fs';
import type { CallDetail } from '../../../shared/ipc/channels/calls.ts';
import { parseTranscript } from '../sync/callRow.ts';
import { playbackUrl } from './playback.ts';
import { storedCallRecord, summaryFields } from './store/callsTable.ts';
import type { CallRowFull } from './store/store.queries.ts';

/** An instant as ISO text; null for one no Date can hold (a stored call of an older sync could carry one). */
function isoOrNull(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return new Date(ms).toISOString();
}

export function callDetail(row: CallRowFull, host: Parameters<typeof playbackUrl>[0]): CallDetail {
  const { turns, raw } = parseTranscript(storedCallRecord(row.raw).transcript);
  const savedPath =
    row.recording === 'saved' && row.rec_path && existsSync(row.rec_path) ? row.rec_path : null;
  return {
    ...summaryFields(row),
    callType: row.call_type,
    callAttemptTime: row.call_attempt_time,
    fromNumbers: row.from_numbers,
    inboundFrom: row.inbound_from,
    creditsProcessed: row.credits_processed,
    transcript: turns,
    transcriptRaw: raw,
    recording: {
      state: row.recording,
      path: row.rec_path,
      bytes: row.rec_bytes,
      sha256: row.rec_sha256,
      expiresAt: isoOrNull(row.rec_expires_ms),
      attempts: row.rec_attempts ?? 0,
      error: row.rec_error,
      playUrl: savedPath ? playbackUrl(host, savedPath) : null,
    },
    firstSeenAt: row.first_seen_at,
    updatedAt: row.updated_at,
    // Pretty-printed as received, every field kept (not only those the app reads).
    rawJson: JSON.stringify(JSON.parse(row.raw), null, 2),
  };
}
