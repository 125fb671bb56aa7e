import { afterEach, describe, expect, it } from 'vitest';
import { callColumns } from '../sync/callRow.ts';
import { openDatabase } from '../db/openDatabase.ts';
import { tempDirs } from '../db/testing.ts';
import { join } from 'node:path';
import type { CallFilter, CallSort } from '../../../shared/ipc/channels/calls.ts';
import type { ExportRow } from './search/search.queries.ts';
import { callsQueries } from './calls.queries.ts';
import { seqSet } from './search/bitset.ts';
import { SEARCH_WALK_INDEX_ROWS, SEARCH_WALK_ROWS } from './search/plan.ts';
import { listCalls } from './search/search.queries.ts';
import { upsertCalls } from './store/upsertCalls.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const call = (id: string, minute: number, words: string, status = 'completed') =>
  callColumns({
    id,
    to_number: '+919812345678',
    name: 'Asha Rao',
    status,
    created_at: `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`,
    transcript: JSON.stringify([{ user: words }]),
  });

describe('calls list with a search', () => {
  it('counts and pages the matches exactly, newest first, with one workspace and with several', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    const store = (workspaceId: string, rows: ReturnType<typeof call>[]) =>
      upsertCalls(db, { workspaceId, bulkListId: null, rows, nowIso: 'n' });
    store('w1', [
      call('a', 1, 'the loan offer'),
      call('b', 3, 'loan repaid', 'failed'),
      call('c', 2, 'wrong number'),
      call('d', 4, 'loans later'),
    ]);
    const list = (workspaceId: string, filter: Parameters<typeof listCalls>[1]['filter']) =>
      listCalls(db, { workspaceId, filter, offset: 0, limit: 2 });

    const one = list('w1', { search: 'loan' });
    expect(one.total).toBe(3);
    expect(one.rows.map((r) => r.id)).toEqual(['d', 'b']);
    expect(list('w1', { search: 'loan', statuses: ['completed'] }).total).toBe(2);

    // Another workspace's calls match too: the count is still the workspace's own.
    store('w2', [call('e', 5, 'loan'), call('f', 6, 'loan')]);
    const again = list('w1', { search: 'loan' });
    expect(again.total).toBe(3);
    expect(again.rows.map((r) => r.id)).toEqual(['d', 'b']);
    expect(list('w2', { search: 'loan' }).total).toBe(2);
    expect(list('w0', { search: 'loan' }).total).toBe(0);
    db.close();
  });

  it('gives the same pages from the date-index walk as from sorting the matches: common and rare words, offsets, a status filter, another order', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    // More calls than the walk's caps: a rare word among the oldest calls (and a deep offset of a
    // common one) is past them, so those pages come from sorting the matches in SQL.
    const n = SEARCH_WALK_INDEX_ROWS + 2_000;
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    const all = Array.from({ length: n }, (_, i) => {
      const words = i < 3 ? 'rare zephyr' : i % 3 === 0 ? 'common offer' : 'common hello';
      const input = {
        id: `c${String(i).padStart(6, '0')}`,
        to_number: '+919812345678',
        name: 'Asha Rao',
        status: i % 4 === 0 ? 'failed' : 'completed',
        created_at: new Date(base + Math.floor(i / 2) * 60_000).toISOString(), // pairs share a time
        transcript: JSON.stringify([{ user: words }]),
      };
      return { c: callColumns(input), input, words, failed: i % 4 === 0 };
    });
    for (let i = 0; i < n; i += 5000)
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: all.slice(i, i + 5000).map((x) => x.c),
        nowIso: 'n',
      });
    // Newest first, ties by id descending (the table's order).
    const newest = [...all].sort((x, y) => y.c.created_ms - x.c.created_ms || (y.c.id < x.c.id ? -1 : 1));
    const expectPage = (search: string, offset: number, failedOnly: boolean) => {
      const matching = newest.filter((x) => x.words.includes(search) && (!failedOnly || x.failed));
      const got = listCalls(db, {
        workspaceId: 'w1',
        filter: { search, ...(failedOnly ? { statuses: ['failed'] } : {}) },
        offset,
        limit: 50,
      });
      expect(got.total).toBe(matching.length);
      expect(got.rows.map((r) => r.id)).toEqual(matching.slice(offset, offset + 50).map((x) => x.c.id));
    };
    expectPage('common', 0, false); // walk
    expectPage('offer', 120, false); // walk, with an offset
    expectPage('offer', Math.floor(n / 3) - 60, false); // deep: sorted in SQL
    expectPage('zephyr', 0, false); // rare and old: sorted in SQL
    expectPage('offer', 0, true); // status filter: rows walked
    expectPage('zephyr', 0, true); // past SEARCH_WALK_ROWS: sorted in SQL
    expect(n).toBeGreaterThan(SEARCH_WALK_ROWS);
    // The newest failed calls become completed: the next search under the same filter sees it (the
    // filter's calls are kept only while the database is unchanged).
    const changed = newest.filter((x) => x.failed).slice(0, 40);
    for (const x of changed) {
      x.failed = false;
      x.c = callColumns({ ...x.input, status: 'completed' });
    }
    upsertCalls(db, { workspaceId: 'w1', bulkListId: null, rows: changed.map((x) => x.c), nowIso: 'n2' });
    expectPage('offer', 0, true);
    expectPage('common', 0, true);
    // Another order, for a few matches (looked up by key) and for many (sorted in SQL): status,
    // then newest first, then id ascending.
    for (const [search, offset] of [
      ['zephyr', 0],
      ['offer', 0],
      ['offer', 3000],
    ] as const) {
      const matching = all
        .filter((x) => x.words.includes(search))
        .sort(
          (x, y) =>
            (x.c.status < y.c.status ? -1 : x.c.status > y.c.status ? 1 : 0) ||
            y.c.created_ms - x.c.created_ms ||
            (x.c.id < y.c.id ? -1 : 1),
        );
      const got = listCalls(db, {
        workspaceId: 'w1',
        filter: { search },
        sort: { by: 'status', dir: 'asc' },
        offset,
        limit: 50,
      });
      expect(got.total).toBe(matching.length);
      expect(got.rows.map((r) => r.id)).toEqual(matching.slice(offset, offset + 50).map((x) => x.c.id));
    }
    db.close();
  });
});

