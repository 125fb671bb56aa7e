import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { freshDatabase, insertContactList, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0135 service refusals', () => {
  it('keeps one refusal per list row and campaign, gone with its list; optional defaults to none', () => {
    const db = freshDatabase(dirs.make());
    expect(migrate(db, migrations, 135)).toBe(135);
    insertContactList(db, 1);
    const insert = db.prepare(
      `INSERT INTO contact_refusals (list_id, row, bulk_list_id, upload_row, reason) VALUES (?, ?, ?, ?, ?)`,
    );
    insert.run(1, 7, 'b1', 3, 'Loan Amount is empty (needed for loan_amount)');
    insert.run(1, 7, 'b2', 2, 'Loan Amount is empty (needed for loan_amount)');
    expect(() => insert.run(1, 7, 'b1', 4, 'again')).toThrow(/UNIQUE/);
    expect(() => insert.run(9, 2, 'b1', 1, 'x')).toThrow(/FOREIGN KEY/);
    db.prepare(
      `INSERT INTO workspaces (id, name, base_url, is_sandbox, secret_storage, created_at, updated_at) VALUES ('w', 'W', 'http://x/v0', 0, 'session', '', '')`,
    ).run();
    db.prepare(
      `INSERT INTO agent_mappings (workspace_id, agent_id, list_id, version_id, mapping, updated_at) VALUES ('w', 'a', 1, NULL, '{}', '')`,
    ).run();
    expect(db.prepare(`SELECT optional FROM agent_mappings`).pluck().get()).toBe('[]');
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM contact_refusals`).pluck().get()).toBe(0);
  });
});
