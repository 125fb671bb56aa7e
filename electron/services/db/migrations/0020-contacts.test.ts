import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ISSUE, ISSUE_CODES } from '../../../../shared/domain/contacts/index.ts';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';
import { ISSUE_BITS } from './0020-contacts.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const freshDb = () => freshDatabase(dirs.make());

const insertList = (db: Database.Database, id = 1) =>
  db
    .prepare(
      `INSERT INTO contact_lists (id, name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
         detected, mapping, headers, setup, counts, created_at, updated_at)
       VALUES (?, 'L', 'l.csv', 10, 'ready', 'utf-8', ',', 'Mobile Number', 'IN', '{}', '[]', '[]', '{}', '{}', 'n', 'n')`,
    )
    .run(id);

const insertRow = (
  db: Database.Database,
  listId: number,
  row: number,
  extra: { e164?: number | null; issues?: number; bucket?: number } = {},
) =>
  db
    .prepare(
      `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, e164, bucket, issues, reasons)
       VALUES (?, ?, ?, '["a"]', 'a', ?, ?, ?, '')`,
    )
    .run(listId, row, row - 2, extra.e164 ?? null, extra.bucket ?? 0, extra.issues ?? 0);

describe('migration 0020 contacts', () => {
  it('goes from the foundation (10) to 20 with the contacts tables, keeping what was there', () => {
    const db = freshDb();
    migrate(db, migrations, 10);
    db.prepare(`INSERT INTO app_settings (key, value, updated_at) VALUES ('k', '1', 'n')`).run();
    expect(migrate(db, migrations, 20)).toBe(20);
    expect(schemaVersion(db)).toBe(20);
    const tables = db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all();
    expect(tables).toEqual(
      expect.arrayContaining([
        'contact_lists',
        'contacts',
        'contact_numbers',
        'contact_undo',
        'contact_undo_rows',
      ]),
    );
    expect(db.prepare(`SELECT value FROM app_settings WHERE key = 'k'`).pluck().get()).toBe('1');
    db.close();
  });

  it('stores issue bits that agree with the engine’s flags, plus a duplicate bit of its own', () => {
    // The codes of version 20 (later ones have bits of their own: 0035-contacts-issue-codes.ts).
    for (const code of Object.keys(ISSUE_BITS) as Array<keyof typeof ISSUE_BITS>) {
      if (code === 'duplicate') continue;
      expect(ISSUE_BITS[code]).toBe(ISSUE[code]);
    }
    const engineBits = Object.values(ISSUE_BITS).reduce((a, b) => a | b, 0) & ~ISSUE_BITS.duplicate;
    expect(ISSUE_BITS.duplicate & engineBits).toBe(0);
    expect(Object.keys(ISSUE_BITS).every((c) => (ISSUE_CODES as readonly string[]).includes(c))).toBe(true);
  });

  it('enforces row shape and deletes a list’s rows and undo with it', () => {
    const db = freshDb();
    migrate(db, migrations, 20);
    insertList(db);
    insertRow(db, 1, 2, { e164: 919876543210 });
    expect(() => insertRow(db, 1, 2)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insertRow(db, 2, 3)).toThrow(/FOREIGN KEY/);
    expect(() => insertRow(db, 1, 4, { bucket: 3 })).toThrow(/CHECK/);
    expect(() => insertRow(db, 1, 5, { issues: 128 })).toThrow(/CHECK/);
    expect(() => insertRow(db, 1, 6, { e164: 0 })).toThrow(/CHECK/);
    db.prepare(
      `INSERT INTO contact_undo (list_id, label, list_state, created_at) VALUES (1, 'x', '{}', 'n')`,
    ).run();
    db.prepare(`INSERT INTO contact_undo_rows SELECT * FROM contacts WHERE list_id = 1`).run();
    db.prepare(`INSERT INTO contact_numbers (list_id, e164, row) VALUES (1, 919876543210, 2)`).run();
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    for (const table of ['contacts', 'contact_numbers', 'contact_undo', 'contact_undo_rows']) {
      expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0);
    }
    db.close();
  });

  it('serves every grid filter from an index (keyset paging, no table scan)', () => {
    const db = freshDb();
    migrate(db, migrations, 20);
    insertList(db);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join(' | ');
    expect(plan(`SELECT row FROM contacts WHERE list_id = 1 AND pos >= 5 ORDER BY pos LIMIT 10`)).toMatch(
      /contacts_pos/,
    );
    for (const [bucket, index] of [
      [1, 'contacts_invalid'],
      [2, 'contacts_duplicate'],
    ] as const) {
      expect(
        plan(
          `SELECT row FROM contacts INDEXED BY ${index} WHERE list_id = 1 AND bucket = ${bucket} AND row >= 5 ORDER BY row LIMIT 10`,
        ),
      ).not.toMatch(/TEMP B-TREE/);
    }
    for (const [code, bit] of Object.entries(ISSUE_BITS)) {
      // INDEXED BY fails to prepare when the partial index cannot serve the query.
      const detail = plan(
        `SELECT row FROM contacts INDEXED BY contacts_issue_${code} WHERE list_id = 1 AND issues & ${bit} != 0 AND row >= 5 ORDER BY row LIMIT 10`,
      );
      expect(detail).toMatch(new RegExp(`contacts_issue_${code}`));
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
    expect(
      plan(
        `SELECT row FROM contacts INDEXED BY contacts_excluded WHERE list_id = 1 AND excluded = 1 AND row >= 5 ORDER BY row LIMIT 10`,
      ),
    ).not.toMatch(/TEMP B-TREE/);
    expect(
      plan(
        `SELECT row FROM contacts INDEXED BY contacts_edited WHERE list_id = 1 AND edited = 1 AND row >= 5 ORDER BY row LIMIT 10`,
      ),
    ).not.toMatch(/TEMP B-TREE/);
    expect(() =>
      plan(`SELECT row FROM contacts INDEXED BY contacts_edited WHERE list_id = 1 AND row >= 5`),
    ).toThrow(/no query solution/);
    expect(
      plan(`SELECT min(row) FROM contact_numbers WHERE list_id = 1 AND e164 = 919876543210 AND row != 3`),
    ).toMatch(/SEARCH contact_numbers USING PRIMARY KEY \(list_id=\? AND e164=\?\)/);
    db.close();
  });
});
