// Review marks at the query level on a real SQLite file: the mark's rules (flag implies reviewed,
// who/when kept until a part changes, an empty mark deleted), the filter conditions with and
// without a workspace (the CLI's), and the QA report's keyset pages over calls sharing a time.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallFilter } from '../../../shared/ipc/channels/calls.ts';
import { callColumns } from '../sync/callRow.ts';
import { openDatabase } from '../db/openDatabase.ts';
import { tempDirs } from '../db/testing.ts';
import { callReviewQueries, getMark, listReasons, setMark } from './callReviews.queries.ts';
import type { QaReportRow } from './callReviews.queries.ts';
import { whereOf } from '../calls/search/filter.ts';
import { listCalls } from '../calls/search/search.queries.ts';
import { upsertCalls } from '../calls/store/upsertCalls.ts';

const dirs = tempDirs();
let db: ReturnType<typeof openDatabase>;
let rows: (prefix: string, n: number) => ReturnType<typeof callColumns>[];
const AT = '2026-11-20T10:00:00.000Z';

beforeAll(() => {
  db = openDatabase(join(dirs.make(), 'r.sqlite'));
  // 30 calls of one campaign in w1, every three sharing one queued time; 5 of another in w2.
  rows = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) =>
      callColumns({
        id: `${prefix}${i}`,
        to_number: `+91900000${String(i).padStart(4, '0')}`,
        status: 'completed',
        created_at: new Date(Date.parse(AT) + Math.floor(i / 3) * 60_000).toISOString(),
        call_attempt_time: new Date(Date.parse(AT) + i * 1000).toISOString(),
      }),
    );
  upsertCalls(db, { workspaceId: 'w1', bulkListId: 'bl-1', rows: rows('c-', 30), nowIso: AT });
  upsertCalls(db, { workspaceId: 'w2', bulkListId: 'bl-2', rows: rows('d-', 5), nowIso: AT });
});
afterAll(() => {
  db.close();
  dirs.cleanup();
});

const ids = (workspaceId: string | null, f: CallFilter): string[] => {
  const w = whereOf(workspaceId, f);
  return db
    .prepare(`SELECT c.id FROM calls c WHERE ${w.sql} ORDER BY c.id`)
    .pluck()
    .all(...w.params) as string[];
};

