// Calls: storing history pages (upsert by id, raw kept), the sync state, and every read of the
// Calls screen, the CLI export and the charts. Reads answer from SQLite only.
import type {
  CallFilter,
  CallSort,
  CallStats,
  CallSummary,
  OutcomeCounts,
  RecordingCounts,
} from '../../../../shared/ipc/channels/calls.ts';
import { CAMPAIGN_OUTCOMES } from '../../../../shared/ipc/channels/calls.ts';
import { CALL_OUTCOMES, outcomeOf, outcomeSql } from '../../../../shared/domain/callOutcome.ts';
import type { CallOutcome } from '../../../../shared/domain/callOutcome.ts';
import type { CallRecord } from '../../../../shared/service/history.ts';
import type { CallColumns } from '../../sync/callRow.ts';
import { quarantineCount } from './callQuarantine.ts';
import { reviewConditions, unreviewedTwins } from './callReviews.ts';
import { callSnippet } from './callSnippet.ts';
import { aggregatedAttemptGroups, aggregatedStats } from './callStatsAggregated.ts';
import {
  binWidth,
  campaignZonesCte,
  launchedListRows,
  placeAttemptGroups,
  QUARTER_MS,
} from './chartGroups.ts';
import type { AttemptGroup } from './chartGroups.ts';
import { markListPositions } from '../../contacts/positionMarks.ts';
import { recount } from '../../contacts/recount.ts';
import { rebuildNumbers } from '../../contacts/rowStore.ts';
import { getList } from '../../contacts/storedList.ts';
import type { StoredList } from '../../contacts/storedList.ts';
import { foldCallAggregates, logNewShares, logOldShare } from '../callAggregates.ts';
import type { Db } from '../define.ts';
import { prepared, query, read, readStream, writeTransaction } from '../define.ts';

// ---------------------------------------------------------------- storing

export interface UpsertArgs {
  workspaceId: string;
  /** Set when the page came from a per-campaign query (links the calls to the campaign). */
  bulkListId: string | null;
  /** The page's records as columns (made by the caller, so the DB worker only writes). */
  rows: CallColumns[];
  nowIso: string;
}
export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

const CALL_COLUMNS = `id, workspace_id, bulk_list_id, to_number, name, status, sub_status, terminal, created_at,
  created_ms, attempt_ms, call_duration, call_cost, voicemail, agent_id, agent_name, transcript_raw,
  transcript_text, number_text, raw, first_seen_at, updated_at`;

/** The row's values in CALL_COLUMNS order (positional binding: no object per row). */
const callValues = (c: CallColumns, workspaceId: string, bulkListId: string | null, now: string) => [
  c.id,
  workspaceId,
  bulkListId,
  c.to_number,
  c.name,
  c.status,
  c.sub_status,
  c.terminal,
  c.created_at,
  c.created_ms,
  c.attempt_ms,
  c.call_duration,
  c.call_cost,
  c.voicemail,
  c.agent_id,
  c.agent_name,
  c.transcript_raw,
  c.transcript_text,
  c.number_text,
  c.raw,
  now,
  now,
];

/**
 * The batch's rows, one per id: the last occurrence of a repeated id (the state fetched last: pages
 * are joined in the order they were read, and overlapping windows or a window read again while a
 * call progressed carry it twice), at its first position. Two rows of one id in one transaction
 * would unindex search text the batch has not indexed yet (indexing runs once, at its end), which
 * FTS5 refuses as a damaged index.
 */
function lastPerId(rows: readonly CallColumns[]): CallColumns[] {
  const seen = new Set<string>();
  let repeated = false;
  for (const c of rows) {
    if (seen.has(c.id)) {
      repeated = true;
      break;
    }
    seen.add(c.id);
  }
  if (!repeated) return rows as CallColumns[];
  const byId = new Map<string, CallColumns>();
  for (const c of rows) byId.set(c.id, c); // a repeated key keeps its place, takes the new value
  return [...byId.values()];
}

/**
 * One page in one transaction: new ids inserted, changed ones updated, the rest untouched; the
 * search index (migration 0080) is fed in the same transaction: the old text of a changed call
 * removed before it is rewritten, then every written row indexed with one INSERT … SELECT.
 * A repeated id is stored once, as its last occurrence (`lastPerId`); the counts are per call.
 * A call stored under another workspace (that workspace removed and the same account added again,
 * under a new id) moves, with its recording row and its review mark, to the workspace that synced it, and counts as
 * updated: call ids are unique per calling service, and the one syncing it now owns it.
 */
export function upsertCalls(db: Db, a: UpsertArgs): UpsertResult {
  const existing = prepared<
    [string],
    { seq: number; raw: string; bulk_list_id: string | null; workspace_id: string }
  >(db, `SELECT seq, raw, bulk_list_id, workspace_id FROM calls WHERE id = ?`);
  const insert = prepared(
    db,
    `INSERT INTO calls (${CALL_COLUMNS}) VALUES (${CALL_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')}) ON CONFLICT (id) DO NOTHING`,
  );
  const update = prepared(
    db,
    `UPDATE calls SET workspace_id = ?, bulk_list_id = coalesce(?, bulk_list_id), to_number = ?, name = ?,
       status = ?, sub_status = ?, terminal = ?, created_at = ?, created_ms = ?, attempt_ms = ?, call_duration = ?, call_cost = ?,
       voicemail = ?, agent_id = ?, agent_name = ?, transcript_raw = ?, transcript_text = ?, number_text = ?,
       raw = ?, updated_at = ?
     WHERE id = ?`,
  );
  const unindex = prepared(
    db,
    `INSERT INTO calls_fts (calls_fts, rowid, transcript_text, name, number_text)
     SELECT 'delete', seq, transcript_text, name, number_text FROM calls WHERE seq = ?`,
  );
  const index = prepared(
    db,
    `INSERT INTO calls_fts (rowid, transcript_text, name, number_text)
     SELECT seq, transcript_text, name, number_text FROM calls WHERE seq IN (SELECT value FROM json_each(?))`,
  );
  const relink = prepared(
    db,
    `UPDATE calls SET workspace_id = ?, bulk_list_id = coalesce(?, bulk_list_id), updated_at = ? WHERE id = ?`,
  );
  const moveRecording = prepared(db, `UPDATE recordings SET workspace_id = ? WHERE seq = ?`);
  const moveReview = prepared(
    db,
    `UPDATE OR IGNORE call_reviews SET workspace_id = ? WHERE workspace_id = ? AND call_id = ?`,
  );
  const recording = prepared(
    db,
    `INSERT INTO recordings (seq, workspace_id, state, url, expires_ms) VALUES (?, ?, 'pending', ?, ?)
     ON CONFLICT (seq) DO UPDATE SET url = excluded.url, expires_ms = excluded.expires_ms
       WHERE recordings.state = 'pending'`,
  );
  const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
  writeTransaction(db, () => {
    const written: number[] = [];
    const relinked: number[] = [];
    for (const c of lastPerId(a.rows)) {
      // A new id is inserted at once (no lookup first); a known one is compared with what is stored.
      const values = callValues(c, a.workspaceId, a.bulkListId, a.nowIso);
      const added = insert.run(values);
      const before = added.changes === 1 ? undefined : existing.get(c.id);
      const seq = before ? before.seq : Number(added.lastInsertRowid);
      const moved = before !== undefined && before.workspace_id !== a.workspaceId;
      if (!before) {
        written.push(seq);
        result.inserted++;
      } else if (before.raw !== c.raw) {
        logOldShare(db, before.seq);
        unindex.run(before.seq);
        // The insert's values from workspace_id to raw, then updated_at and the id.
        update.run([...values.slice(1, 20), a.nowIso, c.id]);
        written.push(before.seq);
        result.updated++;
      } else if (moved || (a.bulkListId !== null && before.bulk_list_id !== a.bulkListId)) {
        logOldShare(db, before.seq);
        relink.run(a.workspaceId, a.bulkListId, a.nowIso, c.id);
        relinked.push(before.seq);
        result.updated++;
      } else {
        result.unchanged++;
        continue;
      }
      if (moved) {
        moveRecording.run(a.workspaceId, seq);
        moveReview.run(a.workspaceId, before.workspace_id, c.id); // QA marks follow the call
      }
      if (c.recordingUrl) recording.run(seq, a.workspaceId, c.recordingUrl, c.recordingExpiresMs);
    }
    if (written.length > 0) index.run(JSON.stringify(written));
    // The charts' aggregates take the page's changes in the same transaction (callAggregates.ts).
    logNewShares(db, written.concat(relinked));
    foldCallAggregates(db);
  });
  return result;
}

