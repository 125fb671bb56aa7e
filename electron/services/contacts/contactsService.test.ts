import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUCKET, cleanInMemory } from '../../../shared/domain/contacts/index.ts';
import type { ContactFilter, ContactRow } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { expectedClean } from '../../../shared/testing/contactsTruth.ts';
import { openDbClient } from '../db/client.ts';
import type { DbClient } from '../db/client.ts';
import { recount } from './recount.ts';
import { tempDirs } from '../db/testing.ts';
import { silentLogger } from '../logging/logger.ts';
import { createContactsService } from './contactsService.ts';
import type { ContactsService } from './contactsService.ts';
import { findDownload } from '../files/downloads.ts';
import { listCounts } from './rowState.ts';
import { generate, importThroughService, plainDetected, rejectLinesByRow } from './testing.ts';
import { toImportReport } from '../../../shared/ipc/channels/contacts.ts';

const dirs = tempDirs('desk-contacts-');
let dir: string;
let db: DbClient;
let service: ContactsService;

beforeEach(async () => {
  dir = dirs.make();
  db = await openDbClient({ file: join(dir, 'campaign-desk.sqlite') });
  service = createContactsService({
    db,
    logger: silentLogger,
    dataDir: dir,
    now: () => '2026-01-01T00:00:00.000Z',
  });
});
afterEach(async () => {
  await service.settle();
  await db.close();
  dirs.cleanup();
});

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Reads every row of a filter through the service, a page at a time (keyset paging underneath). */
async function allRows(listId: number, filter: ContactFilter, page = 97): Promise<ContactRow[]> {
  const rows: ContactRow[] = [];
  for (;;) {
    const r = await service.rows({ listId, filter, offset: rows.length, limit: page });
    rows.push(...r.rows);
    if (r.rows.length === 0 || rows.length >= r.total) return rows;
  }
}

const exportText = async (listId: number, kind: 'upload' | 'rejects') => {
  const target = join(dir, `${kind}-${Math.random().toString(36).slice(2)}.csv`);
  const result = await service.exportFile({ listId, kind, path: target });
  expect(result.path).toBe(target);
  const bytes = readFileSync(target);
  expect(result.bytes).toBe(bytes.length);
  return bytes.toString('utf8');
};

/** The stored counts agree with counting the rows themselves (read from the same file). */
function expectCountsMatchRows(listId: number, stored: ReturnType<typeof listCounts>) {
  const reader = new Database(join(dir, 'campaign-desk.sqlite'), { readonly: true });
  try {
    expect(listCounts(recount(reader, listId))).toEqual(stored);
  } finally {
    reader.close();
  }
}

/** A list's number index as stored, as its rows give it, and whether it is still owed (a second connection). */
function numberIndex(listId: number) {
  const reader = new Database(join(dir, 'campaign-desk.sqlite'), { readonly: true });
  try {
    const pairs = (sql: string) => reader.prepare(sql).raw().all(listId);
    return {
      owed:
        reader
          .prepare(`SELECT count(*) FROM contact_numbers_pending WHERE list_id = ?`)
          .pluck()
          .get(listId) === 1,
      stored: pairs(`SELECT e164, row FROM contact_numbers WHERE list_id = ? ORDER BY e164, row`),
      expected: pairs(
        `SELECT e164, row FROM contacts WHERE list_id = ? AND e164 IS NOT NULL ORDER BY e164, row`,
      ),
    };
  } finally {
    reader.close();
  }
}

