// The calls CSV as a follow-up list: calls stored in a real SQLite file are exported by the real
// writer, and the file is imported as a contact list by the real engine and contacts service, with
// nothing changed in between. Every number must come back valid and the same, with no apostrophe
// and no cell a spreadsheet would run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContactRow } from '../../../shared/ipc/channels/contacts.ts';
import type { CallRecord } from '../../../shared/service/history.ts';
import { createContactsService } from '../contacts/contactsService.ts';
import { importThroughService } from '../contacts/testing.ts';
import { openDbClient } from '../db/client.ts';
import { openDatabase } from '../db/openDatabase.ts';
import { upsertCalls } from './store/upsertCalls.ts';
import { tempDirs } from '../db/testing.ts';
import { silentLogger } from '../logging/logger.ts';
import { callColumns } from '../sync/callRow.ts';
import { writeCallsCsv } from './exportCalls.ts';

const dirs = tempDirs('desk-calls-roundtrip-');
afterEach(() => dirs.cleanup());

/** Numbers of three countries (the list's default country is India), one called twice. */
const NUMBERS = ['+919002855525', '+919876543210', '+12015550123', '+447911123456', '+919002855525'];

const call = (i: number, to: string, name: string): CallRecord => ({
  id: `rt-${i}`,
  to_number: to,
  name,
  status: 'completed',
  sub_status: null,
  created_at: `2026-11-0${i + 1}T10:00:00.000Z`,
  call_attempt_time: `2026-11-0${i + 1}T10:05:00.000Z`,
  call_duration: 30 + i,
  call_cost: 1.5,
  voicemail_detected: false,
});

describe('calls CSV → contact list', () => {
  it('exports numbers as tel: URIs that a spreadsheet keeps as text, and imports them back as the same valid numbers', async () => {
    const dir = dirs.make();
    const file = join(dir, 'campaign-desk.sqlite');
    const seed = openDatabase(file);
    upsertCalls(seed, {
      workspaceId: 'w1',
      bulkListId: 'bl-1',
      // A name a spreadsheet would run, and one with a comma (quoted).
      rows: NUMBERS.map((n, i) => call(i, n, i === 0 ? '=HYPERLINK("x")' : `Name ${i}, Jr`)).map(callColumns),
      nowIso: '2026-11-10T00:00:00.000Z',
    });
    seed.close();

    const db = await openDbClient({ file });
    try {
      const out = join(dir, 'calls.csv');
      const { rows } = await writeCallsCsv(db, { workspaceId: 'w1', filter: {} }, out);
      expect(rows).toBe(NUMBERS.length);
      const text = readFileSync(out, 'utf8');
      const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
      expect(parsed.data.map((r) => r.to_number).sort()).toEqual(NUMBERS.map((n) => `tel:${n}`).sort());
      // No cell a spreadsheet would run or show with a stray apostrophe, but the defused formula.
      const cells = parsed.data.flatMap((r) => Object.values(r));
      expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
      expect(cells.filter((c) => c.startsWith("'"))).toEqual([`'=HYPERLINK("x")`]);

      const service = createContactsService({ db, logger: silentLogger, dataDir: dir });
      const { list } = await importThroughService(service, new TextEncoder().encode(text), {
        country: 'IN',
        name: 'follow-up',
      });
      await service.settle();
      expect(list.detected.phoneColumn).toBe('to_number');
      expect(list.counts.rows).toBe(NUMBERS.length);
      expect(list.counts.invalid).toBe(0);
      // The number called twice is a duplicate of its first row, as in any contact list.
      expect(list.counts.duplicates).toBe(1);
      const stored = (await service.rows({ listId: list.id, filter: 'all', offset: 0, limit: 50 })).rows;
      const byRow = new Map<number, ContactRow>(stored.map((r) => [r.row, r]));
      // Row 2 is the first record under the header: the export's order is the calls' (newest first).
      const exported = parsed.data.map((r, k) => ({ row: k + 2, number: r.to_number!.slice('tel:'.length) }));
      for (const { row, number } of exported) expect(byRow.get(row)!.e164).toBe(number);
    } finally {
      await db.close();
    }
  });

  it('imports a number behind the apostrophe older exports (and Excel users) put before it', async () => {
    const dir = dirs.make();
    const db = await openDbClient({ file: join(dir, 'campaign-desk.sqlite') });
    try {
      const service = createContactsService({ db, logger: silentLogger, dataDir: dir });
      const csv = `call_id,to_number,name\nc1,'+919002855525,Asha\nc2,'+12015550123,Ravi\n`;
      const { list } = await importThroughService(service, new TextEncoder().encode(csv), { country: 'IN' });
      await service.settle();
      expect(list.counts.invalid).toBe(0);
      const stored = (await service.rows({ listId: list.id, filter: 'all', offset: 0, limit: 10 })).rows;
      expect(stored.map((r) => r.e164)).toEqual(['+919002855525', '+12015550123']);
    } finally {
      await db.close();
    }
  });
});