// ---------------------------------------------------------------- sync state

export interface SyncPass {
  fromMs: number;
  toMs: number;
  /** Everything in [fromMs, cursorMs) is stored. */
  cursorMs: number;
}
export interface SyncRow {
  watermarkMs: number | null;
  lastSyncedAt: string | null;
  pass: SyncPass | null;
}

function readSync(db: Db, workspaceId: string): SyncRow {
  const row = prepared<
    [string],
    { watermark_ms: number | null; last_synced_at: string | null; pass: string | null }
  >(db, `SELECT watermark_ms, last_synced_at, pass FROM call_sync WHERE workspace_id = ?`).get(workspaceId);
  return {
    watermarkMs: row?.watermark_ms ?? null,
    lastSyncedAt: row?.last_synced_at ?? null,
    pass: row?.pass ? (JSON.parse(row.pass) as SyncPass) : null,
  };
}

function writeSync(
  db: Db,
  a: { workspaceId: string; pass: SyncPass | null; finished?: { watermarkMs: number; at: string } },
) {
  prepared(
    db,
    `INSERT INTO call_sync (workspace_id, watermark_ms, last_synced_at, pass, updated_at) VALUES (@w, @wm, @at, @pass, @now)
     ON CONFLICT (workspace_id) DO UPDATE SET pass = excluded.pass, updated_at = excluded.updated_at,
       watermark_ms = coalesce(excluded.watermark_ms, call_sync.watermark_ms),
       last_synced_at = coalesce(excluded.last_synced_at, call_sync.last_synced_at)`,
  ).run({
    w: a.workspaceId,
    wm: a.finished?.watermarkMs ?? null,
    at: a.finished?.at ?? null,
    pass: a.pass ? JSON.stringify(a.pass) : null,
    now: new Date().toISOString(),
  });
}

/** created_ms of the workspace's calls not yet terminal, older than `beforeMs`, oldest first. */
const openCallTimes = (db: Db, a: { workspaceId: string; beforeMs: number }): number[] =>
  prepared<[string, number], number>(
    db,
    `SELECT created_ms FROM calls WHERE workspace_id = ? AND terminal = 0 AND created_ms < ? ORDER BY created_ms`,
  )
    .pluck()
    .all(a.workspaceId, a.beforeMs);

/** Bulk list ids to sync per campaign: launched here, or already seen on calls. */
const campaignIds = (db: Db, a: { workspaceId: string }): string[] =>
  prepared<[string, string], string>(
    db,
    `SELECT bulk_list_id FROM campaign_lists WHERE workspace_id = ?
     UNION SELECT DISTINCT bulk_list_id FROM calls WHERE workspace_id = ? AND bulk_list_id IS NOT NULL`,
  )
    .pluck()
    .all(a.workspaceId, a.workspaceId);

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

const callCount = (db: Db, workspaceId: string): number =>
  prepared<[string], number>(db, `SELECT count(*) FROM calls WHERE workspace_id = ?`)
    .pluck()
    .get(workspaceId) ?? 0;

// ---------------------------------------------------------------- recordings queue

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

// ---------------------------------------------------------------- reads: filter, list, search

/** A call's outcome (the outcome table of shared/domain/callOutcome.ts, as SQL over `calls c`). */
const CALL_OUTCOME = outcomeSql('c.status', 'c.sub_status', 'c.voicemail');

/** FTS5 query from what the operator typed: each word quoted, the last one a prefix. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length === 0) return null;
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

interface Where {
  sql: string;
  params: unknown[];
  fts: string | null;
  /** No condition but the workspace (and the search, if any). */
  workspaceOnly: boolean;
}

/** The filter as SQL over `calls c` (workspaceId null: every workspace, for the CLI's export). */
export function whereOf(workspaceId: string | null, f: CallFilter): Where {
  const review = reviewConditions(workspaceId, f);
  // `+` when review marks pick the calls: looked up by rowid from the marks, not found by a walk.
  const parts = workspaceId === null ? ['1'] : [review.drives ? '+c.workspace_id = ?' : 'c.workspace_id = ?'];
  const params: unknown[] = workspaceId === null ? [] : [workspaceId];
  const add = (sql: string, ...p: unknown[]) => {
    parts.push(sql);
    params.push(...p);
  };
  if (f.bulkListId !== undefined) add('c.bulk_list_id = ?', f.bulkListId);
  if (f.agentId !== undefined) add('c.agent_id = ?', f.agentId);
  if (f.statuses?.length) add(`c.status IN (${f.statuses.map(() => '?').join(',')})`, ...f.statuses);
  if (f.subStatuses?.length)
    add(`c.sub_status IN (${f.subStatuses.map(() => '?').join(',')})`, ...f.subStatuses);
  if (f.outcomes?.length) add(`${CALL_OUTCOME} IN (${f.outcomes.map(() => '?').join(',')})`, ...f.outcomes);
  if (f.from !== undefined) add('c.created_ms >= ?', Date.parse(f.from));
  if (f.to !== undefined) add('c.created_ms < ?', Date.parse(f.to));
  if (f.voicemail !== undefined) add(f.voicemail ? 'c.voicemail = 1' : 'coalesce(c.voicemail, 0) = 0');
  if (f.minDuration !== undefined) add('c.call_duration >= ?', f.minDuration);
  if (f.maxDuration !== undefined) add('c.call_duration <= ?', f.maxDuration);
  if (f.minCost !== undefined) add('c.call_cost >= ?', f.minCost);
  if (f.maxCost !== undefined) add('c.call_cost <= ?', f.maxCost);
  if (f.recording?.length)
    add(
      `coalesce((SELECT state FROM recordings r WHERE r.seq = c.seq), 'none') IN (${f.recording.map(() => '?').join(',')})`,
      ...f.recording,
    );
  for (const c of review.parts) add(c.sql, ...c.params);
  const fts = f.search === undefined ? null : ftsQuery(f.search);
  return { sql: parts.join(' AND '), params, fts, workspaceOnly: workspaceId !== null && parts.length === 1 };
}

