import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const insert = `INSERT INTO campaign_launches (id, workspace_id, launch_key, list_id, name, agent_id, flow, state,
  step, settings, upload_file, created_at, updated_at, draft_id)
  VALUES (?, 'w', NULL, NULL, 'n', 'a', 'standard', 'pending', 'save', '{}', 'f', 't', 't', ?)`;

describe('migration 0133 campaign launch once', () => {
  it('takes one launch per draft, any number without a draft', () => {
    const db = freshDatabase(dirs.make());
    expect(migrate(db, migrations, 133)).toBe(133);
    db.prepare(insert).run('a', 'draft-1');
    expect(() => db.prepare(insert).run('b', 'draft-1')).toThrow(/UNIQUE/);
    db.prepare(insert).run('c', null);
    db.prepare(insert).run('d', null);
    expect(db.prepare(`SELECT count(*) FROM campaign_launches`).pluck().get()).toBe(3);
    expect(db.prepare(`SELECT terminated_at FROM campaign_launches WHERE id = 'a'`).pluck().get()).toBeNull();
  });
});
