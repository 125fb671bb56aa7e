import { afterEach, describe, expect, it } from 'vitest';
import { callColumns } from '../../sync/callRow.ts';
import { openDatabase } from '../openDatabase.ts';
import { tempDirs } from '../testing.ts';
import { join } from 'node:path';
import { listCalls, upsertCalls } from './calls.ts';

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
});
