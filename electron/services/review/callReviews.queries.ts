// QA review marks (migration 0160): one row per workspace and call id, the flag reasons list, the
// review conditions of the calls filter, and the QA report's rows. Marks are keyed by the call id,
// never by the calls row, so a sync that rewrites or moves call rows leaves them alone.
import type { CallFilter } from '../../../shared/ipc/channels/calls.ts';
import type { ReviewMark, ReviewReason } from '../../../shared/ipc/channels/review.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { CallOutcome } from '../../../shared/domain/callOutcome.ts';
import { outcomeSql } from '../../../shared/domain/callOutcome.ts';
import type { Db } from '../db/define.ts';
import { prepared, query, read, readStream, writeTransaction } from '../db/define.ts';

// ---------------------------------------------------------------- filter conditions

/**
 * The filter's review conditions over `calls c`, as `c.seq [NOT] IN (…)`: the marks (few next to
 * the calls) are looked up once, each joined to its call by id (`CROSS JOIN` keeps the marks
 * outside), and the calls are then checked by rowid, which every index of `calls` carries, so a
 * walk of the campaign or date index never reads a call's row to learn its id. `drives`: the
 * conditions keep only marked calls, so the query is best driven from them (by rowid) rather than
 * by walking the workspace's index (whereOf then writes the workspace term so that SQLite does).
 */
export function reviewConditions(
  workspaceId: string | null,
  f: Pick<CallFilter, 'review' | 'flagReasons'>,
): { drives: boolean; parts: Array<{ sql: string; params: unknown[] }> } {
  // With a workspace, the outer `c.workspace_id = ?` already drops a call of another workspace
  // that a mark's id names, so the subquery reads only the id index (the call's seq), no rows.
  const marked = (where: string, params: unknown[], negate = false) => ({
    sql: `c.seq ${negate ? 'NOT IN' : 'IN'} (SELECT k.seq FROM call_reviews m CROSS JOIN calls k ON k.id = m.call_id
      WHERE ${workspaceId === null ? 'k.workspace_id = m.workspace_id' : 'm.workspace_id = ?'} AND ${where})`,
    params: workspaceId === null ? params : [workspaceId, ...params],
  });
  const parts: Array<{ sql: string; params: unknown[] }> = [];
  if (f.review === 'reviewed') parts.push(marked('m.reviewed_at IS NOT NULL', []));
  else if (f.review === 'unreviewed') parts.push(marked('m.reviewed_at IS NOT NULL', [], true));
  else if (f.review === 'flagged') parts.push(marked('m.flag_reason_id IS NOT NULL', []));
  if (f.flagReasons?.length)
    parts.push(
      marked('m.flag_reason_id IN (SELECT value FROM json_each(?))', [JSON.stringify(f.flagReasons)]),
    );
  return {
    drives: f.review === 'reviewed' || f.review === 'flagged' || Boolean(f.flagReasons?.length),
    parts,
  };
}

/**
 * A "not reviewed" filter as two filters whose counts subtract to its count: the same filter
 * without the review term, and with "reviewed" instead (driven from the marks). Counting them
 * walks the calls without checking each against the marks (100,000 calls, 2,000 marks: about a
 * fifth of the time). Null for any other filter.
 */
export function unreviewedTwins(f: CallFilter): { all: CallFilter; reviewed: CallFilter } | null {
  if (f.review !== 'unreviewed') return null;
  const { review: _review, ...all } = f;
  return { all, reviewed: { ...all, review: 'reviewed' } };
}

// ---------------------------------------------------------------- reasons

interface ReasonRow {
  id: number;
  label: string;
  removed: number;
  uses: number;
}

/** Every reason in list order (removed ones after the live ones), with how many marks use it. */
export function listReasons(db: Db): ReviewReason[] {
  return prepared<[], ReasonRow>(
    db,
    `SELECT r.id, r.label, r.removed_at IS NOT NULL AS removed,
       (SELECT count(*) FROM call_reviews m WHERE m.flag_reason_id = r.id) AS uses
     FROM review_reasons r ORDER BY r.removed_at IS NOT NULL, r.position, r.id`,
  )
    .all()
    .map((r) => ({ id: r.id, label: r.label, removed: r.removed === 1, uses: r.uses }));
}

const liveReason = (db: Db, id: number) =>
  prepared<[number], { id: number; label: string }>(
    db,
    `SELECT id, label FROM review_reasons WHERE id = ? AND removed_at IS NULL`,
  ).get(id);

function refuseDuplicate(db: Db, label: string, except: number | null): void {
  const other = prepared<[string, number], number>(
    db,
    `SELECT id FROM review_reasons WHERE label = ? COLLATE NOCASE AND removed_at IS NULL AND id <> ?`,
  )
    .pluck()
    .get(label, except ?? 0);
  if (other !== undefined)
    throw new DeskFailure('conflict', `A reason "${label}" is already on the list.`, 'label');
}

