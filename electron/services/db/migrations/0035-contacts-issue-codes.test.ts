import { afterEach, describe, expect, it } from 'vitest';
import { ISSUE_CODES } from '../../../../shared/domain/contacts/index.ts';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';
import { ISSUE_BITS } from './0035-contacts-issue-codes.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0035 contacts issue codes', () => {
  it('keeps every list, row and undo row of version 20, and takes the new issue bits', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 20);
    db.prepare(
      `INSERT INTO contact_lists (id, name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
         detected, mapping, headers, setup, counts, created_at, updated_at)
       VALUES (1, 'L', 'l.csv', 10, 'ready', 'utf-8', ',', 'Mobile Number', 'IN', '{}', '[]', '[]', '{}', '{}', 'n', 'n')`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, e164, bucket, issues, reasons, duplicate_of, excluded)
       VALUES (1, ?, ?, '["a"]', 'a', ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(2, 0, 919876543210, 0, 0, '', 0, 0);
    insert.run(3, 1, 919876543210, 2, 64, 'duplicate:row 2', 2, 1);
    expect(() => insert.run(4, 2, null, 1, 128, '', 0, 0)).toThrow(/CHECK/);
    db.prepare(`INSERT INTO contact_undo_rows SELECT * FROM contacts WHERE row = 3`).run();
    const before = db.prepare(`SELECT * FROM contacts ORDER BY row`).all();

    expect(migrate(db, migrations, 35)).toBe(35);
    expect(schemaVersion(db)).toBe(35);
    expect(db.prepare(`SELECT * FROM contacts ORDER BY row`).all()).toEqual(before);
    expect(db.prepare(`SELECT row FROM contact_undo_rows`).pluck().all()).toEqual([3]);
    insert.run(4, 2, 912065550123, 0, ISSUE_BITS.phone_landline, '', 0, 0);
    insert.run(5, 3, null, 1, ISSUE_BITS.quote_unbalanced, 'quote_unbalanced:quote opened on line 5', 0, 0);
    expect(() => insert.run(6, 4, null, 1, 512, '', 0, 0)).toThrow(/CHECK/);
    // The cascade and every index are back.
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'contacts' AND sql IS NOT NULL`,
      )
      .pluck()
      .all();
    expect(indexes).toEqual(
      expect.arrayContaining([
        'contacts_pos',
        'contacts_invalid',
        'contacts_duplicate',
        'contacts_excluded',
        'contacts_edited',
        ...Object.keys(ISSUE_BITS).map((code) => `contacts_issue_${code}`),
      ]),
    );
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM contacts`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM contact_undo_rows`).pluck().get()).toBe(0);
    db.close();
  });

  it('has one stored bit per issue code of its time, all different', () => {
    // Later codes have bits of their own (0130-contacts-formula-bidi-codes.ts).
    for (const code of Object.keys(ISSUE_BITS)) expect(ISSUE_CODES).toContain(code);
    const bits = Object.values(ISSUE_BITS);
    expect(new Set(bits).size).toBe(bits.length);
    for (const bit of bits) expect(bit & (bit - 1)).toBe(0);
  });
});