/** One column of a sort: the SQL, the export row's field holding its value, the direction. */
interface SortKey {
  sql: string;
  field: 'created_ms' | 'attempt_ms' | 'id' | 'call_duration' | 'call_cost' | 'name' | 'status';
  dir: 'ASC' | 'DESC';
  /** The column may be null: nulls come last in either direction. */
  nullsLast?: true;
}

/** A sort as its keys, ending in the call id (unique: every order is total, so keyset pages work). */
const sortKeys = (s: CallSort | undefined): SortKey[] => {
  const dir = s?.dir === 'asc' ? 'ASC' : 'DESC';
  const newest: SortKey[] = [
    { sql: 'c.created_ms', field: 'created_ms', dir: 'DESC' },
    { sql: 'c.id', field: 'id', dir: 'ASC' },
  ];
  switch (s?.by ?? 'created_at') {
    case 'created_at':
      return [
        { sql: 'c.created_ms', field: 'created_ms', dir },
        { sql: 'c.id', field: 'id', dir },
      ];
    case 'attempted_at':
      // Never dialled calls last in either direction: they have no time yet.
      return [{ sql: 'c.attempt_ms', field: 'attempt_ms', dir, nullsLast: true }, ...newest];
    case 'call_duration':
      return [{ sql: 'c.call_duration', field: 'call_duration', dir, nullsLast: true }, ...newest];
    case 'call_cost':
      return [{ sql: 'c.call_cost', field: 'call_cost', dir, nullsLast: true }, ...newest];
    case 'name':
      return [{ sql: 'c.name COLLATE NOCASE', field: 'name', dir, nullsLast: true }, ...newest];
    case 'status':
      return [{ sql: 'c.status', field: 'status', dir }, ...newest];
  }
};

const sortSql = (s: CallSort | undefined): string =>
  sortKeys(s)
    .map((k) => `${k.sql} ${k.dir}${k.nullsLast ? ' NULLS LAST' : ''}`)
    .join(', ');

/**
 * The rows after `last` in the keys' order, as a condition (keyset paging): for some key, the keys
 * before it equal `last`'s and it comes after; `IS` compares nulls, a null sorts after any value.
 * When the first key is never null it is also bounded on its own (`>=`/`<=`), so an index on it
 * starts there instead of at the beginning.
 */
function afterKeys(keys: readonly SortKey[], last: Record<SortKey['field'], unknown>) {
  const alternatives: string[] = [];
  const params: unknown[] = [];
  const equal: string[] = [];
  const equalParams: unknown[] = [];
  for (const k of keys) {
    const v = last[k.field] ?? null;
    if (v !== null) {
      const beyond = `${k.sql} ${k.dir === 'ASC' ? '>' : '<'} ?`;
      alternatives.push([...equal, k.nullsLast ? `(${beyond} OR ${k.sql} IS NULL)` : beyond].join(' AND '));
      params.push(...equalParams, v);
    }
    equal.push(`${k.sql} IS ?`);
    equalParams.push(v);
  }
  const first = keys[0]!;
  const v = last[first.field] ?? null;
  const bound = first.nullsLast || v === null ? null : `${first.sql} ${first.dir === 'ASC' ? '>=' : '<='} ?`;
  const any = alternatives.length === 0 ? '0' : alternatives.map((x) => `(${x})`).join(' OR ');
  return bound === null
    ? { sql: `(${any})`, params }
    : { sql: `${bound} AND (${any})`, params: [v, ...params] };
}

const summaryColumns = `c.id, c.workspace_id, c.bulk_list_id, c.to_number, c.name, c.status, c.sub_status, c.created_at,
  c.attempt_ms, ${CALL_OUTCOME} AS outcome, c.call_duration, c.call_cost, c.voicemail, c.agent_id, c.agent_name,
  coalesce((SELECT state FROM recordings r WHERE r.seq = c.seq), 'none') AS recording`;

interface SummaryRow {
  id: string;
  workspace_id: string;
  bulk_list_id: string | null;
  to_number: string | null;
  name: string | null;
  status: string;
  sub_status: string | null;
  created_at: string;
  attempt_ms: number | null;
  outcome: CallOutcome;
  call_duration: number | null;
  call_cost: number | null;
  voicemail: number | null;
  agent_id: string | null;
  agent_name: string | null;
  recording: CallSummary['recording'];
}

const toSummary = (r: SummaryRow): CallSummary => ({
  id: r.id,
  workspaceId: r.workspace_id,
  bulkListId: r.bulk_list_id,
  toNumber: r.to_number,
  name: r.name,
  status: r.status,
  subStatus: r.sub_status,
  createdAt: r.created_at,
  attemptedAt: r.attempt_ms === null ? null : new Date(r.attempt_ms).toISOString(),
  outcome: r.outcome,
  callDuration: r.call_duration,
  callCost: r.call_cost,
  voicemail: r.voicemail === null ? null : r.voicemail === 1,
  agentId: r.agent_id,
  agentName: r.agent_name,
  recording: r.recording,
  snippet: null,
});

export interface ListArgs {
  workspaceId: string;
  filter: CallFilter;
  sort?: CallSort;
  offset: number;
  limit: number;
}

/** The filter and the search as a FROM clause (exports and charts; the Calls table uses listKeys). */
const fromClause = (w: Where) =>
  w.fts === null
    ? { sql: `FROM calls c WHERE ${w.sql}`, params: w.params }
    : {
        sql: `FROM calls c WHERE c.seq IN (SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?) AND ${w.sql}`,
        params: [w.fts, ...w.params],
      };

/** No call of another workspace is stored (then a search's matches all belong to this one). */
const onlyWorkspace = (db: Db, workspaceId: string): boolean =>
  prepared<[string, string], number>(
    db,
    `SELECT 1 FROM calls WHERE workspace_id < ? UNION ALL SELECT 1 FROM calls WHERE workspace_id > ? LIMIT 1`,
  )
    .pluck()
    .get(workspaceId, workspaceId) === undefined;

/**
 * Rows walked at most, newest first, to fill a search's page: index entries alone when only the
 * workspace is filtered; rows read for their columns when other filters apply.
 */
export const SEARCH_WALK_INDEX_ROWS = 20_000;
export const SEARCH_WALK_ROWS = 2_000;

/** A search's matches up to this many are counted and sorted through their rows (looked up by key). */
const FEW_MATCHES = 2000;

/**
 * Membership of call seqs, as a bitset: a common word matches most calls, and a Set of 56,000 seqs
 * took ~7 ms to build (a third of such a search), the bitset under 2 ms. Seqs are rowids (dense,
 * from 1): a million calls need 125 KB.
 */
