import { describe, expect, it } from 'vitest';
import { cleanInMemory, csvCell } from '../../domain/contacts/index.ts';
import { BUCKET } from '../../domain/contacts/issues.ts';
import {
  cellLine,
  CONTACT_FILTERS,
  contactsChannels,
  encodeImportBatch,
  engineChoices,
  importBatchMetaSchema,
  readImportBatch,
  rowCellsSchema,
  splitRejectLines,
} from './contacts.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Splits the engine's whole rejects text and puts it back together. */
async function roundTrip(csv: string, country = 'IN') {
  const r = await cleanInMemory(utf8(csv), { country }, { includeCells: true });
  const rows = r.blocks.flatMap((b) => [...b.rowNumbers].filter((_, i) => b.buckets[i] !== BUCKET.valid));
  const body = r.rejects.slice(r.rejects.indexOf('\n') + 1);
  const lines = splitRejectLines(body, rows);
  return {
    r,
    rows,
    lines,
    rebuilt: lines.map(([reasons, tail], k) => `${rows[k]},${csvCell(reasons)},${tail}\n`).join('') === body,
  };
}

describe('splitRejectLines', () => {
  it('splits tails with quoted line breaks that look like the next row, commas in reasons and formulas', async () => {
    const csv =
      'Name,Mobile Number,Loan Amount,Notes\r\n' +
      'A,12345,1,"text\r\n3,still the note"\r\n' + // row 2: a quoted "\n3," inside the tail
      'B,,2,=1+2\r\n' + // row 3
      'C,9876543210,,"x"\r\n' + // row 4: valid
      'D,98765 43210,5,@me\r\n'; // row 5: duplicate of 4
    const { lines, rows, rebuilt } = await roundTrip(csv);
    expect(rows).toEqual([2, 3, 5]);
    expect(rebuilt).toBe(true);
    expect(lines[0]).toEqual(['phone_invalid', 'A,12345,1,"text\r\n3,still the note"']);
    expect(lines[1]).toEqual(['phone_missing', "B,,2,'=1+2"]);
    expect(lines[2]).toEqual(['duplicate:row 4', "D,98765 43210,5,'@me"]);
  });

  it('reads a quoted Reasons cell (variables with commas) and refuses text that does not line up', async () => {
    const text = '7,"variable_missing:Loan Amount, Due Date",x,y\n9,phone_missing,"a\n9,b"\n';
    expect(splitRejectLines(text, [7, 9])).toEqual([
      ['variable_missing:Loan Amount, Due Date', 'x,y'],
      ['phone_missing', '"a\n9,b"'],
    ]);
    expect(() => splitRejectLines(text, [7, 8])).toThrow(/does not line up at row 7/);
    expect(() => splitRejectLines(text, [7, 9, 11])).toThrow(/does not line up at row 9/);
    expect(splitRejectLines('', [])).toEqual([]);
  });
});

describe('import batch codec', () => {
  it('encodes typed columns and pre-encoded cells into one string the schema reads back', () => {
    const data = encodeImportBatch({
      pos: 10,
      rows: new Int32Array([12, 14]),
      buckets: new Uint8Array([0, 1]),
      flags: new Uint8Array([0, 16]),
      duplicateOf: new Int32Array([0, 0]),
      e164: new Float64Array([919876543210, 0]),
      cellLines: [
        ['A', '9876543210'],
        ['B "x"', '1,\n2'],
      ]
        .map(cellLine)
        .join('\n'),
      rejects: [[1, 'phone_invalid', 'B "x",x']],
    });
    expect(data.split('\n')).toHaveLength(3); // the columns, then one line per row
    expect(readImportBatch(data)).toEqual({
      meta: {
        pos: 10,
        rows: [12, 14],
        buckets: [0, 1],
        flags: [0, 16],
        duplicateOf: [0, 0],
        e164: [919876543210, 0],
        rejects: [[1, 'phone_invalid', 'B "x",x']],
      },
      cells: [
        ['A', '9876543210'],
        ['B "x"', '1,\n2'],
      ],
    });
    expect(() => readImportBatch(data.slice(0, data.lastIndexOf('\n')))).toThrow(/2 rows but 1 cell lines/);
  });

  it('refuses batches whose columns disagree in length or hold impossible values', () => {
    const ok = { pos: 0, rows: [2], buckets: [0], flags: [0], duplicateOf: [0], e164: [1], rejects: [] };
    expect(importBatchMetaSchema.safeParse(ok).success).toBe(true);
    expect(importBatchMetaSchema.safeParse({ ...ok, flags: [] }).success).toBe(false);
    expect(importBatchMetaSchema.safeParse({ ...ok, buckets: [3] }).success).toBe(false);
    expect(importBatchMetaSchema.safeParse({ ...ok, rows: [0] }).success).toBe(false);
    expect(importBatchMetaSchema.safeParse({ ...ok, e164: [1e16] }).success).toBe(false);
    expect(rowCellsSchema.safeParse(['a', 1]).success).toBe(false);
  });
});

describe('contacts channels', () => {
  it('accept the grid filters and refuse unknown ones and oversized windows', () => {
    const rows = contactsChannels['contacts:rows'].request;
    for (const filter of CONTACT_FILTERS)
      expect(rows.safeParse({ listId: 1, filter, offset: 0, limit: 100 }).success).toBe(true);
    expect(rows.safeParse({ listId: 1, filter: 'issue:nope', offset: 0, limit: 100 }).success).toBe(false);
    expect(rows.safeParse({ listId: 1, filter: 'all', offset: 0, limit: 5000 }).success).toBe(false);
    const exp = contactsChannels['contacts:export'].request;
    expect(exp.safeParse({ listId: 1, kind: 'upload', download: true }).success).toBe(true);
    expect(exp.safeParse({ listId: 1, kind: 'upload' }).success).toBe(false);
    const bulk = contactsChannels['contacts:bulk'].request;
    expect(
      bulk.safeParse({ listId: 1, action: 'apply-country', country: 'US', scope: 'invalid' }).success,
    ).toBe(true);
    expect(bulk.safeParse({ listId: 1, action: 'apply-country', scope: 'invalid' }).success).toBe(false);
  });
});

describe('engine choices from the import choices', () => {
  it('checks mapped variables only (a blank column is not mapped) and keeps the overrides', () => {
    const choices = {
      country: 'IN',
      delimiter: ';' as const,
      phoneColumn: 'Phone',
      variables: [
        { variable: 'name', column: 'Name', optional: false },
        { variable: 'city', column: '  ', optional: true },
        { variable: 'plan', column: 'Plan', optional: true },
      ],
    };
    expect(engineChoices(choices)).toEqual({
      country: 'IN',
      encoding: undefined,
      delimiter: ';',
      phoneColumn: 'Phone',
      map: [
        ['name', 'Name'],
        ['plan', 'Plan'],
      ],
      optional: ['plan'],
    });
    expect(engineChoices(choices, []).map).toEqual([]);
  });
});
