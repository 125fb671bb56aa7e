import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { CallFilter } from '../../../../shared/ipc/channels/calls.ts';
import type { Db } from '../../db/define.ts';
import { openDatabase, openReader } from '../../db/openDatabase.ts';
import { tempDirs } from '../../db/testing.ts';
import { callColumns } from '../../sync/callRow.ts';
import { upsertCalls } from '../store/upsertCalls.ts';
import { fromClause, whereOf } from './filter.ts';
import { LAZY_MAX_TERMS, lazySearch } from './lazyQuery.ts';
import { sortSql } from './order.ts';
import { matchWalkCaps } from './matchWalk.ts';
import { listCalls } from './search.queries.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const base = Date.parse('2026-10-01T00:00:00.000Z');
const names = ['Asha Rao', 'Ravi Menon', 'Hema Iyer', 'Thomas Paul'];
/** Deterministic pseudo-random in [0, 1) (the calls' words and times). */
const rand = (i: number, salt: number) => (((i + 1) * 2654435761 + salt * 40503) % 2 ** 32) / 2 ** 32;

function callOf(i: number, prefix = 'c', said?: string) {
  const words =
    said ??
    [
      rand(i, 1) < 0.7 ? 'hello' : 'good morning',
      rand(i, 2) < 0.05 ? 'help' : '',
      rand(i, 3) < 0.01 ? 'helmet' : '',
      rand(i, 4) < 0.5 ? 'thank you' : 'that is the plan',
      rand(i, 5) < 0.02 ? 'héllo' : '',
      i % 2500 === 7 ? 'zephyr' : '',
    ].join(' ');
  const status = rand(i, 6) < 0.6 ? 'completed' : rand(i, 6) < 0.9 ? 'failed' : 'cancelled';
  return callColumns({
    id: `${prefix}${String(i).padStart(6, '0')}`,
    to_number: `+9198${String(10_000_000 + i * 7919).slice(0, 8)}`,
    name: names[i % names.length]!,
    status,
    // About 1.5 calls a minute, a few sharing a time (ties go by id).
    created_at: new Date(base + Math.floor(i * 40_000 + rand(i, 7) * 30_000)).toISOString(),
    transcript: JSON.stringify([{ user: words }]),
  });
}

/** Stored in windows of `size` calls in the order given, newest first within each (as a sync pages). */
function storeInWindows(db: Db, workspaceId: string, calls: ReturnType<typeof callOf>[], size: number) {
  for (let i = 0; i < calls.length; i += size)
    upsertCalls(db, {
      workspaceId,
      bulkListId: null,
      rows: calls.slice(i, i + size).sort((x, y) => y.created_ms - x.created_ms),
      nowIso: 'n',
    });
}

/** The list as the prefix query sorted in SQL says it: every match, filtered, ordered, counted. */
function reference(db: Db, workspaceId: string, filter: CallFilter, offset: number) {
  const from = fromClause(whereOf(workspaceId, filter));
  const ids = db
    .prepare(`SELECT c.id ${from.sql} ORDER BY ${sortSql(undefined)} LIMIT 50 OFFSET ?`)
    .pluck()
    .all(...from.params, offset) as string[];
  const total = db
    .prepare(`SELECT count(*) ${from.sql}`)
    .pluck()
    .get(...from.params) as number;
  return { total, ids };
}

const searches = ['hello', 'HEL', 'he', 'help', 'helm', 'thank', 'th', 't'];
const others = ['héllo', '98', 'hello th', 'zephyr', 'nomatch'];
const filters: CallFilter[] = [{}, { statuses: ['completed', 'failed'] }, { statuses: ['cancelled'] }];

function expectSameAsSorted(db: Db, workspaceId: string) {
  let compared = 0;
  for (const search of [...searches, ...others])
    for (const f of filters)
      for (const offset of [0, 1000]) {
        const filter = { ...f, search };
        const want = reference(db, workspaceId, filter, offset);
        const got = listCalls(db, { workspaceId, filter, offset, limit: 50 });
        expect({ search, f, offset, total: got.total, ids: got.rows.map((r) => r.id) }).toEqual({
          search,
          f,
          offset,
          total: want.total,
          ids: want.ids,
        });
        compared++;
      }
  return compared;
}