describe('seqSet (search matches as a bitset)', () => {
  it('holds exactly the given seqs, across word boundaries, unordered, and past 2^31', () => {
    const seqs = [1, 31, 32, 33, 63, 64, 1000, 99_999, 7];
    const set = seqSet(seqs);
    for (let s = -1; s <= 100_100; s++) expect(set.has(s)).toBe(seqs.includes(s));
    expect(seqSet([]).has(0)).toBe(false);
    const big = seqSet([5, 2 ** 31 + 3]);
    expect([big.has(5), big.has(2 ** 31 + 3), big.has(3)]).toEqual([true, true, false]);
  });
});

describe('calls.upsert', () => {
  const ftsIntact = (db: ReturnType<typeof openDatabase>) =>
    db.exec(`INSERT INTO calls_fts (calls_fts, rank) VALUES ('integrity-check', 1)`);
  const ids = (db: ReturnType<typeof openDatabase>, workspaceId: string, search: string) =>
    listCalls(db, { workspaceId, filter: { search }, offset: 0, limit: 10 }).rows.map((r) => r.id);

  it('stores the last occurrence of an id repeated in one batch (new or already stored), indexed once, counted once', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    // Two pages joined into one batch both carry call x: first ongoing, then completed.
    const first = upsertCalls(db, {
      workspaceId: 'w1',
      bulkListId: null,
      rows: [
        call('x', 1, 'hello loan zebra', 'ongoing'),
        call('y', 2, 'other words'),
        call('x', 1, 'hello loan offer'),
      ],
      nowIso: 'n',
    });
    expect(first).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    const stored = listCalls(db, { workspaceId: 'w1', filter: {}, offset: 0, limit: 10 }).rows;
    expect(stored.map((r) => [r.id, r.status])).toEqual([
      ['y', 'completed'],
      ['x', 'completed'],
    ]);
    expect(ids(db, 'w1', 'offer')).toEqual(['x']);
    expect(ids(db, 'w1', 'zebra')).toEqual([]);
    expect(ids(db, 'w1', 'loan')).toEqual(['x']);
    ftsIntact(db);

    // Already stored, then changed twice within one batch: one update, the last text indexed.
    const second = upsertCalls(db, {
      workspaceId: 'w1',
      bulkListId: null,
      rows: [call('y', 2, 'callback tomorrow', 'ongoing'), call('y', 2, 'callback friday')],
      nowIso: 'n',
    });
    expect(second).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    expect(ids(db, 'w1', 'friday')).toEqual(['y']);
    expect(ids(db, 'w1', 'tomorrow')).toEqual([]);
    expect(ids(db, 'w1', 'other')).toEqual([]);
    ftsIntact(db);
    // The same batch again: nothing changes.
    expect(
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: [call('y', 2, 'callback tomorrow', 'ongoing'), call('y', 2, 'callback friday')],
        nowIso: 'n',
      }),
    ).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    db.close();
  });

  it('moves a call stored under another workspace (and its recording) to the workspace that synced it', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    const withRecording = (c: ReturnType<typeof call>) => ({
      ...c,
      recordingUrl: `https://rec.example/${c.id}.wav`,
      recordingExpiresMs: Date.parse('2026-11-21T10:00:00.000Z'),
    });
    const rows = [withRecording(call('a', 1, 'loan offer')), call('b', 2, 'wrong number')];
    expect(upsertCalls(db, { workspaceId: 'wsA', bulkListId: 'bl-1', rows, nowIso: 'n' })).toEqual({
      inserted: 2,
      updated: 0,
      unchanged: 0,
    });
    // The workspace is removed and the same account added again (a new workspace id): its sync
    // brings the same calls, one of them changed since.
    const again = [rows[0]!, call('b', 2, 'wrong number', 'failed')];
    expect(upsertCalls(db, { workspaceId: 'wsB', bulkListId: null, rows: again, nowIso: 'n' })).toEqual({
      inserted: 0,
      updated: 2,
      unchanged: 0,
    });
    const state = (workspaceId: string) => callsQueries['calls.syncState'].run(db, { workspaceId });
    const list = (workspaceId: string) => listCalls(db, { workspaceId, filter: {}, offset: 0, limit: 10 });
    expect(list('wsB').total).toBe(2);
    expect(list('wsB').rows.map((r) => [r.id, r.status, r.workspaceId, r.bulkListId])).toEqual([
      ['b', 'failed', 'wsB', 'bl-1'],
      ['a', 'completed', 'wsB', 'bl-1'],
    ]);
    expect(list('wsA').total).toBe(0);
    expect(state('wsB')).toMatchObject({ calls: 2, recordings: { pending: 1, none: 1 } });
    expect(state('wsA')).toMatchObject({ calls: 0, recordings: { pending: 0, none: 0 } });
    expect(ids(db, 'wsB', 'loan')).toEqual(['a']);
    expect(ids(db, 'wsA', 'loan')).toEqual([]);
    const next = callsQueries['recordings.next'].run(db, {
      workspaceId: 'wsB',
      limit: 10,
      nowMs: 0,
      skip: [],
    });
    expect(next.map((j) => [j.callId, j.workspaceId])).toEqual([['a', 'wsB']]);
    // A lookup by id within a workspace finds the call in its new one only.
    const get = callsQueries['calls.get'].run;
    expect(get(db, { callId: 'a', workspaceId: 'wsA' })).toBeNull();
    expect(get(db, { callId: 'a', workspaceId: 'wsB' })).toMatchObject({ id: 'a', workspace_id: 'wsB' });
    expect(get(db, { callId: 'a' })).toMatchObject({ id: 'a' });
    // Synced again by B: unchanged.
    expect(upsertCalls(db, { workspaceId: 'wsB', bulkListId: null, rows: again, nowIso: 'n' })).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 2,
    });
    ftsIntact(db);
    db.close();
  });
});

