import { afterEach, describe, expect, it } from 'vitest';
import { CALL_SORT_KEYS } from '../../../../shared/ipc/channels/calls.ts';
import { sortSql } from '../../calls/search/order.ts';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0180 calls sort indexes', () => {
  it('reads the first page of the Calls table in every order from an index, never sorting the calls', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 170);
    expect(migrate(db, migrations, 180)).toBe(180);
    const names = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'calls'`)
      .pluck()
      .all();
    expect(names).not.toContain('calls_ws_status');
    expect(names).not.toContain('calls_ws_attempt');
    for (const by of CALL_SORT_KEYS)
      for (const dir of ['asc', 'desc'] as const) {
        // The page query of calls/search/plan.ts for a list filtered by workspace only.
        const plan = db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT c.seq FROM calls c WHERE c.workspace_id = ?
             ORDER BY ${sortSql({ by, dir })} LIMIT ? OFFSET ?`,
          )
          .all('w1', 50, 0)
          .map((r) => (r as { detail: string }).detail)
          .join('; ');
        const index = by === 'created_at' ? 'calls_ws_created' : `calls_sort_\\w+_${dir}`;
        expect({ by, dir, plan }).toEqual({
          by,
          dir,
          plan: expect.stringMatching(
            new RegExp(`^SEARCH c USING COVERING INDEX ${index} \\(workspace_id=\\?\\)`),
          ),
        });
        // Newest first (0050's index) leaves only calls of the same millisecond to order by id.
        expect({ by, dir, plan }).toEqual({
          by,
          dir,
          plan: expect.not.stringMatching(by === 'created_at' ? /TEMP B-TREE FOR ORDER BY/ : /TEMP B-TREE/),
        });
      }
    db.close();
  });
});
