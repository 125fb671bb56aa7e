// Which launch a run of the command continues: the one of its resume key as it stands, the
// refused one tried again at its failed step, or a new attempt (after the operator confirms).
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { startMayHaveHappened } from '../../services/campaigns/launchOutbox.ts';
import type { StoredLaunch } from '../../services/campaigns/launches.queries.ts';
import { storedLaunchRequest } from '../../services/campaigns/launchRequest.ts';
import type { LaunchRequest } from '../../services/campaigns/launchRequest.ts';
import type { DbClient } from '../../services/db/client.ts';
import type { Io } from '../io.ts';
import type { LaunchArgs } from './launchArgs.ts';
import { attemptKey, fileHashOrNull } from './launchKey.ts';
import { insertLaunch, prepareLaunch } from './prepareUpload.ts';

/** What is confirmed: the request, its rows, and its upload file (its numbers give the overlaps). */
export interface ToConfirm {
  request: LaunchRequest;
  valid: number;
  invalid: number;
  uploadFile: string;
  /** The refused launch this run tries again (not an overlap of itself); null for a new one. */
  launchId: string | null;
  /** Rows held back: their number is on the do-not-call list. */
  heldBack?: number;
}

/** The operator's answer to the summary: start, do not, or no terminal to ask on (needs --yes). */
export type Confirm = (what: ToConfirm) => Promise<'yes' | 'no'>;

/**
 * The launch this command continues, or a new one. Attempts of one resume key are chained (key,
 * then attemptKey(key, 1), …): a launch in any state but failed is resumed exactly as it stands
 * (pending, waiting, started, needs-decision: its stored request and upload, so it starts once).
 * After a refusal (failed: the service said no and nothing started) the file is cleaned again with
 * this run's options; the refused launch is tried again at the step it failed only when its
 * options and upload are the same and the service already holds its list (a balance or a start
 * refused), or when a start of it was ever unanswered (its list may have started: never a second
 * list then); otherwise a new attempt, with the new request and upload, takes over.
 */
export async function launchToRun(
  args: LaunchArgs,
  db: DbClient,
  workspaceId: string,
  key: string,
  legacyKey: string,
  io: Io,
  confirm: Confirm,
): Promise<StoredLaunch | string> {
  /** Asks before a send; a prepared upload nobody confirmed is removed. */
  const confirmed = async (p: ToConfirm & { out?: string }) => {
    let answer: 'yes' | 'no';
    try {
      answer = await confirm(p);
    } catch (error) {
      if (p.out) await rm(dirname(p.out), { recursive: true, force: true });
      throw error;
    }
    if (answer === 'no' && p.out) await rm(dirname(p.out), { recursive: true, force: true });
    return answer === 'yes';
  };
  const notConfirmed = 'not started: the calls were not confirmed (nothing was sent)';
  let refused: StoredLaunch | null = null;
  let n = 0;
  for (; ; n++) {
    const found = await db.call('campaigns.launchByKey', { key: attemptKey(key, n) });
    if (!found) break;
    if (found.state !== 'failed') return found;
    refused = found;
  }
  if (!refused) {
    const older = await db.call('campaigns.launchByKey', { key: legacyKey });
    if (older && older.state !== 'failed') return older;
    const prepared = await prepareLaunch(args, attemptKey(key, 0), io, db, workspaceId);
    if (typeof prepared === 'string') return prepared;
    if (!(await confirmed({ ...prepared, uploadFile: prepared.out, launchId: null }))) return notConfirmed;
    return insertLaunch(db, args, workspaceId, prepared);
  }
  const retryStep = async (launch: StoredLaunch) =>
    (await db.call('campaigns.patchLaunch', {
      id: launch.id,
      patch: { state: 'pending', message: null },
      at: new Date().toISOString(),
    })) ?? 'the launch disappeared';
  const steps = await db.call('campaigns.steps', { launchId: refused.id });
  if (startMayHaveHappened(steps)) {
    const request = storedLaunchRequest(refused.settings);
    const again = {
      request,
      valid: refused.valid,
      invalid: refused.invalid,
      uploadFile: refused.upload_file,
      launchId: refused.id,
    };
    if (!(await confirmed(again))) return notConfirmed;
    return retryStep(refused);
  }
  const prepared = await prepareLaunch(args, attemptKey(key, n), io, db, workspaceId);
  if (typeof prepared === 'string') return prepared;
  const listKept =
    refused.step === 'balance' || refused.step === 'start' || refused.step === 'make-call-async';
  if (
    listKept &&
    prepared.flow === refused.flow &&
    JSON.stringify(prepared.request) === refused.settings &&
    (await fileHashOrNull(prepared.out)) === (await fileHashOrNull(refused.upload_file))
  ) {
    await rm(dirname(prepared.out), { recursive: true, force: true });
    const { out: _removed, ...same } = prepared;
    const again = { ...same, uploadFile: refused.upload_file, launchId: refused.id };
    if (!(await confirmed(again))) return notConfirmed;
    return retryStep(refused);
  }
  if (!(await confirmed({ ...prepared, uploadFile: prepared.out, launchId: refused.id })))
    return notConfirmed;
  return insertLaunch(db, args, workspaceId, prepared);
}
