// The new calls' shares added up in JavaScript (newCallShares.ts) against the SQL fold's recount
// from the calls table, over every status × sub-status × voicemail flag the outcome table knows,
// strings it does not (an unknown status, a sub-status named like an object's property), calls
// dialled and not, with and without a number, duration and cost (fractions of a micro-credit at
// the rounding edge), numbers beyond ASCII and with a lone surrogate.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callStatuses, callSubStatuses } from '../../../shared/service/enums.ts';
import { upsertCalls } from '../calls/store/upsertCalls.ts';
import { callColumns } from '../sync/callRow.ts';
import { recountAggregates } from './callAggregates.ts';
import type { Db } from './define.ts';
import { openDatabase } from './openDatabase.ts';
import { tempDirs } from './testing.ts';

const dirs = tempDirs('desk-new-call-shares-');
afterEach(() => dirs.cleanup());

const TABLES = ['call_agg_pairs', 'call_agg_slots', 'call_agg_values', 'call_agg_numbers'];
const snapshot = (db: Db) =>
  Object.fromEntries(
    TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3, 4, 5`).raw().all()]),
  );

describe('new calls’ chart shares added up in JavaScript', () => {
  it('equal the SQL recount for every status, sub-status and voicemail flag, and for strings the table does not know', () => {
    const db = openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
    try {
      const statuses = [...callStatuses, 'SOMETHING_NEW', 'constructor'];
      const subs = [null, ...callSubStatuses, 'SOMETHING_NEW', 'toString', '__proto__'];
      const costs = [null, 0, 0.0000005, 0.0000015, 0.1234565, 2.5, 7];
      let i = 0;
      for (const bulkListId of [null, 'bl-1']) {
        const rows = [];
        for (const status of statuses)
          for (const sub of subs)
            for (const vm of [null, false, true]) {
              i++;
              rows.push(
                callColumns({
                  id: `c-${i}`,
                  status,
                  sub_status: sub,
                  created_at: '2026-11-20T10:00:00.000Z',
                  to_number:
                    i % 13 === 0
                      ? null
                      : i % 29 === 0
                        ? `+91\ud800${i % 3}`
                        : i % 31 === 0
                          ? `+91é ${i % 4}`
                          : `+9191000${String(i % 97).padStart(5, '0')}`,
                  call_attempt_time:
                    i % 4 === 0 ? null : new Date(Date.UTC(2026, 10, 20, i % 24, (i * 7) % 60)).toISOString(),
                  call_duration: i % 6 === 0 ? null : (i * 17) % 300,
                  call_cost: costs[i % costs.length]!,
                  voicemail_detected: vm,
                }),
              );
            }
        upsertCalls(db, { workspaceId: 'w1', bulkListId, rows, nowIso: '2026-12-01T00:00:00.000Z' });
      }
      const kept = snapshot(db);
      expect(kept.call_agg_pairs!.length).toBeGreaterThan(100);
      db.exec('SAVEPOINT recount');
      recountAggregates(db);
      const recounted = snapshot(db);
      db.exec('ROLLBACK TO recount');
      db.exec('RELEASE recount');
      expect(kept).toEqual(recounted);
      expect(db.prepare(`SELECT count(*) FROM call_agg_log`).pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