export function seqSet(seqs: readonly number[]): { has(seq: number): boolean } {
  let max = 0;
  for (const s of seqs) if (s > max) max = s;
  if (max >= 2 ** 31) return new Set(seqs); // past what the bit arithmetic below holds
  const bits = new Uint32Array((max >>> 5) + 1);
  for (const s of seqs) bits[s >>> 5]! |= 1 << (s & 31);
  return { has: (seq) => seq >= 0 && seq <= max && (bits[seq >>> 5]! & (1 << (seq & 31))) !== 0 };
}

/**
 * A page of a search, newest first, by walking the filtered calls in date order and keeping the
 * matches: a common word fills 50 rows within a few hundred, where sorting every match builds a
 * temporary b-tree of all of them. Null when the walk would be long (a rare word, a deep offset):
 * the caller sorts the matches in SQL instead.
 */
function searchPageByWalk(db: Db, a: ListArgs, w: Where, wanted: ReturnType<typeof seqSet>): number[] | null {
  const cap = w.workspaceOnly ? SEARCH_WALK_INDEX_ROWS : SEARCH_WALK_ROWS;
  const walk = prepared<unknown[], number>(
    db,
    `SELECT c.seq FROM calls c WHERE ${w.sql} ORDER BY ${sortSql(a.sort)} LIMIT ?`,
  ).pluck();
  const page: number[] = [];
  let skip = a.offset;
  let walked = 0;
  for (const seq of walk.iterate(...w.params, cap)) {
    walked++;
    if (!wanted.has(seq)) continue;
    if (skip > 0) skip--;
    else if (page.push(seq) === a.limit) return page;
  }
  return walked < cap ? page : null;
}

/**
 * The filtered calls among `wanted`: their keys are walked (a covering index when there is one)
 * and checked against the bitset here; SQLite's own `IN` built a temporary b-tree of the matches
 * first (a 56,000-match word with a status filter: 43–54 ms against 14–28 ms).
 */
function countAmong(db: Db, w: Where, wanted: ReturnType<typeof seqSet>): number {
  let n = 0;
  for (const seq of prepared<unknown[], number>(db, `SELECT c.seq FROM calls c WHERE ${w.sql}`)
    .pluck()
    .all(...w.params))
    if (wanted.has(seq)) n++;
  return n;
}

/**
 * The filtered calls' seqs as a bitset, kept per connection until the database changes (`PRAGMA
 * data_version` says another connection committed, `total_changes()` that this one wrote): a
 * search with a status filter walked the ~86,000 completed or failed calls' keys to count its
 * matches among them for every search (~17 ms of a 37.5 ms p95); typing a search under a filter
 * now walks them once.
 */
const filteredCache = new WeakMap<Db, { key: string; version: string; seqs: ReturnType<typeof seqSet> }>();
function filteredSeqs(db: Db, w: Where): ReturnType<typeof seqSet> {
  const version = `${String(db.pragma('data_version', { simple: true }))}:${String(
    prepared<[], number>(db, `SELECT total_changes()`).pluck().get(),
  )}`;
  const key = `${w.sql}\n${JSON.stringify(w.params)}`;
  const hit = filteredCache.get(db);
  if (hit && hit.key === key && hit.version === version) return hit.seqs;
  const seqs = seqSet(
    prepared<unknown[], number>(db, `SELECT c.seq FROM calls c WHERE ${w.sql}`)
      .pluck()
      .all(...w.params),
  );
  filteredCache.set(db, { key, version, seqs });
  return seqs;
}

/**
 * Total and page keys. A search evaluates its FTS query once (a short prefix such as "the*" merges
 * many terms' lists: the slow part) and both the count and the page use those rowids.
 */
function listKeys(db: Db, a: ListArgs, w: Where): { total: number; seqs: number[] } {
  const byDate = (a.sort?.by ?? 'created_at') === 'created_at';
  const page = (from: { sql: string; params: unknown[] }) =>
    prepared<unknown[], number>(db, `SELECT c.seq ${from.sql} ORDER BY ${sortSql(a.sort)} LIMIT ? OFFSET ?`)
      .pluck()
      .all(...from.params, a.limit, a.offset);
  const count = (from: { sql: string; params: unknown[] }) =>
    prepared<unknown[], number>(db, `SELECT count(*) ${from.sql}`)
      .pluck()
      .get(...from.params) ?? 0;
  if (w.fts === null) {
    const from = fromClause(w);
    // "Not reviewed" counted as all minus reviewed: both walks skip the per-call membership test.
    const twins = unreviewedTwins(a.filter);
    const total = twins
      ? count(fromClause(whereOf(a.workspaceId, twins.all))) -
        count(fromClause(whereOf(a.workspaceId, twins.reviewed)))
      : count(from);
    return { total, seqs: page(from) };
  }
  const matches = prepared<[string], number>(db, `SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?`)
    .pluck()
    .all(w.fts);
  const exact = w.workspaceOnly && onlyWorkspace(db, a.workspaceId);
  if (matches.length <= FEW_MATCHES) {
    // Few: each match's row is looked up by its key (CROSS JOIN keeps the matches outside: left
    // to itself SQLite walks the filter's index past every call, ~13 ms for a word with no match
    // on 100,000 calls), then filtered and sorted.
    const byKey = {
      sql: `FROM json_each(?) j CROSS JOIN calls c ON c.seq = j.value WHERE ${w.sql}`,
      params: [JSON.stringify(matches), ...w.params],
    };
    return { total: exact ? matches.length : count(byKey), seqs: page(byKey) };
  }
  const wanted = seqSet(matches);
  if (!w.workspaceOnly && byDate) {
    // Another filter: the matches counted against its calls (filteredSeqs), and the page walked
    // on the workspace's date index (entries only), keeping calls in both.
    const filtered = filteredSeqs(db, w);
    let total = 0;
    for (const seq of matches) if (filtered.has(seq)) total++;
    const both = { has: (seq: number) => wanted.has(seq) && filtered.has(seq) };
    const walked = searchPageByWalk(db, a, whereOf(a.workspaceId, {}), both);
    if (walked) return { total, seqs: walked };
    return {
      total,
      seqs: page({
        sql: `FROM calls c WHERE +c.seq IN (SELECT value FROM json_each(?)) AND ${w.sql}`,
        params: [JSON.stringify(matches), ...w.params],
      }),
    };
  }
  const total = exact ? matches.length : countAmong(db, w, wanted);
  // A page from sorting the matches in SQL, when the walk would be long (a deep offset, another
  // order): `+` has the matches checked against a walk of a covering index, so a common word's
  // fat rows (raw JSON, transcript) are never read to sort them.
  const sorted = () =>
    page({
      sql: `FROM calls c WHERE ${byDate ? '+' : ''}c.seq IN (SELECT value FROM json_each(?)) AND ${w.sql}`,
      params: [JSON.stringify(matches), ...w.params],
    });
  return { total, seqs: (byDate ? searchPageByWalk(db, a, w, wanted) : null) ?? sorted() };
}

