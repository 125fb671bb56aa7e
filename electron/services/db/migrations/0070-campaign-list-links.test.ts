import { afterEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const insertList = `INSERT INTO contact_lists (id, name, file_name, file_bytes, status, encoding, delimiter, phone_column,
  country, detected, mapping, headers, setup, counts, created_at, updated_at)
  VALUES (?, 'L', 'l.csv', 10, 'ready', 'utf-8', ',', 'Mobile Number', 'IN', '{}', '[]', '[]', '{}', '{}', 'n', 'n')`;
const insertLaunch = `INSERT INTO campaign_launches (id, workspace_id, launch_key, list_id, name, agent_id, flow, state,
  step, settings, upload_file, created_at, updated_at) VALUES (?, 'w1', ?, ?, 'C', 'a', ?, 'pending', 'upload', '{}', 'f', 'n', 't')`;
const links = `SELECT workspace_id, bulk_list_id, list_id FROM campaign_lists ORDER BY bulk_list_id`;

describe('migration 0070 campaign list links', () => {
  it('links launches made before it, then every launch whose service id becomes known', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 60);
    db.prepare(insertList).run(1);
    db.prepare(insertLaunch).run('before', 'k0', 1, 'large');
    db.prepare(`UPDATE campaign_launches SET bulk_list_id = 'B0' WHERE id = 'before'`).run();
    expect(db.prepare(links).all()).toEqual([]);

    expect(migrate(db, migrations, 70)).toBe(70);
    expect(schemaVersion(db)).toBe(70);
    expect(db.prepare(links).all()).toEqual([{ workspace_id: 'w1', bulk_list_id: 'B0', list_id: 1 }]);

    db.prepare(insertLaunch).run('large', 'k1', 1, 'large');
    db.prepare(insertLaunch).run('standard', 'k2', 1, 'standard');
    db.prepare(insertLaunch).run('cli', 'k3', null, 'standard');
    db.prepare(insertLaunch).run('gone', 'k4', 99, 'standard');
    expect(db.prepare(links).all()).toHaveLength(1);
    db.prepare(`UPDATE campaign_launches SET bulk_list_id = 'B1' WHERE id = 'large'`).run();
    db.prepare(`UPDATE campaign_launches SET service_list_id = 'S2' WHERE id = 'standard'`).run();
    // A launch from a file (the CLI) or of a list deleted since has no list to link.
    db.prepare(`UPDATE campaign_launches SET service_list_id = 'S3' WHERE id = 'cli'`).run();
    db.prepare(`UPDATE campaign_launches SET service_list_id = 'S4' WHERE id = 'gone'`).run();
    expect(db.prepare(links).all()).toEqual([
      { workspace_id: 'w1', bulk_list_id: 'B0', list_id: 1 },
      { workspace_id: 'w1', bulk_list_id: 'B1', list_id: 1 },
      { workspace_id: 'w1', bulk_list_id: 'S2', list_id: 1 },
    ]);
    db.close();
  });
});
