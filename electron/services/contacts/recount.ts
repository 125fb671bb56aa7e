import type { Db } from '../db/define.ts';
import { prepared } from '../db/define.ts';
import { ISSUE_BITS } from '../db/migrations/0130-contacts-formula-bidi-codes.ts';
import { rowCount } from './positionMarks.ts';
import { emptyCounts } from './rowState.ts';
import type { StoredCounts } from './rowState.ts';

/** Counts from the rows themselves (after an import or a bulk action), from the indexes. */
export function recount(db: Db, listId: number): StoredCounts {
  const counts = emptyCounts();
  const count = (sql: string): number => prepared<[number], { n: number }>(db, sql).get(listId)!.n;
  const rows = rowCount(db, listId);
  counts.byBucket[1][0] = count(
    `SELECT count(*) AS n FROM contacts INDEXED BY contacts_invalid WHERE list_id = ? AND bucket = 1`,
  );
  counts.byBucket[2][0] = count(
    `SELECT count(*) AS n FROM contacts INDEXED BY contacts_duplicate WHERE list_id = ? AND bucket = 2`,
  );
  counts.byBucket[0][0] = rows - counts.byBucket[1][0] - counts.byBucket[2][0];
  const excluded = prepared<[number], { bucket: number; n: number }>(
    db,
    `SELECT bucket, count(*) AS n FROM contacts INDEXED BY contacts_excluded WHERE list_id = ? AND excluded = 1 GROUP BY bucket`,
  ).all(listId);
  for (const { bucket, n } of excluded) {
    const pair = counts.byBucket[bucket as 0 | 1 | 2];
    pair[0] -= n;
    pair[1] = n;
  }
  for (const [code, bit] of Object.entries(ISSUE_BITS) as Array<[keyof typeof ISSUE_BITS, number]>) {
    counts.issues[code] = count(
      `SELECT count(*) AS n FROM contacts INDEXED BY contacts_issue_${code} WHERE list_id = ? AND issues & ${bit} != 0`,
    );
  }
  counts.edited = count(
    `SELECT count(*) AS n FROM contacts INDEXED BY contacts_edited WHERE list_id = ? AND edited = 1`,
  );
  return counts;
}