export function listCalls(db: Db, a: ListArgs): { total: number; offset: number; rows: CallSummary[] } {
  const w = whereOf(a.workspaceId, a.filter);
  // The window's keys first (the sorter holds only them), then its rows and snippets: never a
  // snippet or a recording state for every match.
  const { total, seqs } = listKeys(db, a, w);
  if (seqs.length === 0) return { total, offset: a.offset, rows: [] };
  const keys = JSON.stringify(seqs);
  const bySeq = new Map(
    prepared<[string], SummaryRow & { seq: number; transcript_text: string; number_text: string }>(
      db,
      `SELECT c.seq, ${summaryColumns}, c.transcript_text, c.number_text FROM calls c
       WHERE c.seq IN (SELECT value FROM json_each(?))`,
    )
      .all(keys)
      .map((r) => [r.seq, r]),
  );
  // Snippets of the window's rows only, from their indexed text (callSnippet.ts says why not FTS5's).
  const search = w.fts === null ? null : (a.filter.search ?? null);
  const rows = seqs.flatMap((seq) => {
    const r = bySeq.get(seq);
    if (!r) return [];
    const summary = toSummary(r);
    if (search !== null) summary.snippet = callSnippet([r.transcript_text, r.name, r.number_text], search);
    return [summary];
  });
  return { total, offset: a.offset, rows };
}

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
    `SELECT ${summaryColumns}, c.transcript_raw, c.raw, c.first_seen_at, c.updated_at,
       r.path AS rec_path, r.bytes AS rec_bytes, r.sha256 AS rec_sha256, r.expires_ms AS rec_expires_ms,
       r.attempts AS rec_attempts, r.error AS rec_error
     FROM calls c LEFT JOIN recordings r ON r.seq = c.seq WHERE c.id = ? AND (? IS NULL OR c.workspace_id = ?)`,
  ).get(a.callId, a.workspaceId ?? null, a.workspaceId ?? null);
  if (!row) return null;
  const raw = JSON.parse(row.raw) as CallRecord;
  return {
    ...row,
    call_type: raw.call_type ?? null,
    call_attempt_time: raw.call_attempt_time ?? null,
    from_numbers: raw.from_numbers ?? [],
    inbound_from: raw.inbound_from ?? null,
    credits_processed: raw.credits_processed ?? null,
  };
}

/** Rows of the export in the list's order. */
export interface ExportRow {
  id: string;
  bulk_list_id: string | null;
  to_number: string | null;
  name: string | null;
  status: string;
  sub_status: string | null;
  created_at: string;
  /** When the call was dialled (epoch ms), null when never. */
  attempt_ms: number | null;
  outcome: CallOutcome;
  call_duration: number | null;
  call_cost: number | null;
  agent_id: string | null;
  voicemail: number | null;
  recording: string;
  recording_path: string | null;
  /** The created_at sort key (keyset paging); not a CSV column. */
  created_ms: number;
}

const EXPORT_BATCH = 5000;

/**
 * The export in batches of `batch` rows, each its own read (other queries run between them, and a
 * sync may store calls meanwhile). Keyset pages: each batch starts after the previous one's last
 * row in the sort order (which ends in the unique call id), so a call stored, changed or leaving
 * the filter between batches never shifts the others: each call there for the whole export
 * appears once (an offset counted the newcomers again and skipped past rows that had left).
 */