function addReason(db: Db, a: { label: string; now: string }): ReviewReason[] {
  writeTransaction(db, () => {
    refuseDuplicate(db, a.label, null);
    prepared(
      db,
      `INSERT INTO review_reasons (label, position, created_at)
       VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM review_reasons), ?)`,
    ).run(a.label, a.now);
  });
  return listReasons(db);
}

function renameReason(db: Db, a: { id: number; label: string }): ReviewReason[] {
  writeTransaction(db, () => {
    if (!liveReason(db, a.id)) throw new DeskFailure('not_found', 'No such reason on the list.', 'id');
    refuseDuplicate(db, a.label, a.id);
    prepared(db, `UPDATE review_reasons SET label = ? WHERE id = ?`).run(a.label, a.id);
  });
  return listReasons(db);
}

/** Off the list; the row stays, so marks flagged with it still read its label. */
function removeReason(db: Db, a: { id: number; now: string }): ReviewReason[] {
  if (
    prepared(db, `UPDATE review_reasons SET removed_at = ? WHERE id = ? AND removed_at IS NULL`).run(
      a.now,
      a.id,
    ).changes === 0
  )
    throw new DeskFailure('not_found', 'No such reason on the list.', 'id');
  return listReasons(db);
}

// ---------------------------------------------------------------- marks

interface MarkRow {
  workspace_id: string;
  call_id: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  flag_reason_id: number | null;
  flag_label: string | null;
  flag_removed: number | null;
  flagged_at: string | null;
  flagged_by: string | null;
  note: string | null;
  noted_at: string | null;
  noted_by: string | null;
  updated_at: string | null;
}

const toMark = (workspaceId: string, callId: string, r: MarkRow | undefined): ReviewMark => ({
  workspaceId,
  callId,
  reviewed: r?.reviewed_at != null,
  reviewedAt: r?.reviewed_at ?? null,
  reviewedBy: r?.reviewed_by ?? null,
  flag:
    r?.flag_reason_id != null
      ? { reasonId: r.flag_reason_id, label: r.flag_label ?? '', removed: r.flag_removed === 1 }
      : null,
  flaggedAt: r?.flagged_at ?? null,
  flaggedBy: r?.flagged_by ?? null,
  note: r?.note ?? null,
  notedAt: r?.noted_at ?? null,
  notedBy: r?.noted_by ?? null,
  updatedAt: r?.updated_at ?? null,
});

export function getMark(db: Db, a: { workspaceId: string; callId: string }): ReviewMark {
  const row = prepared<[string, string], MarkRow>(
    db,
    `SELECT m.*, r.label AS flag_label, r.removed_at IS NOT NULL AS flag_removed
     FROM call_reviews m LEFT JOIN review_reasons r ON r.id = m.flag_reason_id
     WHERE m.workspace_id = ? AND m.call_id = ?`,
  ).get(a.workspaceId, a.callId);
  return toMark(a.workspaceId, a.callId, row);
}

export interface SetMarkArgs {
  workspaceId: string;
  callId: string;
  /** Who (the reviewer's name) and when. */
  by: string;
  now: string;
  reviewed?: boolean;
  /** A live reason's id, or null to clear the flag. */
  flagReasonId?: number | null;
  /** Blank or null clears it. */
  note?: string | null;
}

/**
 * Applies the changes asked for in one transaction. Flagging marks the call reviewed too (a flag
 * is what a reviewer found); a part set again to what it holds keeps its who/when; a mark with
 * nothing left is deleted.
 */
