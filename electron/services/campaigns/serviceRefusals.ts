// The service's refusals of a launch's rows: blocked before the upload when predicted (an empty
// variable with "Remove invalid rows" off), and read back after it (the rejects file of a large
// upload, the accepted numbers of a standard save), mapped to the operator's list rows through the
// row map written beside the upload file, and stored (contact_refusals) for the grid and results.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseRecords } from '../../../shared/domain/contacts/parseRecords.ts';
import {
  emptyVariableReason,
  mapRefusalsToList,
  parseRejectsCsv,
} from '../../../shared/domain/serviceRefusals.ts';
import type { ListRefusal, UploadRefusal } from '../../../shared/domain/serviceRefusals.ts';
import type { AgentLint } from '../../../shared/ipc/channels/agents.ts';
import type { CampaignSaveResponse } from '../../../shared/service/upload.ts';
import type { DbClient } from '../db/client.ts';
import { formatCount } from '../../../shared/domain/formatCount.ts';
import type { StoredLaunch } from './launches.queries.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * Why a launch must not go out: rows the service would refuse while "Remove invalid rows" is off
 * (the service then refuses the whole upload). Null when nothing blocks.
 */
export function refusalBlock(lint: AgentLint, removeInvalid: boolean): string | null {
  if (removeInvalid || lint.rowsServiceWillDrop === 0) return null;
  const parts = lint.emptyColumns
    .filter((c) => !c.optional)
    .map((c) => `${c.column} is empty in ${plural(c.emptyRows, 'row')} (needed for ${c.variable})`);
  return `The service would refuse ${plural(lint.rowsServiceWillDrop, 'row')}: ${parts.join('; ')}. Exclude those rows, fill them, mark the variable optional, or turn on "Remove invalid rows"`;
}

/** Where the list rows of an upload file are kept: one little-endian uint32 per data row, in order. */
export const uploadRowsPath = (uploadFile: string): string => join(dirname(uploadFile), 'upload-rows.bin');

export async function writeUploadRows(path: string, rows: readonly number[]): Promise<void> {
  const buf = Buffer.alloc(rows.length * 4);
  rows.forEach((r, i) => buf.writeUInt32LE(r, i * 4));
  await writeFile(path, buf);
}

/** The row map of an upload, or null when it was not kept (a launch of an older build). */
export async function readUploadRows(path: string): Promise<number[] | null> {
  const buf = await readFile(path).catch(() => null);
  if (!buf) return null;
  const out: number[] = new Array<number>(buf.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readUInt32LE(i * 4);
  return out;
}

/** "1,641 of 1,731 rows arrived; the service refused 90 (predicted 90)". */
export function arrivalText(arrived: number, refused: number, predicted: number | null): string {
  const total = arrived + refused;
  const guess = predicted === null ? '' : ` (the app predicted ${formatCount(predicted)})`;
  return `${formatCount(arrived)} of ${plural(total, 'row')} arrived; the service refused ${formatCount(refused)}${guess}`;
}

/** Stores a launch's refusals against its list; returns how many list rows they name. */
async function store(
  db: DbClient,
  launch: StoredLaunch,
  serviceId: string,
  refusals: ListRefusal[],
): Promise<number> {
  if (launch.list_id === null) return 0;
  await db.call('campaigns.storeRefusals', { listId: launch.list_id, bulkListId: serviceId, refusals });
  return refusals.length;
}

/** A large upload's rejects file → the list's rows, stored. */
export async function storeRejectsFile(
  db: DbClient,
  launch: StoredLaunch,
  serviceId: string,
  csv: string,
): Promise<number> {
  const rows = await readUploadRows(uploadRowsPath(launch.upload_file));
  if (!rows) return 0;
  return store(db, launch, serviceId, mapRefusalsToList(rows, parseRejectsCsv(csv)));
}

/**
 * A standard save's answer → the refused rows. The answer names no rows: the upload's rows whose
 * number is not among the accepted ones (`custom_args_values[].mobile_number`) are the refused
 * ones; without those values, the rows with an empty mapped variable, when their count is the
 * service's `failed_rows`. Each reason is the service's rule the row breaks, in its words.
 */
export async function storeSaveRefusals(
  db: DbClient,
  launch: StoredLaunch,
  serviceId: string,
  variablesMap: Record<string, string>,
  saved: CampaignSaveResponse,
): Promise<number> {
  const failed = saved.failed_rows ?? 0;
  const rows = await readUploadRows(uploadRowsPath(launch.upload_file));
  const text = await readFile(launch.upload_file, 'utf8').catch(() => null);
  if (!rows || text === null || failed === 0) return 0;
  const [header = [], ...records] = parseRecords(text, ',', '\n');
  const checks = Object.entries(variablesMap)
    .filter(([v]) => v !== 'mobile_number')
    .map(([variable, column]) => ({ variable, column, index: header.indexOf(column) }))
    .filter((c) => c.index >= 0);
  const reasonOf = (cells: string[]): string | null => {
    const empty = checks.find((c) => (cells[c.index] ?? '').trim() === '');
    return empty ? emptyVariableReason(empty.column, empty.variable) : null;
  };
  const accepted = saved.custom_args_values
    ? new Set(saved.custom_args_values.map((v) => String(v.mobile_number ?? '')))
    : null;
  const refusals: UploadRefusal[] = [];
  records.forEach((cells, i) => {
    const reason = reasonOf(cells);
    if (accepted ? !accepted.has(cells[0] ?? '') : reason !== null)
      refusals.push({
        uploadRow: i + 1,
        reason: reason ?? 'refused by the service (not among the rows it accepted)',
      });
  });
  if (!accepted && refusals.length !== failed) return 0; // cannot tell which rows: store none
  return store(db, launch, serviceId, mapRefusalsToList(rows, refusals));
}