describe('contacts service with a real SQLite file', () => {
  it('stores a messy generated file batch by batch with the engine’s counts and exports the CLI’s exact bytes', async () => {
    // Blocks of 32 KiB (~300 rows) and of 256 KiB (the app's: the whole file in one batch), so
    // rows are stored by INSERTs of 256, of 64 and of the rest.
    for (const [options, blockBytes] of [
      [{}, 32 * 1024],
      [{ bom: true, crlf: true }, 256 * 1024],
    ] as const) {
      const { bytes, truth } = generate(2500, 42, options);
      const { list, engine } = await importThroughService(service, bytes, { blockBytes });
      const { report } = engine;
      expect(list.status).toBe('ready');
      // What the generator meant, counted by the rules (shared/testing/contactsTruth.ts).
      const expected = expectedClean(truth);
      expect(list.counts).toMatchObject({
        rows: expected.rows,
        valid: expected.valid,
        invalid: expected.invalid,
        duplicates: expected.duplicates,
      });
      expect(list.counts).toMatchObject({
        rows: report.rows,
        valid: report.valid,
        invalid: report.invalid,
        duplicates: report.duplicates,
        excluded: 0,
        upload: report.valid,
        rejects: report.invalid + report.duplicates,
      });
      expect(list.counts.issues).toEqual(report.issues);
      expect(list.detected).toMatchObject({
        encoding: report.encoding,
        delimiter: report.delimiter,
        phoneColumn: 'Mobile Number',
      });
      expectCountsMatchRows(list.id, list.counts);
      expect(await exportText(list.id, 'upload')).toBe(engine.upload);
      expect(await exportText(list.id, 'rejects')).toBe(engine.rejects);
    }
    expect((await service.lists()).lists).toHaveLength(2);
  });

  it('a list is ready before its number index: owed at the finish, then built in the background or by the first change', async () => {
    const csv = ['Name,Mobile Number', 'Asha,9876543210', 'Ravi,9876543210', 'Meena,9123456789'].join('\n');
    // Finished here through the database alone (no background build): the index stays owed.
    const held = await importThroughService(service, utf8(csv), { finish: false });
    const report = { ...toImportReport(held.engine.report, 1) };
    const ready = await db.call('contacts.finishImport', {
      listId: held.listId,
      report,
      lateDuplicates: held.engine.lateDuplicates,
      now: 'n',
    });
    expect(ready.status).toBe('ready');
    const owed = numberIndex(held.listId);
    expect(owed).toMatchObject({ owed: true, stored: [] });
    expect(owed.expected).toHaveLength(3);
    // The list answers meanwhile: its rows and duplicates are the engine's.
    expect((await allRows(held.listId, 'all')).map((r) => [r.row, r.bucket, r.duplicateOf])).toEqual([
      [2, 'valid', 0],
      [3, 'duplicate', 2],
      [4, 'valid', 0],
    ]);
    // A change re-decides duplicates: it builds the index first, then decides with it (row 4
    // takes row 2's number and repeats it).
    const edited = await service.editCell({ listId: held.listId, row: 4, column: 1, value: '9876543210' });
    expect(edited.changed.map((r) => [r.row, r.bucket, r.duplicateOf])).toEqual([[4, 'duplicate', 2]]);
    const built = numberIndex(held.listId);
    expect(built.owed).toBe(false);
    expect(built.stored).toEqual(built.expected);
    expect(await db.call('contacts.buildNumbers', { listId: held.listId })).toBe(false); // nothing owed

    // Through the service, the index is built in the background right after the finish.
    const { list } = await importThroughService(service, utf8(csv), { name: 'second' });
    await service.settle();
    const second = numberIndex(list.id);
    expect(second.owed).toBe(false);
    expect(second.stored).toEqual(second.expected);
    expect(second.stored).toHaveLength(3);
  });

  it('refuses an import finish whose late duplicates the stored rows do not show', async () => {
    const csv = ['Name,Mobile Number,Amount', 'Asha,9876543210,', 'Ravi,9123456789,5'].join('\n');
    const variables = [{ variable: 'amount', column: 'Amount', optional: false }];
    const held = await importThroughService(service, utf8(csv), { variables, finish: false });
    const finish = (lateDuplicates: Array<[number, number]>) =>
      db.call('contacts.finishImport', {
        listId: held.listId,
        report: toImportReport(held.engine.report, 1),
        lateDuplicates,
        now: 'n',
      });
    // Row 3 has another number; row 9 does not exist; a claim must come later in the file.
    for (const late of [[[2, 3]], [[2, 9]], [[3, 2]]] as Array<Array<[number, number]>>) {
      await expect(finish(late)).rejects.toThrow(/The import says row \d+ repeats row \d+/);
    }
    // Nothing was kept by the refusals: the real finish still goes through.
    expect((await finish([])).status).toBe('ready');
  });

  it('issue 11 rules in the app: late number claims, landline warnings (excluded in one click), stray quotes, repeated headers', async () => {
    const csv = [
      'Name,Mobile Number,Amount,Name',
      'Asha,9876543210,,x', // 2 invalid (amount missing): its number goes to row 4
      'Ravi,(206) 555-0123,5,x', // 3 valid, landline-only (a US number read under IN)
      'Meena,+91 98765 43210,7,x', // 4 valid: claims row 2's number
      'Dev,9123456789,"never closes,x', // 5 quote_unbalanced: the line is read with the quote as a character
      'Lila,+91 98765 43210,8,x', // 6 duplicate of row 4
      'Omar,022 2345 6789,9,x', // 7 valid, landline-only
    ].join('\n');
    const variables = [{ variable: 'amount', column: 'Amount', optional: false }];
    const { list, engine } = await importThroughService(service, utf8(csv), { variables });
    const { report } = engine;
    expect(report.duplicate_columns).toEqual([{ name: 'Name', positions: [1, 4] }]);
    expect(engine.lateDuplicates).toEqual([[2, 4]]);
    expect(list.counts).toMatchObject({ rows: 6, valid: 3, invalid: 2, duplicates: 1 });
    expect(list.counts.issues).toEqual(report.issues);
    expect(list.counts.issues).toMatchObject({ phone_landline: 2, quote_unbalanced: 1, duplicate: 2 });
    expectCountsMatchRows(list.id, list.counts);
    // The stored rows say what the engine said; the late claim was settled when the import finished.
    const rows = await allRows(list.id, 'all');
    expect(rows.map((r) => [r.row, r.bucket, r.duplicateOf, r.issues])).toEqual([
      [2, 'invalid', 4, ['duplicate', 'variable_missing']],
      [3, 'valid', 0, ['phone_landline']],
      [4, 'valid', 0, []],
      [5, 'invalid', 0, ['quote_unbalanced']],
      [6, 'duplicate', 4, ['duplicate']],
      [7, 'valid', 0, ['phone_landline']],
    ]);
    expect(rows[3]).toMatchObject({
      cells: ['Dev', '9123456789', '"never closes', 'x'],
      reasons: 'quote_unbalanced:quote opened on line 5',
    });
    expect(await exportText(list.id, 'rejects')).toBe(engine.rejects);
    expect(await exportText(list.id, 'upload')).toBe(engine.upload);
    expect((await allRows(list.id, 'issue:phone_landline')).map((r) => r.row)).toEqual([3, 7]);

    // One click excludes the landline-only numbers; Undo brings them back.
    const excluded = await service.bulk({ listId: list.id, action: 'exclude-landline' });
    expect(excluded.affected).toBe(2);
    expect(excluded.list.counts).toMatchObject({ excluded: 2, upload: 1, valid: 3 });
    expect(excluded.list.undo).toBe('Exclude 2 landline-only numbers');
    expect(await exportText(list.id, 'upload')).toBe('Mobile Number,Amount\n+919876543210,7\n');
    expectCountsMatchRows(list.id, excluded.list.counts);
    const undone = await service.undo({ listId: list.id });
    expect(undone.list.counts.excluded).toBe(0);

    // Checking every row again (another default country) keeps how the file was read …
    await service.bulk({ listId: list.id, action: 'apply-country', country: 'US', scope: 'all' });
    const stray = (await allRows(list.id, 'issue:quote_unbalanced')).map((r) => [r.row, r.bucket, r.reasons]);
    expect(stray).toEqual([[5, 'invalid', 'quote_unbalanced:quote opened on line 5']]);
    await service.undo({ listId: list.id });
    // … and an operator's edit of the row is what clears it.
    const fixed = await service.editCell({ listId: list.id, row: 5, column: 2, value: '4' });
    expect(fixed.changed[0]).toMatchObject({ row: 5, bucket: 'valid', issues: [], reasons: '' });
    await service.undo({ listId: list.id });

    // Fixing row 2's amount makes it the first otherwise valid row: it takes its number back.
    const edited = await service.editCell({ listId: list.id, row: 2, column: 2, value: '1' });
    expect(edited.list.counts).toMatchObject({ valid: 3, duplicates: 2 });
    const after = await allRows(list.id, 'all');
    expect(
      after.filter((r) => r.e164 === '+919876543210').map((r) => [r.row, r.bucket, r.duplicateOf]),
    ).toEqual([
      [2, 'valid', 0],
      [4, 'duplicate', 2],
      [6, 'duplicate', 2],
    ]);
    expectCountsMatchRows(list.id, edited.list.counts);
  });

  it('issue 22 rules in the app: formula cells (a warning, defused in the upload) and bidi phones (invalid) keep their bits through storage', async () => {
    const csv = [
      'Name,Mobile Number,Amount',
      '"=HYPERLINK(""http://evil.example/x"",""Pay"")",9876543210,5', // 2 valid, formula in Name
      '@SUM(1+1),9876543211,-500', // 3 valid, formula in Name (-500 is a number)
      'Ravi,+91\u202E0123456789,7', // 4 phone_bidi_control (shows as +919876543210)
      '"\t=2+2",+91\u202E0123456789,8', // 5 both: a formula and a bidi phone
      'Meena,9876543212,9', // 6 nothing
    ].join('\n');
    const { list, engine } = await importThroughService(service, utf8(csv));
    expect(list.counts).toMatchObject({ rows: 5, valid: 3, invalid: 2, duplicates: 0 });
    expect(list.counts.issues).toEqual(engine.report.issues);
    expect(list.counts.issues).toMatchObject({ formula_cell: 3, phone_bidi_control: 2 });
    expectCountsMatchRows(list.id, list.counts);
    const rows = await allRows(list.id, 'all');
    expect(rows.map((r) => [r.row, r.bucket, r.issues])).toEqual([
      [2, 'valid', ['formula_cell']],
      [3, 'valid', ['formula_cell']],
      [4, 'invalid', ['phone_bidi_control']],
      [5, 'invalid', ['formula_cell', 'phone_bidi_control']],
      [6, 'valid', []],
    ]);
    expect((await allRows(list.id, 'issue:formula_cell')).map((r) => r.row)).toEqual([2, 3, 5]);
    expect((await allRows(list.id, 'issue:phone_bidi_control')).map((r) => r.row)).toEqual([4, 5]);
    // The exports are the engine's: the upload defused, the rejects formula-safe with the controls shown.
    const upload = await exportText(list.id, 'upload');
    expect(upload).toBe(engine.upload);
    expect(upload).toBe(
      'Mobile Number,Name,Amount\n+919876543210,"HYPERLINK(""http://evil.example/x"",""Pay"")",5\n+919876543211,SUM(1+1),-500\n+919876543212,Meena,9\n',
    );
    const rejects = await exportText(list.id, 'rejects');
    expect(rejects).toBe(engine.rejects);
    expect(rejects).toContain("5,phone_bidi_control,'\t=2+2,'+91⟨RLO⟩0123456789,8\n");
    // Another default country reads the phones again: the bidi flag stays (the text decides it).
    await service.bulk({ listId: list.id, action: 'apply-country', country: 'US', scope: 'all' });
    expect((await allRows(list.id, 'issue:phone_bidi_control')).map((r) => r.row)).toEqual([4, 5]);
    await service.undo({ listId: list.id });
    // Editing the name clears the warning; editing the phone clears the error.
    const name = await service.editCell({ listId: list.id, row: 3, column: 0, value: 'Asha' });
    expect(name.changed[0]).toMatchObject({ row: 3, bucket: 'valid', issues: [] });
    const phone = await service.editCell({ listId: list.id, row: 4, column: 1, value: '9876543213' });
    expect(phone.changed[0]).toMatchObject({ row: 4, bucket: 'valid', issues: [] });
    expect(phone.list.counts.issues).toMatchObject({ formula_cell: 2, phone_bidi_control: 1 });
    expectCountsMatchRows(list.id, phone.list.counts);
  });

  it('keeps semicolon files, formula cells and quoted line breaks byte-exact in the rejects file', async () => {
    const csv =
      'Name;Mobile Number;Note\r\n' +
      '"Asha";98765 43210;"=HYPERLINK(""x"")"\r\n' +
      'Ravi;12345;"two\nlines; and a ""quote"""\r\n' +
      'Meena;+91 98765-43210;@sum\r\n' +
      '-x;;\r\n' +
      'Only two;9123456789\r\n';
    const { list, engine } = await importThroughService(service, utf8(csv));
    expect(list.detected.delimiter).toBe(';');
    expect(list.counts).toMatchObject({ rows: 5, valid: 1, duplicates: 1, invalid: 3 });
    expect(await exportText(list.id, 'rejects')).toBe(engine.rejects);
    expect(await exportText(list.id, 'upload')).toBe(engine.upload);
    const rows = await allRows(list.id, 'all');
    expect(rows.map((r) => [r.row, r.bucket, r.duplicateOf])).toEqual([
      [2, 'valid', 0],
      [3, 'invalid', 0],
      [4, 'duplicate', 2],
      [5, 'invalid', 0],
      [6, 'invalid', 0],
    ]);
    expect(rows[1]).toMatchObject({
      phoneRaw: '12345',
      e164: null,
      issues: ['phone_invalid'],
      cells: ['Ravi', '12345', 'two\nlines; and a "quote"'],
    });
    expect(rows[4]?.issues).toEqual(['row_ragged']);
  });

  it('pages every filter by keyset from any offset, matching the engine’s buckets and issues', async () => {
    const bytes = generate(3000, 7).bytes;
    const { list, engine } = await importThroughService(service, bytes);
    const expected = { valid: [] as number[], invalid: [] as number[], duplicate: [] as number[] };
    for (const b of engine.blocks) {
      for (let i = 0; i < b.rowNumbers.length; i++) {
        const bucket = (['valid', 'invalid', 'duplicate'] as const)[b.buckets[i] as number]!;
        expected[bucket].push(b.rowNumbers[i] as number);
      }
    }
    const all = await allRows(list.id, 'all', 250);
    expect(all.map((r) => r.pos)).toEqual(all.map((_, i) => i));
    // Any offset, on a position mark (every 256th) or between two, and past the end.
    for (const offset of [0, 1, 255, 256, 257, 511, 1000, all.length - 3, all.length]) {
      const window = await service.rows({ listId: list.id, filter: 'all', offset, limit: 7 });
      expect(window.rows.map((r) => r.row)).toEqual(all.slice(offset, offset + 7).map((r) => r.row));
    }
    for (const bucket of ['valid', 'invalid', 'duplicate'] as const) {
      expect((await allRows(list.id, `bucket:${bucket}`)).map((r) => r.row)).toEqual(expected[bucket]);
    }
    const invalidPhones = all.filter((r) => r.issues.includes('phone_invalid')).map((r) => r.row);
    expect((await allRows(list.id, 'issue:phone_invalid')).map((r) => r.row)).toEqual(invalidPhones);
    // A jump far into a filter (no anchor yet) and back (anchors learnt) give the same rows.
    const far = await service.rows({ listId: list.id, filter: 'bucket:valid', offset: 1234, limit: 20 });
    expect(far.rows.map((r) => r.row)).toEqual(expected.valid.slice(1234, 1254));
    const near = await service.rows({ listId: list.id, filter: 'bucket:valid', offset: 1230, limit: 5 });
    expect(near.rows.map((r) => r.row)).toEqual(expected.valid.slice(1230, 1235));
    const past = await service.rows({
      listId: list.id,
      filter: 'bucket:valid',
      offset: expected.valid.length,
      limit: 5,
    });
    expect(past).toMatchObject({ total: expected.valid.length, rows: [] });
    // Where a duplicate's first row sits, for the grid's "of row N" link.
    const dup = all.find((r) => r.bucket === 'duplicate')!;
    const located = await service.locate({ listId: list.id, filter: 'all', row: dup.duplicateOf });
    expect(all[located.index!]?.row).toBe(dup.duplicateOf);
    const inFilter = await service.locate({ listId: list.id, filter: 'bucket:duplicate', row: dup.row });
    expect(expected.duplicate[inFilter.index!]).toBe(dup.row);
    expect(await service.locate({ listId: list.id, filter: 'bucket:valid', row: dup.row })).toEqual({
      index: null,
    });
  });

  it('revalidates an edit at once and recomputes duplicates for the old and the new number', async () => {
    const csv = [
      'Name,Mobile Number,City',
      'A,9876543210,X', // row 2: first with the number
      'B,98765 43210,Y', // row 3: duplicate of 2 (other format)
      'C,12345,Z', // row 4: invalid
      'D,+91 9876543210,W', // row 5: duplicate of 2
      'E,9123456789,V', // row 6: valid
      '',
    ].join('\n');
    const { list } = await importThroughService(service, utf8(csv));
    expect(list.counts).toMatchObject({ valid: 2, invalid: 1, duplicates: 2 });
    const byRow = async () => new Map((await allRows(list.id, 'all')).map((r) => [r.row, r]));

    // Row 2 gets another number: row 3 becomes the first with the old one, row 5 repeats row 3.
    const first = await service.editCell({ listId: list.id, row: 2, column: 1, value: '98123 45678' });
    expect(first.changed.map((r) => [r.row, r.bucket, r.duplicateOf]).sort()).toEqual([
      [2, 'valid', 0],
      [3, 'valid', 0],
      [5, 'duplicate', 3],
    ]);
    expect(first.changed.find((r) => r.row === 2)).toMatchObject({
      e164: '+919812345678',
      phoneRaw: '98123 45678',
      edited: true,
    });
    expect(first.list.counts).toMatchObject({ valid: 3, invalid: 1, duplicates: 1, edited: 1 });
    expect((await byRow()).get(5)?.reasons).toBe('duplicate:row 3');
    expectCountsMatchRows(list.id, first.list.counts);

    // The invalid row 4 gets the old number: it repeats row 3, which came first.
    const second = await service.editCell({ listId: list.id, row: 4, column: 1, value: '+919876543210' });
    expect(second.changed.map((r) => [r.row, r.bucket, r.duplicateOf])).toEqual([[4, 'duplicate', 3]]);
    expect(second.list.counts).toMatchObject({ valid: 3, invalid: 0, duplicates: 2, edited: 2 });

    // Row 2 gets its number back: it is first again, everyone else with it repeats it.
    const third = await service.editCell({ listId: list.id, row: 2, column: 1, value: '9876543210' });
    const rows = await byRow();
    expect([2, 3, 4, 5].map((r) => [rows.get(r)?.bucket, rows.get(r)?.duplicateOf])).toEqual([
      ['valid', 0],
      ['duplicate', 2],
      ['duplicate', 2],
      ['duplicate', 2],
    ]);
    expect(third.list.counts).toMatchObject({ valid: 2, invalid: 0, duplicates: 3 });
    expectCountsMatchRows(list.id, third.list.counts);

    // Undo takes back the last edit only.
    const undone = await service.undo({ listId: list.id });
    expect(undone.undone).toBe('Edit of row 2');
    expect(undone.list.counts).toMatchObject({ valid: 3, invalid: 0, duplicates: 2 });
    expect((await byRow()).get(3)).toMatchObject({ bucket: 'valid', duplicateOf: 0 });
    expectCountsMatchRows(list.id, undone.list.counts);
    await expect(service.undo({ listId: list.id })).rejects.toThrow(/nothing to undo/);

    // Exports follow the fixed rows: the upload has rows 2, 3, 6; the rejects the duplicates 4 and 5.
    const upload = await exportText(list.id, 'upload');
    expect(upload).toBe('Mobile Number,Name,City\n+919812345678,A,X\n+919876543210,B,Y\n+919123456789,E,V\n');
    const rejects = await exportText(list.id, 'rejects');
    expect(rejects).toBe(
      // Cells starting with + are neutralised in the file meant for people.
      "Row,Reasons,Name,Mobile Number,City\n4,duplicate:row 3,C,'+919876543210,Z\n5,duplicate:row 3,D,'+91 9876543210,W\n",
    );
    // Bad edits are refused with the place named.
    await expect(service.editCell({ listId: list.id, row: 99, column: 0, value: 'x' })).rejects.toMatchObject(
      { code: 'not_found', field: 'row' },
    );
    await expect(service.editCell({ listId: list.id, row: 2, column: 7, value: 'x' })).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'column',
    });
  });

  it('checks mapped variables again on edit, and fills the missing cell of a short row', async () => {
    const csv = 'Name,Mobile Number,Loan Amount\nA,9876543210,100\nB,9123456789,\nC,9812345678\n';
    const { list, engine } = await importThroughService(service, utf8(csv), {
      variables: [
        { variable: 'loan_amount', column: 'Loan Amount', optional: false },
        { variable: 'name', column: '', optional: false },
      ],
    });
    // Row 3 misses its loan amount; row 4 has no such cell at all (and is ragged).
    expect(engine.report.issues).toMatchObject({ variable_missing: 2, row_ragged: 1 });
    expect(list.counts).toMatchObject({ valid: 1, invalid: 2 });
    expect(list.uploadColumns).toEqual(['Loan Amount']);
    const fixed = await service.editCell({ listId: list.id, row: 3, column: 2, value: '250' });
    expect(fixed.changed[0]).toMatchObject({ row: 3, bucket: 'valid', issues: [] });
    const short = await service.editCell({ listId: list.id, row: 4, column: 2, value: '75' });
    expect(short.changed[0]).toMatchObject({ row: 4, bucket: 'valid', cells: ['C', '9812345678', '75'] });
    expect(await exportText(list.id, 'upload')).toBe(
      'Mobile Number,Loan Amount\n+919876543210,100\n+919123456789,250\n+919812345678,75\n',
    );
  });

  it('excludes all invalid rows and includes them again; exports are the CLI’s minus excluded rows', async () => {
    const bytes = generate(2000, 11).bytes;
    const { list, engine } = await importThroughService(service, bytes);
    const excluded = await service.bulk({ listId: list.id, action: 'exclude-invalid' });
    expect(excluded.affected).toBe(engine.report.invalid);
    expect(excluded.list.counts).toMatchObject({
      excluded: engine.report.invalid,
      rejects: engine.report.duplicates,
      upload: engine.report.valid,
    });
    expect(excluded.list.undo).toBe(`Exclude ${engine.report.invalid} invalid rows`);
    expectCountsMatchRows(list.id, excluded.list.counts);

    const lines = rejectLinesByRow(engine);
    const header = engine.rejects.slice(0, engine.rejects.indexOf('\n') + 1);
    const invalidRows = new Set((await allRows(list.id, 'bucket:invalid')).map((r) => r.row));
    const expectedRejects =
      header +
      [...lines]
        .filter(([row]) => !invalidRows.has(row))
        .map(([, line]) => line)
        .join('');
    expect(await exportText(list.id, 'rejects')).toBe(expectedRejects);
    expect(await exportText(list.id, 'upload')).toBe(engine.upload);

    // One row back by hand, then everything back; undo returns to the state before the last action.
    const one = [...invalidRows][0]!;
    const single = await service.setExcluded({ listId: list.id, rows: [one], excluded: false });
    expect(single.list.counts.excluded).toBe(engine.report.invalid - 1);
    const all = await service.bulk({ listId: list.id, action: 'include-all' });
    expect(all.affected).toBe(engine.report.invalid - 1);
    expect(all.list.counts.excluded).toBe(0);
    const undone = await service.undo({ listId: list.id });
    expect(undone.list.counts.excluded).toBe(engine.report.invalid - 1);
    expect((await allRows(list.id, 'excluded')).map((r) => r.row)).not.toContain(one);
    expectCountsMatchRows(list.id, undone.list.counts);
  });

  it('applies a country to invalid numbers without one, or makes it the list’s default like a fresh import', async () => {
    const csv =
      'Name,Mobile Number\nA,9876543210\nB,(201) 555-0123\nC,3125550188\nD,+1 312 555 0188\nE,12345\n';
    const { list } = await importThroughService(service, utf8(csv));
    expect(list.counts).toMatchObject({ valid: 2, invalid: 3 });

    const invalidOnly = await service.bulk({
      listId: list.id,
      action: 'apply-country',
      country: 'US',
      scope: 'invalid',
    });
    expect(invalidOnly.affected).toBe(2);
    const rows = await allRows(list.id, 'all');
    expect(rows.map((r) => [r.row, r.e164, r.bucket, r.duplicateOf, r.country])).toEqual([
      [2, '+919876543210', 'valid', 0, null],
      [3, '+12015550123', 'valid', 0, 'US'],
      [4, '+13125550188', 'valid', 0, 'US'],
      [5, '+13125550188', 'duplicate', 4, null],
      [6, null, 'invalid', 0, null],
    ]);
    expect(invalidOnly.list.countryCode).toBe('IN');
    expectCountsMatchRows(list.id, invalidOnly.list.counts);
    await service.undo({ listId: list.id });

    // 'all': the list reads every number with US, as if imported with --country US.
    const everything = await service.bulk({
      listId: list.id,
      action: 'apply-country',
      country: '+1',
      scope: 'all',
    });
    const fresh = await cleanInMemory(utf8(csv), { country: '+1' });
    expect(everything.list).toMatchObject({ country: '+1', countryCode: 'US', callingCode: '1' });
    expect(everything.list.counts).toMatchObject({
      valid: fresh.report.valid,
      invalid: fresh.report.invalid,
      duplicates: fresh.report.duplicates,
    });
    expect(await exportText(list.id, 'upload')).toBe(fresh.upload);
    expect(await exportText(list.id, 'rejects')).toBe(fresh.rejects);
    expectCountsMatchRows(list.id, everything.list.counts);
    const back = await service.undo({ listId: list.id });
    expect(back.list).toMatchObject({ country: 'IN', counts: { valid: 2, invalid: 3 } });
    await expect(
      service.bulk({ listId: list.id, action: 'apply-country', country: 'Atlantis', scope: 'all' }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'country',
    });
  });

  it('undoes a change to the whole list (thousands of rows) back to the imported state', async () => {
    const bytes = generate(6000, 5).bytes;
    const { list, engine } = await importThroughService(service, bytes);
    const changed = await service.bulk({
      listId: list.id,
      action: 'apply-country',
      country: 'US',
      scope: 'all',
    });
    expect(changed.list.counts.valid).not.toBe(engine.report.valid);
    const back = await service.undo({ listId: list.id });
    expect(back.list.counts).toEqual(list.counts);
    expect(back.list).toMatchObject({ country: 'IN', countryCode: 'IN' });
    expect(await exportText(list.id, 'upload')).toBe(engine.upload);
    expect(await exportText(list.id, 'rejects')).toBe(engine.rejects);
    expectCountsMatchRows(list.id, back.list.counts);
    // The number table came back too: freeing a duplicated number moves its duplicates along.
    const dup = (await allRows(list.id, 'bucket:duplicate'))[0]!;
    const edit = await service.editCell({
      listId: list.id,
      row: dup.duplicateOf,
      column: 2,
      value: '+91 99999 00001',
    });
    expect(edit.changed.find((r) => r.row === dup.row)).toMatchObject({ duplicateOf: 0 });
    expectCountsMatchRows(list.id, edit.list.counts);
  });

  it('refuses batches out of order, malformed or inconsistent, and a finish that lost rows', async () => {
    const csv = 'Name,Mobile Number\nA,9876543210\n';
    const begun = await service.importBegin({
      name: 'x',
      fileName: 'x.csv',
      fileBytes: csv.length,
      choices: { country: 'IN', variables: [] },
      detected: plainDetected(['Name', 'Mobile Number']),
    });
    const meta = {
      pos: 0,
      rows: [2],
      buckets: [0],
      flags: [0],
      duplicateOf: [0],
      e164: [919876543210],
      rejects: [],
    };
    const batch = (m: object, lines = '["A","9876543210"]') => `${JSON.stringify(m)}\n${lines}`;
    const good = batch(meta);
    await expect(service.importBatch({ importId: begun.importId, seq: 1, data: good })).rejects.toMatchObject(
      { field: 'seq' },
    );
    await expect(service.importBatch({ importId: begun.importId, seq: 0, data: '{"pos":0' })).rejects.toThrow(
      /not valid JSON/,
    );
    await expect(
      service.importBatch({ importId: begun.importId, seq: 0, data: batch({ ...meta, buckets: [1] }) }),
    ).rejects.toThrow(/Row 2: its bucket does not follow/);
    await expect(
      service.importBatch({ importId: begun.importId, seq: 0, data: batch({ ...meta, flags: [0, 0] }) }),
    ).rejects.toThrow(/one entry per row/);
    await expect(
      service.importBatch({ importId: begun.importId, seq: 0, data: batch(meta, '["A",7]') }),
    ).rejects.toThrow(/Row 2: its cells are not a list of texts/);
    await expect(
      service.importBatch({ importId: begun.importId, seq: 0, data: batch(meta, '["A"]\n["B"]') }),
    ).rejects.toThrow(/more cell lines than rows/);
    expect(await service.importBatch({ importId: begun.importId, seq: 0, data: good })).toEqual({
      received: 1,
    });
    await expect(
      service.importFinish({
        importId: begun.importId,
        report: {
          rows: 2,
          valid: 2,
          invalid: 0,
          duplicates: 0,
          blankRows: 0,
          encoding: 'utf-8',
          encodingSource: 'detected',
          encodingNote: null,
          split: { workers: 1, mode: 'sequential', reason: null },
          elapsedMs: 1,
        },
        lateDuplicates: [],
      }),
    ).rejects.toThrow(/stored 1 rows but the file has 2/);
    await service.settle();
    expect((await service.lists()).lists).toEqual([]);
    await expect(
      service.importBatch({ importId: begun.importId, seq: 1, data: '{}' }),
    ).rejects.toBeInstanceOf(DeskFailure);
  });

  it('refuses choices the engine cannot use, naming them', async () => {
    const detected = {
      encoding: 'utf-8' as const,
      encodingSource: 'detected' as const,
      encodingNote: null,
      delimiter: ',' as const,
      delimiterSource: 'detected' as const,
      newline: '\n' as const,
      header: ['Name', 'Mobile Number'],
      headerRow: 1,
      phoneColumn: 'Mobile Number',
    };
    const begin = (choices: Parameters<ContactsService['importBegin']>[0]['choices']) =>
      service.importBegin({ name: 'x', fileName: 'x.csv', fileBytes: 1, choices, detected });
    await expect(begin({ country: 'ZZ', variables: [] })).rejects.toThrow(/unknown country "ZZ"/i);
    await expect(
      begin({ country: 'IN', variables: [{ variable: 'amount', column: 'Amount', optional: false }] }),
    ).rejects.toThrow(/Amount/);
  });

  // Deletion a chunk at a time (more rows than a chunk) is bulkChunks.test.ts's.
  it('resets an import the engine restarted, aborts, deletes a list and sweeps half-imported ones', async () => {
    const bytes = generate(1500, 3).bytes;
    const { list } = await importThroughService(service, bytes);
    const removed = await service.remove({ listId: list.id });
    expect(removed).toEqual({ deleted: true });
    expect((await service.lists()).lists).toEqual([]);
    await service.settle();
    expect(await db.call('contacts.list', { listId: list.id })).toBeNull();

    // A list left 'importing' by a previous run is removed at start-up.
    const engine = await cleanInMemory(bytes, { country: 'IN' });
    const begun = await service.importBegin({
      name: 'half',
      fileName: 'half.csv',
      fileBytes: bytes.length,
      choices: { country: 'IN', variables: [] },
      detected: plainDetected(engine.report.header, engine.report.phone_column),
    });
    expect(await service.importReset({ importId: begun.importId })).toEqual({ received: 0 });
    const restarted = createContactsService({ db, logger: silentLogger, dataDir: dir });
    expect(await db.call('contacts.unfinished', {})).toEqual([begun.list.id]);
    await restarted.sweepUnfinished();
    await restarted.settle();
    expect(await db.call('contacts.unfinished', {})).toEqual([]);
    expect(await service.importAbort({ importId: 'no-such-import' })).toEqual({ aborted: false });
  });

  it('drops an import its page left, and refuses an export the list changed under', async () => {
    const bytes = generate(300, 1).bytes;
    const engine = await cleanInMemory(bytes, { country: 'IN' });
    const begun = await service.importBegin({
      name: 'left',
      fileName: 'left.csv',
      fileBytes: bytes.length,
      choices: { country: 'IN', variables: [] },
      detected: plainDetected(engine.report.header),
    });
    expect(service.dropIdleImports(Date.now())).toBe(0);
    expect(service.dropIdleImports(Date.now() + 11 * 60 * 1000)).toBe(1);
    await service.settle();
    expect(await db.call('contacts.list', { listId: begun.list.id })).toBeNull();

    const { list } = await importThroughService(service, bytes);
    const target = join(dir, 'racing.csv');
    // Refused either way: at its start if the change is already running, or before it is put in
    // place if the list changed while it was written. (Caught at once: it may fail during the change.)
    const exporting = service.exportFile({ listId: list.id, kind: 'upload', path: target }).then(
      () => null,
      (error: unknown) => error,
    );
    await service.bulk({ listId: list.id, action: 'exclude-invalid' });
    expect(await exporting).toMatchObject({ code: 'conflict' });
    expect(existsSync(target)).toBe(false);
  });

  it('writes a one-time download for the browser host', async () => {
    const { list, engine } = await importThroughService(
      service,
      utf8('Name,Mobile Number\nA,9876543210\nB,1\n'),
      { name: 'My list: 2/3' },
    );
    const result = await service.exportFile({ listId: list.id, kind: 'rejects', download: true });
    expect(result).toMatchObject({
      kind: 'rejects',
      rows: 1,
      path: null,
      fileName: 'My list_ 2_3-rejects.csv',
    });
    const token = result.downloadUrl!.replace('/downloads/', '');
    const found = findDownload(dir, token)!;
    expect(readFileSync(found.file, 'utf8')).toBe(engine.rejects);
    expect(findDownload(dir, 'x'.repeat(43))).toBeNull();
    expect(findDownload(dir, '../../etc')).toBeNull();
    await expect(
      service.exportFile({ listId: list.id, kind: 'upload', path: 'relative.csv' }),
    ).rejects.toMatchObject({ field: 'path' });
    await expect(
      service.exportFile({ listId: list.id, kind: 'upload', path: join(dir, 'missing', 'x.csv') }),
    ).rejects.toMatchObject({
      code: 'file_error',
    });
    expect(BUCKET.valid).toBe(0);
  });
});