describe('a search read lazily (its prefix named as the index terms it stands for)', () => {
  it('gives the same rows, in the same order, with the same totals as the prefix query sorted in SQL: thousands of matches, filters, offsets, two workspaces, calls stored out of time order', () => {
    const file = join(dirs.make(), 'c.sqlite');
    const db = openDatabase(file);
    const n = 4000;
    const calls = Array.from({ length: n }, (_, i) => callOf(i));
    // Oldest window first (the newest calls get the highest seqs), then a few old calls stored
    // last (high seqs, old times).
    storeInWindows(db, 'w1', calls.slice(200), 500);
    storeInWindows(db, 'w1', calls.slice(0, 200), 100);
    const reader = openReader(file); // query_only, as the read lane
    // More matches than a page, than the few looked up by key, and than the walk's first chunk.
    expect(reference(db, 'w1', { search: 'hello' }, 0).total).toBeGreaterThan(2500);
    expect(reference(db, 'w1', { search: 'help' }, 0).total).toBeGreaterThan(50);
    expect(expectSameAsSorted(reader, 'w1')).toBe(78);

    // Another workspace's calls match too (its totals are its own), and some calls' words change
    // (the index drops their old terms).
    storeInWindows(
      db,
      'w2',
      Array.from({ length: 1500 }, (_, i) => callOf(i, 'x')),
      500,
    );
    const changed = Array.from({ length: 400 }, (_, i) => callOf(2000 + i, 'c', 'hello helpdesk'));
    upsertCalls(db, { workspaceId: 'w1', bulkListId: null, rows: changed, nowIso: 'n2' });
    expectSameAsSorted(reader, 'w1');
    expectSameAsSorted(reader, 'w2');
    reader.close();
    db.close();
  }, 120_000); // a few hundred pages compared; slow on a busy machine

  it('gives the same pages when the newest calls were stored first (the lowest seqs)', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    const calls = Array.from({ length: 4000 }, (_, i) => callOf(i)).reverse();
    storeInWindows(db, 'w1', calls, 400);
    expectSameAsSorted(db, 'w1');
    db.close();
  });

  it('gives the same pages and totals when the walk by date gives up (its caps lowered) and the matches are listed', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    storeInWindows(
      db,
      'w1',
      Array.from({ length: 4000 }, (_, i) => callOf(i)),
      500,
    );
    const caps = { ...matchWalkCaps };
    try {
      Object.assign(matchWalkCaps, { rows: 300, matches: 1024 });
      expectSameAsSorted(db, 'w1');
    } finally {
      Object.assign(matchWalkCaps, caps);
    }
    db.close();
  });

  it('names the terms of an ASCII prefix, keeps other prefixes as they are, and counts a one-term word from the index', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    storeInWindows(
      db,
      'w1',
      Array.from({ length: 3000 }, (_, i) => callOf(i)),
      1000,
    );
    const hello = lazySearch(db, 'Hello', '"Hello"*');
    const count = (fts: string) =>
      db.prepare(`SELECT count(*) FROM calls_fts WHERE calls_fts MATCH ?`).pluck().get(fts) as number;
    expect(hello.fts).toBe('"hello"');
    expect(hello.docs).toBe(count('"Hello"*'));
    const hel = lazySearch(db, 'hel', '"hel"*');
    expect(hel.fts).toBe('("hello" OR "helmet" OR "help")');
    expect([hel.docs, hel.atLeast]).toEqual([null, count('"hello"')]);
    expect(lazySearch(db, 'good hel', '"good" "hel"*')).toEqual({
      fts: '"good" AND ("hello" OR "helmet" OR "help")',
      lazy: true,
      none: false,
      docs: null,
      atLeast: null,
    });
    expect(lazySearch(db, 'qqq', '"qqq"*')).toEqual({
      fts: '"qqq"*',
      lazy: true,
      none: true,
      docs: 0,
      atLeast: 0,
    });
    // Not ASCII: as typed (the tokenizer folds it; its terms are not known here).
    expect(lazySearch(db, 'héllo', '"héllo"*')).toEqual({
      fts: '"héllo"*',
      lazy: false,
      none: false,
      docs: null,
      atLeast: null,
    });
    // A prefix of more terms than LAZY_MAX_TERMS (phone numbers) stays a prefix.
    expect(count('"9198"*')).toBeGreaterThan(LAZY_MAX_TERMS);
    expect(lazySearch(db, '9198', '"9198"*').lazy).toBe(false);
    db.close();
  });
});
