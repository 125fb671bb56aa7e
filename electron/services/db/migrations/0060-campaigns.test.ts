import { afterEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const insertLaunch = `INSERT INTO campaign_launches (id, workspace_id, launch_key, list_id, name, agent_id, flow, state,
  step, settings, upload_file, created_at, updated_at) VALUES (?, 'w1', ?, 7, 'C', 'a', ?, 'pending', 'upload', '{}', 'f', 'n', 'n')`;

describe('migration 0060 campaigns', () => {
  it('adds the launch outbox, its timeline, drafts and the cache; the service id follows the flow', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 30);
    expect(migrate(db, migrations, 60)).toBe(60);
    expect(schemaVersion(db)).toBe(60);
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining([
        'campaign_launches',
        'campaign_launch_steps',
        'campaign_drafts',
        'campaign_cache',
      ]),
    );
    db.prepare(insertLaunch).run('l1', 'k1', 'large');
    db.prepare(insertLaunch).run('l2', 'k2', 'standard');
    db.prepare(`UPDATE campaign_launches SET bulk_list_id = 'B1' WHERE id = 'l1'`).run();
    db.prepare(`UPDATE campaign_launches SET service_list_id = 'S2' WHERE id = 'l2'`).run();
    const ids = db
      .prepare(`SELECT workspace_id, list_id, service_id FROM campaign_launches ORDER BY id`)
      .all();
    expect(ids).toEqual([
      { workspace_id: 'w1', list_id: 7, service_id: 'B1' },
      { workspace_id: 'w1', list_id: 7, service_id: 'S2' },
    ]);
    db.close();
  });

  it('refuses a second launch with the same key, an unknown flow or state, and drops steps with their launch', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 60);
    db.prepare(insertLaunch).run('l1', 'k1', 'large');
    expect(() => db.prepare(insertLaunch).run('l2', 'k1', 'large')).toThrow(/UNIQUE/);
    expect(() => db.prepare(insertLaunch).run('l3', 'k3', 'huge')).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE campaign_launches SET state = 'done' WHERE id = 'l1'`).run()).toThrow(
      /CHECK/,
    );
    db.prepare(
      `INSERT INTO campaign_launch_steps (launch_id, seq, step, outcome, at) VALUES ('l1', 1, 'upload', 'sent', 'n')`,
    ).run();
    expect(() =>
      db
        .prepare(
          `INSERT INTO campaign_launch_steps (launch_id, seq, step, outcome, at) VALUES ('nope', 1, 'upload', 'sent', 'n')`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare(`DELETE FROM campaign_launches WHERE id = 'l1'`).run();
    expect(db.prepare(`SELECT count(*) FROM campaign_launch_steps`).pluck().get()).toBe(0);
    db.close();
  });
});
