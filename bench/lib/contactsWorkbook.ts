// A deterministic contacts workbook for benchmarks and tests, streamed to disk (a 1M-row workbook
// never sits in memory): phones as numeric cells (some national, some short, some repeated), names
// as shared strings, a due date by date style, an amount, and a formula column with cached values.
// The same rows can be written as the CSV Excel would export, to compare the two paths.
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { seededRandom } from '../../shared/testing/seededRandom.ts';
import { xlsxChunks } from '../../shared/testing/xlsxWriter.ts';
import type { TestCell, TestRow } from '../../shared/testing/xlsxWriter.ts';

export const WORKBOOK_HEADER = ['Mobile Number', 'Name', 'City', 'Due Date', 'Loan Amount', 'EMI'];
const CITIES = ['Mumbai', 'Pune', 'Delhi', 'Chennai', 'Kolkata', 'Bengaluru', 'Jaipur', 'Surat'];
const FIRST = ['Asha', 'Ravi', 'Priya', 'Arjun', 'Meera', 'Vikram', 'Neha', 'Karan', 'Divya', 'Rahul'];
const DAY_2025_01_01 = 45658;

interface ContactRow {
  phone: number;
  name: string;
  city: string;
  dueSerial: number;
  amount: number;
}

function* contactRows(rows: number, seed: number): Generator<ContactRow> {
  const random = seededRandom(seed);
  const seen: number[] = [];
  for (let i = 0; i < rows; i++) {
    const roll = random();
    let phone: number;
    if (roll < 0.02 && seen.length > 0) phone = seen[Math.floor(random() * seen.length)] as number;
    else if (roll < 0.04)
      phone = 10000 + Math.floor(random() * 89999); // too short
    else if (roll < 0.3)
      phone = 7000000000 + Math.floor(random() * 2999999999); // national
    else phone = 917000000000 + Math.floor(random() * 2999999999); // with the country code
    if (seen.length < 10_000) seen.push(phone);
    yield {
      phone,
      name: `${FIRST[i % FIRST.length]} ${i.toString(36).toUpperCase()}`,
      city: CITIES[Math.floor(random() * CITIES.length)] as string,
      dueSerial: DAY_2025_01_01 + Math.floor(random() * 365),
      amount: Math.round(random() * 5_000_000) / 100,
    };
  }
}

const emi = (amount: number): number => Math.round((amount / 12) * 100) / 100;

function* workbookRows(rows: number, seed: number): Generator<TestRow> {
  yield WORKBOOK_HEADER;
  for (const r of contactRows(rows, seed)) {
    const cells: TestCell[] = [
      r.phone,
      r.name,
      r.city,
      { serial: r.dueSerial, style: 'date' },
      r.amount,
      { formula: 'ROUND(E:E/12,2)', value: emi(r.amount) },
    ];
    yield cells;
  }
}

const write = (path: string, chunks: Iterable<Uint8Array>): void => {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    for (const chunk of chunks) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
};

/** Writes `<rows>` contacts to `path` as a workbook (a "Summary" sheet first, then "Contacts"). */
export function writeContactsWorkbook(path: string, rows: number, seed: number): void {
  write(
    path,
    xlsxChunks({
      sheets: [
        {
          name: 'Summary',
          rows: [
            ['Report', 'Contacts export'],
            ['Rows', rows],
          ],
        },
        { name: 'Contacts', rows: workbookRows(rows, seed) },
      ],
    }),
  );
}

/** The same rows as the CSV Excel exports (dates as ISO dates): the baseline of the workbook path. */
export function writeContactsCsv(path: string, rows: number, seed: number): void {
  const encoder = new TextEncoder();
  function* lines(): Generator<Uint8Array> {
    let text = `${WORKBOOK_HEADER.join(',')}\n`;
    for (const r of contactRows(rows, seed)) {
      const due = new Date(Date.UTC(1899, 11, 30) + r.dueSerial * 86_400_000).toISOString().slice(0, 10);
      text += `${r.phone},${r.name},${r.city},${due},${r.amount},${emi(r.amount)}\n`;
      if (text.length > 1 << 20) {
        yield encoder.encode(text);
        text = '';
      }
    }
    yield encoder.encode(text);
  }
  write(path, lines());
}
