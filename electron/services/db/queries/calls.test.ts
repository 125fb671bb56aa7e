import { afterEach, describe, expect, it } from 'vitest';
import { callColumns } from '../../sync/callRow.ts';
import { openDatabase } from '../openDatabase.ts';
import { tempDirs } from '../testing.ts';
import { join } from 'node:path';
import { listCalls, SEARCH_WALK_INDEX_ROWS, SEARCH_WALK_ROWS, seqSet, upsertCalls } from './calls.ts';

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
      const c = callColumns({
        id: `c${String(i).padStart(6, '0')}`,
        to_number: '+919812345678',
        name: 'Asha Rao',
        status: i % 4 === 0 ? 'failed' : 'completed',
        created_at: new Date(base + Math.floor(i / 2) * 60_000).toISOString(), // pairs share a time
        transcript: JSON.stringify([{ user: words }]),
      });
      return { c, words, failed: i % 4 === 0 };
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
