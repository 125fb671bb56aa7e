// The recordings queue: which calls' recordings wait to be saved, their states as the downloader
// moves them on, the retention's victims and the disk they use.
import type { RecordingCounts } from '../../../shared/ipc/channels/calls.ts';
import type { Db } from '../db/define.ts';
import { prepared, query } from '../db/define.ts';

export function recordingCounts(db: Db, workspaceId: string | null): RecordingCounts {
  const counts: RecordingCounts = { pending: 0, saved: 0, expired: 0, failed: 0, none: 0 };
  const rows =
    workspaceId === null
      ? prepared<[], { state: keyof RecordingCounts; n: number }>(
          db,
          `SELECT state, count(*) AS n FROM recordings GROUP BY state`,
        ).all()
      : prepared<[string], { state: keyof RecordingCounts; n: number }>(
          db,
          `SELECT state, count(*) AS n FROM recordings WHERE workspace_id = ? GROUP BY state`,
        ).all(workspaceId);
  let withRow = 0;
  for (const r of rows) {
    counts[r.state] = r.n;
    withRow += r.n;
  }
  const calls =
    workspaceId === null
      ? (prepared<[], number>(db, `SELECT count(*) FROM calls`).pluck().get() ?? 0)
      : (prepared<[string], number>(db, `SELECT count(*) FROM calls WHERE workspace_id = ?`)
          .pluck()
          .get(workspaceId) ?? 0);
  counts.none += calls - withRow;
  return counts;
}

export interface RecordingJob {
  callId: string;
  workspaceId: string;
  url: string;
  expiresMs: number | null;
  attempts: number;
}

/** The next pending recordings, soonest expiry first (skipping ids in flight). */
const nextRecordings = (
  db: Db,
  a: { workspaceId: string | null; limit: number; nowMs: number; skip: string[] },
) =>
  prepared<[string | null, string | null, number, string, number], RecordingJob>(
    db,
    `SELECT c.id AS callId, r.workspace_id AS workspaceId, r.url, r.expires_ms AS expiresMs, r.attempts
     FROM recordings r JOIN calls c ON c.seq = r.seq
     WHERE r.state = 'pending' AND (? IS NULL OR r.workspace_id = ?) AND r.next_try_ms <= ?
       AND c.id NOT IN (SELECT value FROM json_each(?))
     ORDER BY r.expires_ms, r.seq LIMIT ?`,
  ).all(a.workspaceId, a.workspaceId, a.nowMs, JSON.stringify(a.skip), a.limit);

export interface RecordingUpdate {
  callId: string;
  state: 'pending' | 'saved' | 'expired' | 'failed';
  path?: string | null;
  bytes?: number | null;
  sha256?: string | null;
  error?: string | null;
  nextTryMs?: number;
  attempted?: boolean;
}

const updateRecording = (db: Db, u: RecordingUpdate): void => {
  prepared(
    db,
    `UPDATE recordings SET state = @state, path = coalesce(@path, path), bytes = coalesce(@bytes, bytes),
       sha256 = coalesce(@sha256, sha256), error = @error, next_try_ms = @next, attempts = attempts + @attempted,
       saved_at = CASE WHEN @state = 'saved' THEN @now ELSE saved_at END
     WHERE seq = (SELECT seq FROM calls WHERE id = @callId)`,
  ).run({
    callId: u.callId,
    state: u.state,
    path: u.path ?? null,
    bytes: u.bytes ?? null,
    sha256: u.sha256 ?? null,
    error: u.error ?? null,
    next: u.nextTryMs ?? 0,
    attempted: u.attempted ? 1 : 0,
    now: new Date().toISOString(),
  });
};

/** Pending recordings whose URL died long ago are expired without asking (one 410 each would follow). */
const expireOverdue = (db: Db, a: { workspaceId: string | null; beforeMs: number }): number =>
  prepared(
    db,
    `UPDATE recordings SET state = 'expired', error = 'The recording URL expired before it could be saved (24 h after the call)'
     WHERE state = 'pending' AND expires_ms < ? AND (? IS NULL OR workspace_id = ?)`,
  ).run(a.beforeMs, a.workspaceId, a.workspaceId).changes;

/** Saved recordings of calls older than the retention: their files go, the state becomes expired. */
const retentionVictims = (db: Db, a: { beforeMs: number; limit: number }) =>
  prepared<[number, number], { callId: string; path: string }>(
    db,
    `SELECT c.id AS callId, r.path FROM recordings r JOIN calls c ON c.seq = r.seq
     WHERE r.state = 'saved' AND c.created_ms < ? LIMIT ?`,
  ).all(a.beforeMs, a.limit);

const savedBytes = (db: Db) =>
  prepared<[], { bytes: number; files: number }>(
    db,
    `SELECT coalesce(sum(bytes), 0) AS bytes, count(*) AS files FROM recordings WHERE state = 'saved'`,
  ).get() ?? { bytes: 0, files: 0 };

export const recordingQueries = {
  'recordings.next': query(nextRecordings),
  'recordings.update': query(updateRecording),
  'recordings.expireOverdue': query(expireOverdue),
  'recordings.counts': query((db, a: { workspaceId: string | null }) => recordingCounts(db, a.workspaceId)),
  'recordings.retentionVictims': query(retentionVictims),
  'recordings.savedBytes': query(savedBytes),
};