function* exportRows(
  db: Db,
  a: { workspaceId: string | null; filter: CallFilter; sort?: CallSort; batch?: number },
): Iterator<ExportRow[], void> {
  const batch = a.batch ?? EXPORT_BATCH;
  const w = whereOf(a.workspaceId, a.filter);
  const from = fromClause(w);
  const keys = sortKeys(a.sort);
  const select = `SELECT c.id, c.bulk_list_id, c.to_number, c.name, c.status, c.sub_status, c.created_at,
      c.attempt_ms, ${CALL_OUTCOME} AS outcome, c.call_duration,
      c.call_cost, c.agent_id, c.voicemail, coalesce(r.state, 'none') AS recording, r.path AS recording_path,
      c.created_ms
    ${from.sql.replace('WHERE', 'LEFT JOIN recordings r ON r.seq = c.seq WHERE')}`;
  const order = `ORDER BY ${sortSql(a.sort)} LIMIT ?`;
  let last: ExportRow | undefined;
  for (;;) {
    const after = last === undefined ? null : afterKeys(keys, last);
    const rows = prepared<unknown[], ExportRow>(
      db,
      after === null ? `${select} ${order}` : `${select} AND ${after.sql} ${order}`,
    ).all(...from.params, ...(after?.params ?? []), batch);
    last = rows.at(-1);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}

// ---------------------------------------------------------------- facets, campaigns, stats

function facets(db: Db, a: { workspaceId: string }) {
  return {
    agents: prepared<[string], { id: string; name: string | null; calls: number }>(
      db,
      `SELECT agent_id AS id, max(agent_name) AS name, count(*) AS calls FROM calls
       WHERE workspace_id = ? AND agent_id IS NOT NULL GROUP BY agent_id ORDER BY calls DESC`,
    ).all(a.workspaceId),
    statuses: prepared<[string], { value: string; calls: number }>(
      db,
      `SELECT status AS value, count(*) AS calls FROM calls WHERE workspace_id = ? GROUP BY status ORDER BY calls DESC`,
    ).all(a.workspaceId),
    subStatuses: prepared<[string], { value: string; calls: number }>(
      db,
      `SELECT sub_status AS value, count(*) AS calls FROM calls WHERE workspace_id = ? AND sub_status IS NOT NULL
       GROUP BY sub_status ORDER BY calls DESC`,
    ).all(a.workspaceId),
  };
}

function campaigns(db: Db, a: { workspaceId: string }) {
  return prepared<
    [{ ws: string }],
    {
      bulkListId: string;
      workspaceId: string;
      listId: number | null;
      listName: string | null;
      campaignName: string | null;
      startedAt: string | null;
      calls: number;
      firstCallAt: string | null;
      lastCallAt: string | null;
    }
  >(
    db,
    // The operator's name for the campaign: the launch made here, else the service's listing (cached).
    `WITH ids AS (
       SELECT bulk_list_id FROM campaign_lists WHERE workspace_id = @ws
       UNION SELECT DISTINCT bulk_list_id FROM calls WHERE workspace_id = @ws AND bulk_list_id IS NOT NULL)
     SELECT ids.bulk_list_id AS bulkListId, @ws AS workspaceId, cl.list_id AS listId, l.name AS listName,
       coalesce(
         (SELECT la.name FROM campaign_launches la WHERE la.workspace_id = @ws
            AND (la.bulk_list_id = ids.bulk_list_id OR la.service_list_id = ids.bulk_list_id)
            ORDER BY la.created_at DESC LIMIT 1),
         (SELECT json_extract(j.value, '$.name') FROM campaign_cache cc, json_each(cc.body) j
            WHERE cc.workspace_id = @ws AND cc.kind = 'listing' AND json_valid(cc.body)
              AND (json_extract(j.value, '$.bulk_list_id') = ids.bulk_list_id OR json_extract(j.value, '$.id') = ids.bulk_list_id)
            LIMIT 1)) AS campaignName,
       coalesce(
         (SELECT la.created_at FROM campaign_launches la WHERE la.workspace_id = @ws
            AND (la.bulk_list_id = ids.bulk_list_id OR la.service_list_id = ids.bulk_list_id)
            ORDER BY la.created_at DESC LIMIT 1),
         (SELECT json_extract(j.value, '$.created_at') FROM campaign_cache cc, json_each(cc.body) j
            WHERE cc.workspace_id = @ws AND cc.kind = 'listing' AND json_valid(cc.body)
              AND (json_extract(j.value, '$.bulk_list_id') = ids.bulk_list_id OR json_extract(j.value, '$.id') = ids.bulk_list_id)
            LIMIT 1)) AS startedAt,
       (SELECT count(*) FROM calls c WHERE c.workspace_id = @ws AND c.bulk_list_id = ids.bulk_list_id) AS calls,
       (SELECT min(created_at) FROM calls c WHERE c.workspace_id = @ws AND c.bulk_list_id = ids.bulk_list_id) AS firstCallAt,
       (SELECT max(created_at) FROM calls c WHERE c.workspace_id = @ws AND c.bulk_list_id = ids.bulk_list_id) AS lastCallAt
     FROM ids LEFT JOIN campaign_lists cl ON cl.workspace_id = @ws AND cl.bulk_list_id = ids.bulk_list_id
       LEFT JOIN contact_lists l ON l.id = cl.list_id
     ORDER BY lastCallAt DESC NULLS LAST`,
  ).all({ ws: a.workspaceId });
}

/**
 * Chart data of the filtered calls, all aggregated in SQL: never-dialled calls count in the status
 * and outcome totals only (no time, duration or rate). One pass groups the dialled calls by
 * campaign timezone, quarter hour of their attempt and outcome; the time series and the weekday ×
 * hour heatmap (in each call's campaign timezone) are read from those groups.
 */
export function stats(db: Db, a: { workspaceId: string; filter: CallFilter; timeZone?: string }): CallStats {
  // All calls or one campaign's: from the aggregates (callAggregates.ts); other filters count calls.
  return aggregatedStats(db, a) ?? statsFromCalls(db, a);
}

/** `stats` counted from the calls themselves (any filter; the aggregates' reference in tests). */
export function statsFromCalls(
  db: Db,
  a: { workspaceId: string; filter: CallFilter; timeZone?: string },
): CallStats {
  const w = whereOf(a.workspaceId, a.filter);
  const from = fromClause(w);
  const all = <R>(sql: string, ...extra: unknown[]) =>
    prepared<unknown[], R>(db, sql).all(...extra, ...from.params);
  const answered = ANSWERED;
  const filtered = filteredCte(from);

  // One pass for the outcome, status and sub-status counts: grouped by what decides the outcome,
  // which the outcome table (the same one the SQL is made from) gives each group.
  const pairs = all<{ status: string; sub: string | null; vm: number | null; n: number; dialled: number }>(
    `SELECT c.status AS status, c.sub_status AS sub, c.voicemail AS vm, count(*) AS n, count(c.attempt_ms) AS dialled
     ${from.sql} GROUP BY c.status, c.sub_status, c.voicemail`,
  );
  const outcomeCount = new Map<CallOutcome, number>();
  const statusCount = new Map<string, number>();
  const subCount = new Map<string, number>();
  let total = 0;
  let dialled = 0;
  for (const p of pairs) {
    const o = outcomeOf(p.status, p.sub, p.vm === null ? null : p.vm === 1);
    outcomeCount.set(o, (outcomeCount.get(o) ?? 0) + p.n);
    statusCount.set(p.status, (statusCount.get(p.status) ?? 0) + p.n);
    const sub = p.sub ?? '(none)';
    subCount.set(sub, (subCount.get(sub) ?? 0) + p.n);
    total += p.n;
    dialled += p.dialled;
  }
  const byCount = <K extends string>(m: Map<string, number>, key: K) =>
    [...m.entries()]
      .sort((x, y) => y[1] - x[1])
      .map(([value, count]) => ({ [key]: value, count }) as Record<K, string> & { count: number });

  const totals = prepared<
    unknown[],
    {
      cost: number | null;
      avgCost: number | null;
      maxCost: number | null;
      talk: number | null;
      avgTalk: number | null;
      maxTalk: number | null;
      answered: number;
      completed: number;
      vm: number | null;
      numbers: number;
      dialledNumbers: number;
      answeredNumbers: number;
      completedNumbers: number;
    }
  >(
    db,
    `WITH ${filtered} SELECT sum(call_cost) AS cost, avg(call_cost) AS avgCost, max(call_cost) AS maxCost,
       sum(CASE WHEN ${answered} THEN call_duration END) AS talk,
       avg(CASE WHEN ${answered} THEN call_duration END) AS avgTalk,
       max(CASE WHEN ${answered} THEN call_duration END) AS maxTalk,
       coalesce(sum(${answered}), 0) AS answered, coalesce(sum(o = 'completed'), 0) AS completed,
       sum(voicemail) AS vm,
       count(DISTINCT to_number) AS numbers,
       count(DISTINCT CASE WHEN attempt_ms IS NOT NULL THEN to_number END) AS dialledNumbers,
       count(DISTINCT CASE WHEN attempt_ms IS NOT NULL AND ${answered} THEN to_number END) AS answeredNumbers,
       count(DISTINCT CASE WHEN attempt_ms IS NOT NULL AND o = 'completed' THEN to_number END) AS completedNumbers
     FROM f`,
  ).get(...from.params)!;

  const listRows =
    a.filter.bulkListId === undefined ? null : launchedListRows(db, a.workspaceId, a.filter.bulkListId);

  const { overTime, heatmap } = attemptGroupsFromCalls(db, a, from, filtered, answered);
  const width = binWidth(totals.maxTalk ?? 0);
  return {
    total,
    dialled,
    byStatus: byCount(statusCount, 'status'),
    bySubStatus: byCount(subCount, 'subStatus'),
    outcomes: CALL_OUTCOMES.filter((o) => (outcomeCount.get(o) ?? 0) > 0).map((o) => ({
      outcome: o,
      count: outcomeCount.get(o)!,
    })),
    funnel: {
      contacts: Math.max(listRows ?? 0, totals.numbers),
      dialled: totals.dialledNumbers,
      answered: totals.answeredNumbers,
      completed: totals.completedNumbers,
    },
    overTime,
    // The width is bound after the filter's parameters: its "?" comes after those of `f`.
    duration: prepared<unknown[], { bin: number; count: number }>(
      db,
      `WITH ${filtered} SELECT CAST(call_duration / ? AS INTEGER) AS bin, count(*) AS count FROM f
       WHERE attempt_ms IS NOT NULL AND ${answered} AND call_duration IS NOT NULL GROUP BY bin ORDER BY bin`,
    )
      .all(...from.params, width)
      .map((r) => ({ from: r.bin * width, to: (r.bin + 1) * width, count: r.count })),
    cost: {
      total: totals.cost ?? 0,
      average: totals.avgCost,
      max: totals.maxCost,
      perCompleted: totals.completed > 0 ? (totals.cost ?? 0) / totals.completed : null,
    },
    durationSeconds: { total: totals.talk ?? 0, average: totals.avgTalk, answered: totals.answered },
    voicemail: totals.vm ?? 0,
    heatmap,
  };
}

/** The stats' filter as the common table `f` (each call's outcome `o` computed once). */
const filteredCte = (from: { sql: string }) =>
  `f AS (SELECT c.to_number, c.bulk_list_id, c.attempt_ms, c.call_duration, c.call_cost,
      c.voicemail, ${CALL_OUTCOME} AS o ${from.sql})`;
const ANSWERED = `o IN ('completed', 'voicemail')`;

/**
 * Dialled calls grouped in SQL by (campaign timezone, quarter hour of the attempt): the time
 * series (UTC hours or days) and the weekday × hour heatmap, each group placed in its campaign's
 * timezone (a quarter hour lies in one local hour in every zone).
 */
export function attemptGroups(
  db: Db,
  a: { workspaceId: string; filter: CallFilter; timeZone?: string },
): Pick<CallStats, 'overTime' | 'heatmap'> {
  return aggregatedAttemptGroups(db, a) ?? attemptGroupsFromCalls(db, a);
}

/** `attemptGroups` counted from the calls themselves (any filter). */
export function attemptGroupsFromCalls(
  db: Db,
  a: { workspaceId: string; filter: CallFilter; timeZone?: string },
  from = fromClause(whereOf(a.workspaceId, a.filter)),
  filtered = filteredCte(from),
  answered = ANSWERED,
): Pick<CallStats, 'overTime' | 'heatmap'> {
  const groups = prepared<unknown[], AttemptGroup>(
    db,
    `WITH ${campaignZonesCte}, ${filtered}
     SELECT z.zone AS zone, f.attempt_ms / ${QUARTER_MS} AS q, count(*) AS n, sum(${answered}) AS answered,
       sum(o = 'completed') AS completed, coalesce(sum(call_cost), 0) AS cost
     FROM f LEFT JOIN zones z ON z.bulk_list_id = f.bulk_list_id
     WHERE f.attempt_ms IS NOT NULL GROUP BY z.zone, q`,
  )
    .raw()
    .all({ ws: a.workspaceId }, ...from.params) as unknown as AttemptGroup[];

  return placeAttemptGroups(groups, a.timeZone);
}

// ---------------------------------------------------------------- campaign results

/**
 * A row's outcome: "refused" when the service refused it at upload (contact_refusals), else its
 * latest call's (the outcome table), "not_called" without one.
 */
const OUTCOME_SQL = `(CASE WHEN lc.status IS NULL AND EXISTS (SELECT 1 FROM contact_refusals r
    WHERE r.list_id = @list AND r.row = rows.row AND r.bulk_list_id = @bulk) THEN 'refused'
  ELSE ${outcomeSql('lc.status', 'lc.sub_status', 'lc.voicemail')} END)`;

/** The list's uploaded rows (valid, not excluded) with their latest call in this campaign. */
const resultsCte = `WITH rows AS (
  SELECT k.row, k.cells, k.e164,
    (SELECT c.id FROM calls c WHERE c.bulk_list_id = @bulk AND c.workspace_id = @ws AND k.e164 IS NOT NULL
       AND c.to_number = '+' || k.e164 ORDER BY c.created_ms DESC, c.id DESC LIMIT 1) AS call_id,
    (SELECT count(*) FROM calls c WHERE c.bulk_list_id = @bulk AND c.workspace_id = @ws AND k.e164 IS NOT NULL
       AND c.to_number = '+' || k.e164) AS calls
  FROM contacts k WHERE k.list_id = @list AND k.bucket = 0 AND k.excluded = 0),
results AS (
  SELECT rows.row, rows.cells, rows.e164, rows.calls, lc.id AS call_id, lc.status, lc.sub_status,
    lc.created_at, lc.attempt_ms, lc.call_duration, ${OUTCOME_SQL} AS outcome
  FROM rows LEFT JOIN calls lc ON lc.id = rows.call_id)`;

function campaignList(db: Db, a: { workspaceId: string; bulkListId: string }) {
  return (
    prepared<[string, string], { listId: number; listName: string }>(
      db,
      `SELECT cl.list_id AS listId, l.name AS listName FROM campaign_lists cl JOIN contact_lists l ON l.id = cl.list_id
       WHERE cl.workspace_id = ? AND cl.bulk_list_id = ?`,
    ).get(a.workspaceId, a.bulkListId) ?? null
  );
}

function campaignResults(
  db: Db,
  a: { workspaceId: string; bulkListId: string; outcomes?: string[]; offset: number; limit: number },
) {
  const list = campaignList(db, a);
  if (!list) return null;
  const p = { bulk: a.bulkListId, ws: a.workspaceId, list: list.listId };
  const counts = Object.fromEntries(CAMPAIGN_OUTCOMES.map((o) => [o, 0])) as OutcomeCounts;
  for (const r of prepared<[typeof p], { outcome: keyof OutcomeCounts; n: number }>(
    db,
    `${resultsCte} SELECT outcome, count(*) AS n FROM results GROUP BY outcome`,
  ).all(p))
    counts[r.outcome] = r.n;
  const outcomes = a.outcomes?.length ? a.outcomes : [...CAMPAIGN_OUTCOMES];
  const pick = { ...p, outcomes: JSON.stringify(outcomes) };
  const where = `outcome IN (SELECT value FROM json_each(@outcomes))`;
  const total = outcomes.reduce((s, o) => s + (counts[o as keyof OutcomeCounts] ?? 0), 0);
  const rows = prepared<
    [typeof pick & { limit: number; offset: number }],
    {
      row: number;
      cells: string;
      e164: number | null;
      calls: number;
      call_id: string | null;
      status: string | null;
      sub_status: string | null;
      created_at: string | null;
      attempt_ms: number | null;
      call_duration: number | null;
      outcome: (typeof CAMPAIGN_OUTCOMES)[number];
    }
  >(db, `${resultsCte} SELECT * FROM results WHERE ${where} ORDER BY row LIMIT @limit OFFSET @offset`).all({
    ...pick,
    limit: a.limit,
    offset: a.offset,
  });
  return {
    ...list,
    counts,
    total,
    offset: a.offset,
    rows: rows.map((r) => ({
      row: r.row,
      cells: JSON.parse(r.cells) as string[],
      phone: r.e164 === null ? null : `+${r.e164}`,
      outcome: r.outcome,
      callId: r.call_id,
      status: r.status,
      subStatus: r.sub_status,
      calledAt: r.attempt_ms === null ? null : new Date(r.attempt_ms).toISOString(),
      queuedAt: r.created_at,
      callDuration: r.call_duration,
      calls: r.calls,
    })),
  };
}

/** Spreadsheet rows of the chosen outcomes (a follow-up list copies them). */
function outcomeRows(
  db: Db,
  a: { workspaceId: string; bulkListId: string; outcomes: string[] },
): number[] | null {
  const list = campaignList(db, a);
  if (!list) return null;
  return prepared<[object], number>(
    db,
    `${resultsCte} SELECT row FROM results WHERE outcome IN (SELECT value FROM json_each(@outcomes)) ORDER BY row`,
  )
    .pluck()
    .all({ bulk: a.bulkListId, ws: a.workspaceId, list: list.listId, outcomes: JSON.stringify(a.outcomes) });
}

/**
 * A follow-up contact list in one transaction: the launched list's settings (columns, mapping,
 * engine setup) and the rows of the chosen outcomes, keeping their spreadsheet row numbers and
 * cells; positions renumbered, numbers and counts rebuilt as after an import.
 */
function followUpList(
  db: Db,
  a: { workspaceId: string; bulkListId: string; outcomes: string[]; name: string; now: string },
): { list: StoredList; rows: number } | null {
  const source = campaignList(db, a);
  if (!source) return null;
  const rows = outcomeRows(db, a) ?? [];
  return writeTransaction(db, () => {
    const id = Number(
      prepared(
        db,
        `INSERT INTO contact_lists (name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
           detected, mapping, headers, setup, counts, report, created_at, updated_at)
         SELECT ?, file_name, file_bytes, 'ready', encoding, delimiter, phone_column, country, detected, mapping,
           headers, setup, counts, NULL, ?, ? FROM contact_lists WHERE id = ?`,
      ).run(a.name, a.now, a.now, source.listId).lastInsertRowid,
    );
    const columns = prepared<[], { name: string }>(db, `SELECT name FROM pragma_table_info('contacts')`)
      .all()
      .map((c) => c.name);
    const picked = columns.map((c) =>
      c === 'list_id' ? '@id' : c === 'pos' ? '(row_number() OVER (ORDER BY row)) - 1' : c,
    );
    prepared(
      db,
      `INSERT INTO contacts (${columns.join(', ')})
       SELECT ${picked.join(', ')} FROM contacts
       WHERE list_id = @source AND row IN (SELECT value FROM json_each(@rows)) ORDER BY row`,
    ).run({ id, source: source.listId, rows: JSON.stringify(rows) });
    markListPositions(db, id);
    rebuildNumbers(db, id);
    prepared(db, `UPDATE contact_lists SET counts = ? WHERE id = ?`).run(JSON.stringify(recount(db, id)), id);
    return { list: getList(db, id) as StoredList, rows: rows.length };
  });
}

/**
 * Campaigns (service ids) that were terminated: terminated from this computer, or with a call the
 * terminate cancelled before it was dialled (so a termination made elsewhere is seen too).
 */
const terminatedCampaigns = (db: Db, a: { workspaceId: string }): string[] =>
  prepared<[string, string], string>(
    db,
    `SELECT campaign_id FROM campaign_terminations WHERE workspace_id = ?
     UNION SELECT DISTINCT bulk_list_id FROM calls WHERE workspace_id = ? AND bulk_list_id IS NOT NULL
       AND status = 'cancelled' AND sub_status = 'USER_TERMINATED'`,
  )
    .pluck()
    .all(a.workspaceId, a.workspaceId);

const recordTermination = (db: Db, a: { workspaceId: string; campaignId: string; at: string }): void => {
  prepared(
    db,
    `INSERT INTO campaign_terminations (workspace_id, campaign_id, terminated_at) VALUES (?, ?, ?)
     ON CONFLICT DO UPDATE SET terminated_at = excluded.terminated_at`,
  ).run(a.workspaceId, a.campaignId, a.at);
};

/** A campaign launched from here with its calls' figures so far (the live counters). */
export interface LiveCampaignRow {
  bulkListId: string;
  name: string;
  launchedAt: string;
  /** Rows the launch sent (contacts). */
  contacts: number;
  calls: number;
  dialled: number;
  answered: number;
  completed: number;
  /** Calls not final yet (queued, waiting to retry, on a call). */
  open: number;
  credits: number;
  firstCreatedMs: number | null;
  firstAttemptMs: number | null;
  lastAttemptMs: number | null;
}

/** Launches of the workspace that started, newest first, with their stored calls' figures. */
const liveCampaigns = (db: Db, a: { workspaceId: string; limit: number }): LiveCampaignRow[] =>
  prepared<[{ ws: string; limit: number }], LiveCampaignRow>(
    db,
    `WITH launched AS (
       SELECT service_id, name, created_at,
         -- Its calls: the rows the service accepted, else the rows sent less those it refused or will drop.
         coalesce(arrived, valid - coalesce(service_invalid, predicted_refused, 0)) AS valid
       FROM campaign_launches
       WHERE workspace_id = @ws AND state = 'started' AND service_id IS NOT NULL
       ORDER BY created_at DESC LIMIT @limit)
     SELECT l.service_id AS bulkListId, l.name, l.created_at AS launchedAt, l.valid AS contacts,
       count(c.seq) AS calls, count(c.attempt_ms) AS dialled,
       coalesce(sum(${CALL_OUTCOME} IN ('completed', 'voicemail')), 0) AS answered,
       coalesce(sum(${CALL_OUTCOME} = 'completed'), 0) AS completed,
       coalesce(sum(c.terminal = 0), 0) AS open, coalesce(sum(c.call_cost), 0) AS credits,
       min(c.created_ms) AS firstCreatedMs, min(c.attempt_ms) AS firstAttemptMs, max(c.attempt_ms) AS lastAttemptMs
     FROM launched l LEFT JOIN calls c ON c.workspace_id = @ws AND c.bulk_list_id = l.service_id
     GROUP BY l.service_id ORDER BY l.created_at DESC`,
  ).all({ ws: a.workspaceId, limit: a.limit });

export const callsQueries = {
  'calls.liveCampaigns': read(liveCampaigns),
  'calls.terminatedCampaigns': read(terminatedCampaigns),
  'calls.recordTermination': query(recordTermination),
  'calls.upsert': query(upsertCalls),
  'calls.syncState': query((db, a: { workspaceId: string }) => ({
    ...readSync(db, a.workspaceId),
    calls: callCount(db, a.workspaceId),
    recordings: recordingCounts(db, a.workspaceId),
    quarantined: quarantineCount(db, a.workspaceId),
  })),
  'calls.saveSync': query(writeSync),
  'calls.openTimes': query(openCallTimes),
  'calls.campaignIds': query(campaignIds),
  'calls.list': read(listCalls),
  'calls.get': read(getCall),
  'calls.export': readStream(exportRows),
  'calls.facets': read(facets),
  'calls.campaigns': read(campaigns),
  'calls.stats': read(stats),
  'calls.campaignResults': read(campaignResults),
  'calls.outcomeRows': query(outcomeRows),
  'calls.followUpList': query(followUpList),
  'recordings.next': query(nextRecordings),
  'recordings.update': query(updateRecording),
  'recordings.expireOverdue': query(expireOverdue),
  'recordings.counts': query((db, a: { workspaceId: string | null }) => recordingCounts(db, a.workspaceId)),
  'recordings.retentionVictims': query(retentionVictims),
  'recordings.savedBytes': query(savedBytes),
};
