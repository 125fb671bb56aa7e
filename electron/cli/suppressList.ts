// `--suppress <file>` and `--workspace` for `clean` and `launch` (issue 27): the numbers of a
// do-not-call file (read by the contacts engine, so its encoding, delimiter, phone column and
// country are handled as a contact list's), and the workspace's list in the data folder, taken out
// of an upload file before anything else reads it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUPPRESSION_REASONS } from '../../shared/domain/suppression.ts';
import type { SuppressionReason } from '../../shared/domain/suppression.ts';
import type { DbClient } from '../services/db/client.ts';
import { cleanFile } from '../services/contacts/engine/cleanFile.ts';
import { createAtomicFile } from '../services/files/atomicFile.ts';
import { uploadRecords } from '../services/campaigns/uploadRecheck.ts';

/** Number (E.164 digits) → reason. */
export type SuppressMap = Map<number, SuppressionReason>;

const numberOf = (record: string): number | null => {
  const m = /^\+([1-9]\d{6,14})(,|\r?\n|$)/.exec(record);
  return m ? Number(m[1]) : null;
};

/** Cells of a one-line upload record (no quotes inside a suppression file's first columns). */
const cellsOf = (record: string): string[] => record.replace(/\r?\n$/, '').split(',');

/**
 * The numbers of a do-not-call file with their reason (its `reason` column when it has one, else
 * `imported`), cleaned by the contacts engine with the country given. Invalid rows are skipped.
 */
export async function readSuppressFile(path: string, country: string): Promise<SuppressMap> {
  const dir = await mkdtemp(join(tmpdir(), 'desk-suppress-'));
  try {
    const out = join(dir, 'upload.csv');
    await cleanFile({
      path,
      country,
      map: [],
      optional: [],
      out,
      rejects: join(dir, 'rejects.csv'),
      report: join(dir, 'report.json'),
      workers: 1,
    });
    const records = uploadRecords(await readFile(out, 'utf8'));
    const header = cellsOf(records[0] ?? '').map((h) => h.trim().toLowerCase());
    const reasonAt = header.indexOf('reason');
    const map: SuppressMap = new Map();
    for (const record of records.slice(1)) {
      const e164 = numberOf(record);
      if (e164 === null || map.has(e164)) continue;
      const reason = reasonAt > 0 ? (cellsOf(record)[reasonAt] ?? '').trim() : '';
      map.set(
        e164,
        (SUPPRESSION_REASONS as readonly string[]).includes(reason)
          ? (reason as SuppressionReason)
          : 'imported',
      );
    }
    return map;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Adds the entries of a workspace's list (and the shared one) in force for the upload's numbers. */
export async function addWorkspaceEntries(
  db: DbClient,
  workspaceId: string,
  numbers: readonly number[],
  into: SuppressMap,
): Promise<void> {
  for (let i = 0; i < numbers.length; i += 5000) {
    const entries = await db.call('suppression.lookup', { workspaceId, numbers: numbers.slice(i, i + 5000) });
    for (const e of entries) if (!into.has(e.e164)) into.set(e.e164, e.reason);
  }
}

/** The numbers of an upload file (E.164 digits), in file order. */
export async function uploadNumbers(uploadFile: string): Promise<number[]> {
  return uploadRecords(await readFile(uploadFile, 'utf8'))
    .slice(1)
    .map(numberOf)
    .filter((n): n is number => n !== null);
}

export interface HeldBack {
  total: number;
  byReason: Partial<Record<SuppressionReason, number>>;
}

/** Takes the suppressed numbers out of an upload file (rewritten only when one goes). */
export async function holdBack(uploadFile: string, suppressed: SuppressMap): Promise<HeldBack> {
  const held: HeldBack = { total: 0, byReason: {} };
  if (suppressed.size === 0) return held;
  const records = uploadRecords(await readFile(uploadFile, 'utf8'));
  const kept = [records[0] ?? ''];
  for (const record of records.slice(1)) {
    const e164 = numberOf(record);
    const reason = e164 === null ? undefined : suppressed.get(e164);
    if (reason === undefined) kept.push(record);
    else {
      held.total++;
      held.byReason[reason] = (held.byReason[reason] ?? 0) + 1;
    }
  }
  if (held.total === 0) return held;
  const file = await createAtomicFile(uploadFile);
  try {
    await file.write(kept.join(''));
    await file.commit();
  } catch (error) {
    await file.discard();
    throw error;
  }
  return held;
}

/** "3 held back (do-not-call): opted_out 2, dnd_registry 1". */
export const heldBackText = (h: HeldBack): string =>
  `${h.total.toLocaleString('en-US')} held back (do-not-call)${
    h.total > 0
      ? `: ${Object.entries(h.byReason)
          .map(([r, n]) => `${r} ${n.toLocaleString('en-US')}`)
          .join(', ')}`
      : ''
  }`;
