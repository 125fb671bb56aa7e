import { afterEach, describe, expect, it } from 'vitest';
import { ALL_FLAGS, ISSUE, ISSUE_CODES } from '../../../../shared/domain/contacts/index.ts';
import { issueBits } from '../../contacts/rowState.ts';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';
import { ISSUE_BITS } from './0130-contacts-formula-bidi-codes.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0130 contacts formula and bidi codes', () => {
  it('keeps every list, row and undo row, takes the new bits and gives the counts a 0 for them', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 120);
    const counts = {
      byBucket: [
        [1, 0],
        [0, 0],
        [1, 0],
      ],
      issues: { duplicate: 1, phone_landline: 0 },
      edited: 0,
    };
    db.prepare(
      `INSERT INTO contact_lists (id, name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
         detected, mapping, headers, setup, counts, created_at, updated_at)
       VALUES (1, 'L', 'l.csv', 10, 'ready', 'utf-8', ',', 'Mobile Number', 'IN', '{}', '[]', '[]', '{}', ?, 'n', 'n')`,
    ).run(JSON.stringify(counts));
    const insert = db.prepare(
      `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, e164, bucket, issues, reasons, duplicate_of, excluded)
       VALUES (1, ?, ?, '["a"]', 'a', ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(2, 0, 919876543210, 0, ISSUE_BITS.phone_landline, '', 0, 0);
    insert.run(3, 1, 919876543210, 2, 64, 'duplicate:row 2', 2, 1);
    expect(() => insert.run(4, 2, null, 1, 512, '', 0, 0)).toThrow(/CHECK/);
    db.prepare(`INSERT INTO contact_undo_rows SELECT * FROM contacts WHERE row = 3`).run();
    const before = db.prepare(`SELECT * FROM contacts ORDER BY row`).all();

    expect(migrate(db, migrations, 130)).toBe(130);
    expect(schemaVersion(db)).toBe(130);
    expect(db.prepare(`SELECT * FROM contacts ORDER BY row`).all()).toEqual(before);
    expect(db.prepare(`SELECT row FROM contact_undo_rows`).pluck().all()).toEqual([3]);
    expect(JSON.parse(db.prepare(`SELECT counts FROM contact_lists`).pluck().get() as string)).toEqual({
      ...counts,
      issues: { ...counts.issues, formula_cell: 0, phone_bidi_control: 0 },
    });
    // Every engine flag at once fits, in both row tables (a bit lost here would be a lost issue).
    const widest = issueBits(ALL_FLAGS, 2);
    insert.run(4, 2, null, 1, widest, 'phone_bidi_control', 2, 0);
    db.prepare(`INSERT INTO contact_undo_rows SELECT * FROM contacts WHERE row = 4`).run();
    expect(db.prepare(`SELECT issues FROM contact_undo_rows WHERE row = 4`).pluck().get()).toBe(widest);
    insert.run(5, 3, null, 1, issueBits(ISSUE.phone_bidi_control | ISSUE.formula_cell, 0), '', 0, 0);
    expect(() => insert.run(6, 4, null, 1, 2048, '', 0, 0)).toThrow(/CHECK/);
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'contacts' AND sql IS NOT NULL`,
      )
      .pluck()
      .all();
    expect([...indexes].sort()).toEqual(
      [
        'contacts_invalid',
        'contacts_duplicate',
        'contacts_excluded',
        'contacts_edited',
        ...Object.keys(ISSUE_BITS).map((code) => `contacts_issue_${code}`),
      ].sort(),
    );
    // The partial index of each new code answers for its rows.
    for (const code of ['formula_cell', 'phone_bidi_control'] as const) {
      const sql = `SELECT row FROM contacts INDEXED BY contacts_issue_${code}
                   WHERE list_id = 1 AND issues & ${ISSUE_BITS[code]} != 0 ORDER BY row`;
      expect(db.prepare(sql).pluck().all()).toEqual([4, 5]);
    }
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM contacts`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM contact_undo_rows`).pluck().get()).toBe(0);
    db.close();
  });

  it('has one stored bit per issue code, all different, and every engine flag maps into them', () => {
    expect(Object.keys(ISSUE_BITS).sort()).toEqual([...ISSUE_CODES].sort());
    const bits = Object.values(ISSUE_BITS);
    expect(new Set(bits).size).toBe(bits.length);
    for (const bit of bits) expect(bit & (bit - 1)).toBe(0);
    expect(Object.values(ISSUE).reduce((a, b) => a | b, 0)).toBe(ALL_FLAGS);
    expect(issueBits(ALL_FLAGS, 1)).toBe(bits.reduce((a, b) => a | b, 0));
  });
});
