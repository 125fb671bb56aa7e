import { describe, expect, it } from 'vitest';
import { bytesAccess, openWorkbook, sheetRows } from './index.ts';
import { createSheetWriter } from './writeSheet.ts';

describe('createSheetWriter', () => {
  it('writes text cells the workbook reader reads back as the same text', async () => {
    const chunks: Uint8Array[] = [];
    const writer = createSheetWriter('Do not call', (c) => chunks.push(c));
    const rows = [
      ['Mobile Number', 'reason', 'note'],
      ['+919812345678', 'opted_out', 'a <b> & "c"'],
      ['+919812345679', '', ' मुझे कॉल मत करो '],
    ];
    for (const r of rows) writer.row(r);
    writer.end();
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const book = await openWorkbook(bytesAccess(bytes));
    expect(book.sheets.map((s) => s.name)).toEqual(['Do not call']);
    const read: string[][] = [];
    for await (const batch of sheetRows(book, book.sheets[0]!)) for (const row of batch) read.push(row.cells);
    expect(read.map((r) => [...r, '', ''].slice(0, 3))).toEqual(rows);
  });
});