describe('review marks (queries)', () => {
  it('keeps who and when per part, flags imply reviewed, and deletes a mark with nothing left', () => {
    const rude = listReasons(db).find((r) => r.label === 'Rude')!.id;
    const first = setMark(db, { workspaceId: 'w1', callId: 'c-1', by: 'A', now: 't1', flagReasonId: rude });
    expect(first).toMatchObject({ reviewed: true, reviewedBy: 'A', reviewedAt: 't1', flaggedAt: 't1' });
    // Reviewed again by someone else: the first review stands; the note gets its own who/when.
    const again = setMark(db, {
      workspaceId: 'w1',
      callId: 'c-1',
      by: 'B',
      now: 't2',
      reviewed: true,
      note: 'n',
    });
    expect(again).toMatchObject({
      reviewedBy: 'A',
      reviewedAt: 't1',
      notedBy: 'B',
      notedAt: 't2',
      updatedAt: 't2',
    });
    // The same call id in another workspace has its own mark.
    expect(getMark(db, { workspaceId: 'w2', callId: 'c-1' })).toMatchObject({
      reviewed: false,
      updatedAt: null,
    });
    const cleared = setMark(db, {
      workspaceId: 'w1',
      callId: 'c-1',
      by: 'B',
      now: 't3',
      reviewed: false,
      flagReasonId: null,
      note: null,
    });
    expect(cleared.updatedAt).toBeNull();
    expect(db.prepare(`SELECT count(*) FROM call_reviews`).pluck().get()).toBe(0);
  });

  it('filters reviewed / not reviewed / flagged / by reason, per workspace and across workspaces', () => {
    const reasons = listReasons(db);
    const rude = reasons.find((r) => r.label === 'Rude')!.id;
    const other = reasons.find((r) => r.label === 'Other')!.id;
    setMark(db, { workspaceId: 'w1', callId: 'c-2', by: 'A', now: 't', reviewed: true });
    setMark(db, { workspaceId: 'w1', callId: 'c-3', by: 'A', now: 't', flagReasonId: rude });
    setMark(db, { workspaceId: 'w1', callId: 'c-4', by: 'A', now: 't', note: 'only a note' });
    // A mark of w2 keyed by an id w1 also has: it must not count for w1's call.
    setMark(db, { workspaceId: 'w2', callId: 'c-5', by: 'A', now: 't', flagReasonId: other });
    setMark(db, { workspaceId: 'w2', callId: 'd-0', by: 'A', now: 't', flagReasonId: other });

    expect(ids('w1', { review: 'reviewed' })).toEqual(['c-2', 'c-3']);
    expect(ids('w1', { review: 'flagged' })).toEqual(['c-3']);
    expect(ids('w1', { review: 'unreviewed' })).toHaveLength(28);
    expect(ids('w1', { review: 'unreviewed' })).toContain('c-4');
    expect(ids('w1', { flagReasons: [other] })).toEqual([]);
    expect(ids('w2', { flagReasons: [other] })).toEqual(['d-0']);
    // No workspace (the CLI's export): each call against its own workspace's marks.
    expect(ids(null, { review: 'flagged' })).toEqual(['c-3', 'd-0']);
    expect(ids(null, { review: 'unreviewed' })).toHaveLength(35 - 3);
    expect(ids(null, { review: 'reviewed', flagReasons: [rude, other] })).toEqual(['c-3', 'd-0']);
    // The Calls table counts "not reviewed" as all minus reviewed: the same figures, even with a
    // w1 mark naming a call of w2 (it counts for neither).
    setMark(db, { workspaceId: 'w1', callId: 'd-1', by: 'A', now: 't', reviewed: true });
    const total = (workspaceId: string, filter: CallFilter) =>
      listCalls(db, { workspaceId, filter, offset: 0, limit: 50 }).total;
    expect(total('w1', { review: 'unreviewed' })).toBe(28);
    expect(total('w1', { review: 'unreviewed', bulkListId: 'bl-1' })).toBe(28);
    expect(total('w1', { review: 'unreviewed', flagReasons: [rude] })).toBe(0);
    expect(total('w2', { review: 'unreviewed' })).toBe(4);
    expect(
      listCalls(db, { workspaceId: 'w1', filter: { review: 'unreviewed' }, offset: 0, limit: 50 }).rows,
    ).toHaveLength(28);
    setMark(db, { workspaceId: 'w1', callId: 'd-1', by: 'A', now: 't', reviewed: false });
  });

  it('moves a mark with its call when another workspace syncs the call (the account added again)', () => {
    setMark(db, { workspaceId: 'w1', callId: 'c-29', by: 'A', now: 't', reviewed: true, note: 'kept' });
    const moved = rows('c-', 30).filter((r) => r.id === 'c-29');
    expect(upsertCalls(db, { workspaceId: 'w3', bulkListId: null, rows: moved, nowIso: AT }).updated).toBe(1);
    expect(getMark(db, { workspaceId: 'w3', callId: 'c-29' })).toMatchObject({
      reviewed: true,
      note: 'kept',
    });
    expect(getMark(db, { workspaceId: 'w1', callId: 'c-29' }).updatedAt).toBeNull();
    // Back where it was, for the report test below.
    upsertCalls(db, { workspaceId: 'w1', bulkListId: 'bl-1', rows: moved, nowIso: AT });
    expect(getMark(db, { workspaceId: 'w1', callId: 'c-29' }).note).toBe('kept');
  });

  it('pages the QA report by (queued time, id): every call once, in order, across batches that split a time', () => {
    const read = (batch: number) => {
      const it = callReviewQueries['reviews.report'].open(db, {
        workspaceId: 'w1',
        bulkListId: 'bl-1',
        batch,
      });
      const pages: QaReportRow[][] = [];
      for (let r = it.next(); !r.done; r = it.next()) pages.push(r.value);
      return pages;
    };
    const whole = read(1000).flat();
    expect(whole).toHaveLength(30);
    const sorted = [...whole].sort((a, b) => a.created_ms - b.created_ms || (a.id < b.id ? -1 : 1));
    expect(whole.map((r) => r.id)).toEqual(sorted.map((r) => r.id));
    const paged = read(7);
    expect(paged.map((p) => p.length)).toEqual([7, 7, 7, 7, 2]);
    expect(paged.flat().map((r) => r.id)).toEqual(whole.map((r) => r.id));
    expect(whole.find((r) => r.id === 'c-3')).toMatchObject({ flag_label: 'Rude', reviewed_by: 'A' });
    // The CLI's report (no workspace) of w2's campaign.
    const cli = callReviewQueries['reviews.report']
      .open(db, { workspaceId: null, bulkListId: 'bl-2' })
      .next();
    expect(cli.done ? [] : cli.value.map((r) => r.id)).toEqual(['d-0', 'd-1', 'd-2', 'd-3', 'd-4']);
  });
});
