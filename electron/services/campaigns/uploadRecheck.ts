// The launch's last check (issue 27): right before a launch's file goes to the service, the numbers
// put on the do-not-call list since the file was written (a launch queued offline, waiting for its
// confirmation, or resumed by the CLI) are taken out of it, with the row map kept beside it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { DbClient } from '../db/client.ts';
import { createAtomicFile } from '../files/atomicFile.ts';
import { readUploadRows, uploadRowsPath, writeUploadRows } from './serviceRefusals.ts';

const LOOKUP = 5000;

/**
 * The records of an upload file (header first) as they are written: a record ends at a line feed
 * outside quotes (cells may hold line breaks inside quotes; quotes inside a cell are doubled).
 */
export function uploadRecords(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** E.164 digits of an upload record (its first cell is the number, "+91…", never quoted). */
const numberOf = (record: string): number | null => {
  const m = /^\+([1-9]\d{6,14}),?/.exec(record);
  return m ? Number(m[1]) : null;
};

/** Numbers of `numbers` on the workspace's or the shared do-not-call list now. */
export async function suppressedAmong(
  db: DbClient,
  workspaceId: string,
  numbers: readonly number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < numbers.length; i += LOOKUP) {
    const entries = await db.call('suppression.lookup', {
      workspaceId,
      numbers: numbers.slice(i, i + LOOKUP),
    });
    for (const e of entries) found.add(e.e164);
  }
  return found;
}

/**
 * Takes suppressed numbers out of an upload file (and its row map); answers how many rows went and
 * how many stay. The file is rewritten only when something goes (write to a temp file, rename).
 */
export async function holdBackSuppressed(
  db: DbClient,
  workspaceId: string,
  uploadFile: string,
): Promise<{ removed: number; kept: number }> {
  const records = uploadRecords(await readFile(uploadFile, 'utf8'));
  const data = records.slice(1);
  const numbers = data.map(numberOf);
  const suppressed = await suppressedAmong(
    db,
    workspaceId,
    numbers.filter((n): n is number => n !== null),
  );
  if (suppressed.size === 0) return { removed: 0, kept: data.length };
  const keep = numbers.map((n) => n === null || !suppressed.has(n));
  const file = await createAtomicFile(uploadFile);
  try {
    await file.write((records[0] ?? '') + data.filter((_, i) => keep[i]).join(''));
    const mapPath = uploadRowsPath(uploadFile);
    if (existsSync(mapPath)) {
      const rows = await readUploadRows(mapPath);
      if (rows && rows.length === data.length)
        await writeUploadRows(
          mapPath,
          rows.filter((_, i) => keep[i]),
        );
    }
    await file.commit();
  } catch (error) {
    await file.discard();
    throw error;
  }
  const kept = keep.filter(Boolean).length;
  return { removed: data.length - kept, kept };
}