describe('calls.export (keyset batches)', () => {
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  const stored = (i: number, o: { status?: string; duration?: number | null; name?: string | null } = {}) =>
    callColumns({
      id: `c${String(i).padStart(3, '0')}`,
      to_number: '+919812345678',
      name: o.name === undefined ? 'Asha' : o.name,
      status: o.status ?? 'completed',
      created_at: new Date(base + Math.floor(i / 3) * 60_000).toISOString(), // threes share a time
      call_duration: o.duration === undefined ? i % 7 : o.duration,
      call_cost: i % 5 === 0 ? null : (i % 3) * 0.25,
      transcript: JSON.stringify([{ user: 'hello' }]),
    } as Parameters<typeof callColumns>[0]);
  const exportAll = (
    db: ReturnType<typeof openDatabase>,
    a: { filter: CallFilter; sort?: CallSort; batch: number },
    between?: (batch: number) => void,
  ): string[] => {
    const it = callsQueries['calls.export'].open(db, { workspaceId: 'w1', ...a });
    const out: string[] = [];
    for (let n = 0, r = it.next(); !r.done; r = it.next(), n++) {
      const rows: ExportRow[] = r.value;
      expect(rows.length).toBeLessThanOrEqual(a.batch);
      out.push(...rows.map((x) => x.id));
      expect(n).toBeLessThan(100); // never endless
      between?.(n);
    }
    return out;
  };

  it('exports every call there from the start once while a sync stores newer calls and calls leave the filter between batches', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    const first = Array.from({ length: 20 }, (_, i) => stored(i, { status: 'ongoing' }));
    upsertCalls(db, { workspaceId: 'w1', bulkListId: null, rows: first, nowIso: 'n' });
    const before = first.map((c) => c.id);
    let next = 100;
    const sync = () =>
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: Array.from({ length: 4 }, () => stored(next++, { status: 'ongoing' })),
        nowIso: 'n',
      });
    // Newest first (the default): newer calls land ahead of the cursor (an offset counted them and
    // gave rows of the batch before again).
    const newest = exportAll(db, { filter: {}, batch: 3 }, (n) => {
      if (n < 3) sync();
    });
    expect(newest).toHaveLength(20);
    expect([...newest].sort()).toEqual([...before].sort());
    // Oldest first: newcomers of the first batches come after the cursor and are exported too, once.
    const atStart = listCalls(db, { workspaceId: 'w1', filter: {}, offset: 0, limit: 1000 }).rows.map(
      (r) => r.id,
    );
    const oldest = exportAll(db, { filter: {}, sort: { by: 'created_at', dir: 'asc' }, batch: 3 }, (n) => {
      if (n < 3) sync();
    });
    expect(new Set(oldest).size).toBe(oldest.length);
    expect(oldest.slice(0, atStart.length)).toEqual([...atStart].reverse());
    expect(oldest).toHaveLength(atStart.length + 12);

    // Calls of the first batch complete (leave an 'ongoing' filter) between batches: none of the
    // calls that stay ongoing is skipped.
    const ongoing = listCalls(db, {
      workspaceId: 'w1',
      filter: { statuses: ['ongoing'] },
      offset: 0,
      limit: 1000,
    });
    const seen = exportAll(db, { filter: { statuses: ['ongoing'] }, batch: 5 }, (n) => {
      if (n > 0) return;
      const done = ongoing.rows.slice(0, 5).map((r) => r.id);
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: done.map((id) => stored(Number(id.slice(1)), { status: 'completed' })),
        nowIso: 'n',
      });
    });
    expect(seen).toEqual(ongoing.rows.map((r) => r.id));
    db.close();
  });

  it('gives the list order for every sort (ties, nulls, names differing in case) in batches of any size', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    const rows = Array.from({ length: 30 }, (_, i) =>
      stored(i, {
        status: ['completed', 'failed', 'ongoing'][i % 3]!,
        duration: i % 4 === 0 ? null : i % 5,
        name: i % 6 === 0 ? null : ['asha', 'Asha', 'Bala', 'bala', 'Chitra'][i % 5]!,
      }),
    );
    upsertCalls(db, { workspaceId: 'w1', bulkListId: null, rows, nowIso: 'n' });
    for (const by of ['created_at', 'call_duration', 'call_cost', 'name', 'status'] as const)
      for (const dir of ['asc', 'desc'] as const) {
        const sort = { by, dir };
        const listed = listCalls(db, { workspaceId: 'w1', filter: {}, sort, offset: 0, limit: 100 }).rows.map(
          (r) => r.id,
        );
        expect(listed).toHaveLength(30);
        for (const batch of [1, 4, 30, 31])
          expect(exportAll(db, { filter: {}, sort, batch })).toEqual(listed);
      }
    db.close();
  });
});
