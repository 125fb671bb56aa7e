import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeOf } from '../../../../shared/domain/callOutcome.ts';
import { callStatuses, callSubStatuses } from '../../../../shared/service/enums.ts';
import { callColumns } from '../../sync/callRow.ts';
import { openDatabase } from '../../db/openDatabase.ts';
import { tempDirs } from '../../db/testing.ts';
import { upsertCalls } from '../store/upsertCalls.ts';
import { listCalls } from './search.queries.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

// The outcome table runs in SQL (outcomeSql) for lists, filters, results and charts: on a real
// SQLite file, every status × sub-status pair of the interface (and none; with and without the
// voicemail flag) must come out of SQL as the table says.
describe('outcome table in SQL (real SQLite)', () => {
  it('gives every status × sub-status pair the same outcome in SQL as the table, and filters by it', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    const pairs: Array<{ id: string; status: string; sub: string | null; vm: boolean | null }> = [];
    for (const status of callStatuses)
      for (const sub of [...callSubStatuses, null])
        for (const vm of [null, false, true]) pairs.push({ id: `${status}|${sub}|${vm}`, status, sub, vm });
    expect(pairs).toHaveLength(8 * 23 * 3);
    upsertCalls(db, {
      workspaceId: 'w1',
      bulkListId: null,
      nowIso: 'n',
      rows: pairs.map((p, i) =>
        callColumns({
          id: p.id,
          status: p.status,
          sub_status: p.sub,
          voicemail_detected: p.vm,
          created_at: new Date(Date.UTC(2026, 10, 20) + i * 1000).toISOString(),
        }),
      ),
    });
    const listed = listCalls(db, { workspaceId: 'w1', filter: {}, offset: 0, limit: pairs.length });
    expect(listed.total).toBe(pairs.length);
    const got = new Map(listed.rows.map((r) => [r.id, r.outcome]));
    for (const p of pairs) expect(got.get(p.id), p.id).toBe(outcomeOf(p.status, p.sub, p.vm));

    const terminated = listCalls(db, {
      workspaceId: 'w1',
      filter: { outcomes: ['not_called_terminated'] },
      offset: 0,
      limit: 500,
    });
    expect(terminated.total).toBe(
      pairs.filter((p) => outcomeOf(p.status, p.sub, p.vm) === 'not_called_terminated').length,
    );
    expect(terminated.rows.every((r) => r.outcome === 'not_called_terminated')).toBe(true);
    db.close();
  });
});
