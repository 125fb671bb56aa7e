// A CLI launch prepared from a contacts file: cleaned by the contacts engine into its upload file,
// do-not-call numbers held back, the request built from the options, recorded through the app's
// launch outbox.
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { formatCount } from '../../../shared/domain/formatCount.ts';
import { buildLaunchRequest, enqueueLaunch } from '../../services/campaigns/launchOutbox.ts';
import type { StoredLaunch } from '../../services/campaigns/launches.queries.ts';
import { flowFor } from '../../services/campaigns/launchRequest.ts';
import type { LaunchRequest } from '../../services/campaigns/launchRequest.ts';
import { cleanFile } from '../../services/contacts/engine/cleanFile.ts';
import type { DbClient } from '../../services/db/client.ts';
import { detectionNotes } from '../cleanCommand.ts';
import type { Io } from '../io.ts';
import {
  addWorkspaceEntries,
  heldBackText,
  holdBack,
  readSuppressFile,
  uploadNumbers,
} from '../suppressList.ts';
import type { SuppressMap } from '../suppressList.ts';
import { callConfigOf } from './launchArgs.ts';
import type { LaunchArgs } from './launchArgs.ts';

export interface Prepared {
  key: string;
  request: LaunchRequest;
  flow: StoredLaunch['flow'];
  out: string;
  valid: number;
  invalid: number;
  /** Rows held back: their number is on the do-not-call list. */
  heldBack: number;
}

/**
 * Clean the file into <data>/launches/<key>/, hold back the do-not-call numbers (--suppress files,
 * the workspace's and the shared list) and build the launch request from the options.
 */
export async function prepareLaunch(
  args: LaunchArgs,
  key: string,
  io: Io,
  db: DbClient,
  workspaceId: string,
): Promise<Prepared | string> {
  const dir = join(args.data, 'launches', key.slice(0, 24));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const out = join(dir, 'upload.csv');
  let report;
  try {
    report = await cleanFile({
      path: args.file,
      country: args.country,
      map: args.map,
      optional: [],
      out,
      rejects: join(dir, 'rejects.csv'),
      report: join(dir, 'clean-report.json'),
      onProgress: io.interactive ? (p) => io.status(`cleaning: ${formatCount(p.rows)} rows`) : undefined,
    });
  } catch (error) {
    if (io.interactive) io.status(null);
    if (error instanceof Error && error.name === 'DeskFailure') return error.message;
    throw error;
  }
  if (io.interactive) io.status(null);
  // Nothing is uploaded from an encoding guessed with low confidence (names would be mojibake).
  if (report.encoding_uncertain)
    return `${args.file}: not launched: the encoding is ${report.encoding_note ?? 'a guess'}; clean it with \`campaign-desk clean --encoding <name>\` and launch the upload file, or save it as CSV UTF-8`;
  for (const line of detectionNotes(report)) io.err(`campaign-desk launch:${line.replace(/^ +/, ' ')}`);
  let held;
  try {
    const suppressed: SuppressMap = new Map();
    for (const file of args.suppress)
      for (const [e164, reason] of await readSuppressFile(file, args.country))
        if (!suppressed.has(e164)) suppressed.set(e164, reason);
    await addWorkspaceEntries(db, workspaceId, await uploadNumbers(out), suppressed);
    held = await holdBack(out, suppressed);
  } catch (error) {
    if (error instanceof Error && error.name === 'DeskFailure') return error.message;
    throw error;
  }
  if (held.total > 0) io.err(`campaign-desk launch: ${heldBackText(held)}`);
  const valid = report.valid - held.total;
  const invalid = report.rows - report.valid;
  if (valid === 0)
    return `${args.file}: no valid rows to call (${formatCount(invalid)} invalid or duplicate, ${formatCount(held.total)} on the do-not-call list)`;
  if (invalid > 0 && !args.removeInvalid)
    io.err(
      `campaign-desk launch: ${formatCount(invalid)} invalid or duplicate rows are left out (see ${join(dir, 'rejects.csv')})`,
    );
  const flow = flowFor(valid);
  const request = buildLaunchRequest({
    agentId: args.agent,
    name: args.name,
    countryCode: args.country,
    numberSource: args.pool ? { numberPoolId: args.pool } : { fromNumbers: args.from },
    start: args.start,
    end: args.end,
    callConfig: callConfigOf(args),
    ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
    removeInvalid: args.removeInvalid,
    transliterate: false,
    variablesMap: Object.fromEntries(args.map),
    fileName: basename(args.file),
    ...(args.acceptShortfall ? { acceptShortfall: true } : {}),
  });
  return { key, request, flow, out, valid, invalid, heldBack: held.total };
}

/** Record a prepared launch (state pending, at its first step) through the app's launch outbox. */
export function insertLaunch(
  db: DbClient,
  args: LaunchArgs,
  workspaceId: string,
  p: Prepared,
): Promise<StoredLaunch> {
  return enqueueLaunch(db, {
    id: randomUUID(),
    workspaceId,
    request: p.request,
    listId: null,
    draftId: null,
    launchKey: p.key,
    uploadFile: p.out,
    valid: p.valid,
    invalid: p.invalid,
    queued: false,
    at: new Date().toISOString(),
  });
}