export function setMark(db: Db, a: SetMarkArgs): ReviewMark {
  writeTransaction(db, () => {
    const before = prepared<[string, string], MarkRow>(
      db,
      `SELECT * FROM call_reviews WHERE workspace_id = ? AND call_id = ?`,
    ).get(a.workspaceId, a.callId);
    const m = {
      reviewed_at: before?.reviewed_at ?? null,
      reviewed_by: before?.reviewed_by ?? null,
      flag_reason_id: before?.flag_reason_id ?? null,
      flagged_at: before?.flagged_at ?? null,
      flagged_by: before?.flagged_by ?? null,
      note: before?.note ?? null,
      noted_at: before?.noted_at ?? null,
      noted_by: before?.noted_by ?? null,
    };
    if (a.flagReasonId !== undefined && a.flagReasonId !== m.flag_reason_id) {
      if (a.flagReasonId === null)
        Object.assign(m, { flag_reason_id: null, flagged_at: null, flagged_by: null });
      else {
        if (!liveReason(db, a.flagReasonId))
          throw new DeskFailure(
            'invalid_request',
            'That reason is not on the list (any more).',
            'flagReasonId',
          );
        Object.assign(m, { flag_reason_id: a.flagReasonId, flagged_at: a.now, flagged_by: a.by });
        if (m.reviewed_at === null && a.reviewed !== false)
          Object.assign(m, { reviewed_at: a.now, reviewed_by: a.by });
      }
    }
    if (a.reviewed === true && m.reviewed_at === null)
      Object.assign(m, { reviewed_at: a.now, reviewed_by: a.by });
    if (a.reviewed === false) Object.assign(m, { reviewed_at: null, reviewed_by: null });
    if (a.note !== undefined) {
      const note = a.note === null || a.note.trim() === '' ? null : a.note;
      if (note !== m.note)
        Object.assign(
          m,
          note === null
            ? { note, noted_at: null, noted_by: null }
            : { note, noted_at: a.now, noted_by: a.by },
        );
    }
    if (m.reviewed_at === null && m.flag_reason_id === null && m.note === null) {
      prepared(db, `DELETE FROM call_reviews WHERE workspace_id = ? AND call_id = ?`).run(
        a.workspaceId,
        a.callId,
      );
      return;
    }
    prepared(
      db,
      `INSERT INTO call_reviews (workspace_id, call_id, reviewed_at, reviewed_by, flag_reason_id, flagged_at, flagged_by,
         note, noted_at, noted_by, updated_at)
       VALUES (@ws, @call, @reviewed_at, @reviewed_by, @flag_reason_id, @flagged_at, @flagged_by, @note, @noted_at, @noted_by, @now)
       ON CONFLICT (workspace_id, call_id) DO UPDATE SET reviewed_at = excluded.reviewed_at,
         reviewed_by = excluded.reviewed_by, flag_reason_id = excluded.flag_reason_id, flagged_at = excluded.flagged_at,
         flagged_by = excluded.flagged_by, note = excluded.note, noted_at = excluded.noted_at, noted_by = excluded.noted_by,
         updated_at = excluded.updated_at`,
    ).run({ ws: a.workspaceId, call: a.callId, now: a.now, ...m });
  });
  return getMark(db, a);
}

// ---------------------------------------------------------------- QA report

/** One call of a campaign with its review, in the report's order (time of the attempt, then id). */
export interface QaReportRow {
  id: string;
  to_number: string | null;
  attempt_ms: number | null;
  created_ms: number;
  outcome: CallOutcome;
  reviewed_at: string | null;
  reviewed_by: string | null;
  flag_label: string | null;
  note: string | null;
}

const REPORT_BATCH = 5000;

/**
 * Every call of the campaign (dialled or not) with its mark, in batches by keyset on
 * (created_ms, id): each batch its own read, so a sync storing calls meanwhile never shifts pages.
 */
function* qaReportRows(
  db: Db,
  a: { workspaceId: string | null; bulkListId: string; batch?: number },
): Iterator<QaReportRow[], void> {
  const batch = a.batch ?? REPORT_BATCH;
  // With a workspace the campaign index (workspace, bulk list) finds the rows; the CLI's report of
  // every workspace reads the campaign's calls wherever they are.
  const scope = a.workspaceId === null ? 'c.bulk_list_id = ?' : 'c.workspace_id = ? AND c.bulk_list_id = ?';
  const scopeParams = a.workspaceId === null ? [a.bulkListId] : [a.workspaceId, a.bulkListId];
  const select = (after: boolean) =>
    prepared<unknown[], QaReportRow>(
      db,
      `SELECT c.id, c.to_number, c.attempt_ms, c.created_ms, ${outcomeSql('c.status', 'c.sub_status', 'c.voicemail')} AS outcome,
         m.reviewed_at, m.reviewed_by, r.label AS flag_label, m.note
       FROM calls c
       LEFT JOIN call_reviews m ON m.workspace_id = c.workspace_id AND m.call_id = c.id
       LEFT JOIN review_reasons r ON r.id = m.flag_reason_id
       WHERE ${scope}${after ? ' AND (c.created_ms > ? OR (c.created_ms = ? AND c.id > ?))' : ''}
       ORDER BY c.created_ms, c.id LIMIT ?`,
    );
  let last: QaReportRow | null = null;
  for (;;) {
    const rows: QaReportRow[] =
      last === null
        ? select(false).all(...scopeParams, batch)
        : select(true).all(...scopeParams, last.created_ms, last.created_ms, last.id, batch);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    last = rows[rows.length - 1]!;
  }
}

/** Calls stored for a campaign (the CLI refuses an id with none rather than write an empty report). */
const campaignCallCount = (db: Db, a: { workspaceId: string | null; bulkListId: string }): number =>
  prepared<[string, string | null, string | null], number>(
    db,
    `SELECT count(*) FROM calls WHERE bulk_list_id = ? AND (? IS NULL OR workspace_id = ?)`,
  )
    .pluck()
    .get(a.bulkListId, a.workspaceId, a.workspaceId) ?? 0;

export const callReviewQueries = {
  'reviews.campaignCalls': read(campaignCallCount),
  'reviews.get': read(getMark),
  'reviews.set': query(setMark),
  'reviews.reasons': read((db, _a: Record<string, never>) => listReasons(db)),
  'reviews.addReason': query(addReason),
  'reviews.renameReason': query(renameReason),
  'reviews.removeReason': query(removeReason),
  'reviews.report': readStream(qaReportRows),
};
