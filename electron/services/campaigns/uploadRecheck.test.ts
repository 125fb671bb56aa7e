// The launch's last check before the upload, on a real SQLite file: numbers put on the do-not-call
// list after the file was written leave the file and its row map; cells with line breaks and quotes
// stay whole; nothing is rewritten when nothing is listed.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readUploadRows, uploadRowsPath, writeUploadRows } from './serviceRefusals.ts';
import { openTempDb } from '../sync/testing.ts';
import type { TempDb } from '../sync/testing.ts';
import { holdBackSuppressed, uploadRecords } from './uploadRecheck.ts';

let temp: TempDb | null = null;
afterEach(async () => {
  await temp?.close();
  temp = null;
});

const entry = (e164: number, addedAt = '2026-11-01T00:00:00.000Z', expiresAt: string | null = null) => ({
  e164,
  reason: 'opted_out' as const,
  sources: [],
  addedBy: 't',
  addedAt,
  expiresAt,
});

describe('holdBackSuppressed', () => {
  it('cuts the listed numbers from the file and its row map, keeping multi-line cells whole', async () => {
    temp = await openTempDb();
    const file = join(temp.dir, 'upload.csv');
    const text =
      'Mobile Number,Name,Note\n' +
      '+919800000001,A,plain\n' +
      '+919800000002,"B, with comma","two\nlines ""quoted"""\n' +
      '+919800000003,C,x\n' +
      '+919800000004,D,"+919800000003 in a cell"\n';
    writeFileSync(file, text);
    await writeUploadRows(uploadRowsPath(file), [2, 5, 9, 12]);
    expect(uploadRecords(text)).toHaveLength(5);

    const before = statSync(file).mtimeMs;
    expect(await holdBackSuppressed(temp.db, 'w1', file)).toEqual({ removed: 0, kept: 4 });
    expect(statSync(file).mtimeMs).toBe(before);

    await temp.db.call('suppression.add', { workspaceId: 'w1', entries: [entry(919800000002)] });
    await temp.db.call('suppression.add', { workspaceId: '', entries: [entry(919800000003)] });
    // Another workspace's entry and an expired one hold nothing back.
    await temp.db.call('suppression.add', { workspaceId: 'w2', entries: [entry(919800000001)] });
    await temp.db.call('suppression.add', {
      workspaceId: 'w1',
      entries: [entry(919800000004, '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z')],
    });
    expect(await holdBackSuppressed(temp.db, 'w1', file)).toEqual({ removed: 2, kept: 2 });
    expect(readFileSync(file, 'utf8')).toBe(
      'Mobile Number,Name,Note\n+919800000001,A,plain\n+919800000004,D,"+919800000003 in a cell"\n',
    );
    expect(await readUploadRows(uploadRowsPath(file))).toEqual([2, 12]);
  });
});
