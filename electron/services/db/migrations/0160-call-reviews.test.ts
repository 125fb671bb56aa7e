import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { DEFAULT_REVIEW_REASONS } from './0160-call-reviews.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0160 call reviews', () => {
  it('seeds the default reasons, keeps one mark per workspace and call id, and refuses a duplicate live label', () => {
    const db = freshDatabase(dirs.make());
    expect(migrate(db, migrations, 160)).toBe(160);
    expect(db.prepare(`SELECT label FROM review_reasons ORDER BY position`).pluck().all()).toEqual([
      ...DEFAULT_REVIEW_REASONS,
    ]);
    const insert = db.prepare(
      `INSERT INTO call_reviews (workspace_id, call_id, reviewed_at, flag_reason_id, updated_at) VALUES (?, ?, 't', ?, 't')`,
    );
    insert.run('w1', 'c1', 1);
    insert.run('w2', 'c1', null); // the same call id in another workspace is another mark
    expect(() => insert.run('w1', 'c1', null)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insert.run('w1', 'c2', 999)).toThrow(/FOREIGN KEY/);
    // A call row is not needed: marks outlive the rows a sync rewrites.
    expect(db.prepare(`SELECT count(*) FROM calls`).pluck().get()).toBe(0);

    const label = db.prepare(`INSERT INTO review_reasons (label, position, created_at) VALUES (?, 9, 't')`);
    expect(() => label.run('rude')).toThrow(/UNIQUE/);
    db.prepare(`UPDATE review_reasons SET removed_at = 't' WHERE label = 'Rude'`).run();
    expect(() => label.run('rude')).not.toThrow(); // a removed label can be added again
  });
});
