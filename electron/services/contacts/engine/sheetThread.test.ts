import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import { xlsxBytes } from '../../../../shared/testing/xlsxWriter.ts';
import { startSheetThread } from './sheetThread.ts';

let dir = '';
let book = '';
const ROWS = 60_000;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheet-thread-'));
  book = join(dir, 'book.xlsx');
  const rows = Array.from({ length: ROWS }, (_, i) => [
    919800000000 + i,
    `Name ${i}`,
    { inline: `note ${i}` },
  ]);
  writeFileSync(
    book,
    xlsxBytes({
      sheets: [
        { name: 'Notes', rows: [['Text']] },
        { name: 'Leads', rows: [['Phone', 'Name', 'Note'], ...rows] },
      ],
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function text(chunks: AsyncIterable<Uint8Array>, limit = Infinity): Promise<string> {
  const decoder = new TextDecoder();
  let out = '';
  let n = 0;
  for await (const chunk of chunks) {
    out += decoder.decode(chunk, { stream: true });
    if (++n >= limit) break;
  }
  return out;
}

describe('the workbook reader thread', () => {
  it('streams the chosen sheet as CSV, again from the top after an early stop, with progress up to the whole sheet', async () => {
    const thread = await startSheetThread({
      path: book,
      size: statSync(book).size,
      choices: { sheet: 'Leads' },
    });
    try {
      expect(thread.sheet).toBe('Leads');
      const open = () => thread.source.open() as AsyncIterable<Uint8Array>;
      const partial = await text(open(), 1);
      const whole = await text(open());
      const lines = whole.split('\n');
      expect(lines[0]).toBe('Phone,Name,Note');
      expect(lines[1]).toBe('919800000000,Name 0,note 0');
      expect(lines[ROWS]).toBe(`${919800000000 + ROWS - 1},Name ${ROWS - 1},note ${ROWS - 1}`);
      expect(lines).toHaveLength(ROWS + 2);
      expect(whole.startsWith(partial)).toBe(true);
      expect(partial.length).toBeLessThan(whole.length);
      const base = { rows: 0, bytes: 0, totalBytes: null, rowsPerSecond: 0, etaSeconds: null };
      const done = thread.progress(base);
      expect(done.totalBytes).toBeGreaterThan(0);
      expect(done.bytes).toBe(done.totalBytes);
    } finally {
      await thread.close();
    }
  });

  it('refuses a sheet without a phone column as the engine error, naming the sheets', async () => {
    const failure = await startSheetThread({ path: book, size: statSync(book).size, choices: {} }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ContactsError);
    expect((failure as ContactsError).code).toBe('no_phone_column');
    expect((failure as ContactsError).message).toContain(`2 "Leads" (phone column "Phone")`);
  });
});
