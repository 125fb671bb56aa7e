// The launch outbox's state machine. Each step writes a `sent` row before its request and a row
// after the answer (campaigns.recordStep: the timeline row and the launch's change in one
// transaction), so a crash, a quit or a lost connection resumes at the right step with the ids the
// service already gave (a finished upload or save is never redone).
//
//   large:    upload ─▶ upload-status (poll, backoff) ─▶ balance ─▶ make-call-async ─▶ started
//   standard: save ─▶ start ─▶ started
//   a start with no clear answer (timeout, reset, cut body, 5xx, or a `sent` row without an
//   answer after a crash) ─▶ verify-start: the listing and the call history by list say whether
//   it happened ─▶ started | back to the start step | needs-decision (the operator decides).
//
// The start request is sent at most once per list unless the service itself shows it did not start.
import { openAsBlob } from 'node:fs';
import type { ApiClient } from '../api/index.ts';
import { isApiError } from '../api/index.ts';
import type { ApiError } from '../api/index.ts';
import type { DbClient } from '../db/client.ts';
import type { LaunchPatch, StoredLaunch } from './launches.queries.ts';
import { explainApiError, isAmbiguous, isOffline } from './explainError.ts';
import { callsNotFittingOf, callsOfLaunch, launchRefusals } from './launchChecks.ts';
import { launchRequestSchema } from './launchRequest.ts';
import type { LaunchRequest } from './launchRequest.ts';
import { campaignCallConfigOf } from '../../../shared/service/callConfig.ts';
import { arrivalText, storeRejectsFile, storeSaveRefusals } from './serviceRefusals.ts';
import { formatAmount } from '../../../shared/domain/formatCount.ts';
import { holdBackSuppressed } from './uploadRecheck.ts';

export interface RunnerDeps {
  db: DbClient;
  client: ApiClient;
  /** Told after every change of the launch (UI event, CLI progress). */
  onChange?: (launch: StoredLaunch) => void;
  /** Upload status polling: first wait and cap (ms). */
  pollMs?: { first: number; max: number };
  /** Stop polling an upload after this long (ms) and leave the launch waiting. */
  pollLimitMs?: number;
  signal?: AbortSignal;
  /**
   * How long after an unanswered start to wait before asking the service (ms): a slow request may
   * still be processed after the client gave up. Default 5 s; set it to at least the request timeout.
   */
  settleMs?: number;
}

/** Test hook: `step:outcome` kills this process right after that timeline row is written. */
const CRASH_ENV = 'CAMPAIGN_DESK_TEST_CRASH_AFTER';

const startStepOf = (flow: StoredLaunch['flow']) => (flow === 'large' ? 'make-call-async' : 'start');

export async function runLaunch(deps: RunnerDeps, launchId: string): Promise<StoredLaunch> {
  const { db } = deps;
  const crashAfter = process.env[CRASH_ENV];

  const record = async (
    step: string,
    outcome: string,
    extra: { message?: string | null; httpStatus?: number | null; patch?: LaunchPatch } = {},
  ): Promise<StoredLaunch> => {
    const launch = await db.call('campaigns.recordStep', {
      launchId,
      step,
      outcome,
      at: new Date().toISOString(),
      ...extra,
    });
    deps.onChange?.(launch);
    if (crashAfter === `${step}:${outcome}`) process.kill(process.pid, 'SIGKILL');
    return launch;
  };
  const patch = async (p: LaunchPatch): Promise<StoredLaunch> => {
    const launch = await db.call('campaigns.patchLaunch', {
      id: launchId,
      patch: p,
      at: new Date().toISOString(),
    });
    if (!launch) throw new Error(`launch ${launchId} is gone`);
    deps.onChange?.(launch);
    return launch;
  };
  /** A failure of a step that does not start calls: refused → failed, offline → waiting. */
  const failed = (step: string, e: ApiError) =>
    isOffline(e)
      ? record(step, 'unreachable', {
          message: explainApiError(e),
          patch: { state: 'waiting', message: explainApiError(e) },
        })
      : record(step, 'refused', {
          message: explainApiError(e),
          httpStatus: e.status ?? null,
          patch: { state: 'failed', message: explainApiError(e) },
        });

  // A waiting launch is tried again once per run (start-up, reconnect, a CLI re-run); a step that
  // finds the service unreachable leaves it waiting and ends the run.
  const initial = await db.call('campaigns.launch', { id: launchId });
  if (initial?.state === 'waiting') await patch({ state: 'pending' });
  for (;;) {
    const launch = await db.call('campaigns.launch', { id: launchId });
    if (!launch) throw new Error(`launch ${launchId} is gone`);
    if (launch.state !== 'pending') return launch;
    if (deps.signal?.aborted) return launch;
    const req = launchRequestSchema.parse(JSON.parse(launch.settings));
    try {
      await runStep(launch, req);
    } catch (e) {
      if (!isApiError(e)) throw e;
      const step = launch.step;
      if (step === 'make-call-async' || step === 'start') throw e; // handled inside
      await failed(step, e);
    }
  }

  async function runStep(launch: StoredLaunch, req: LaunchRequest): Promise<void> {
    switch (launch.step) {
      case 'upload':
      case 'save': {
        const checked = await holdBackAtUpload(launch);
        if (checked.state !== 'pending' || (await refusedBeforeUpload(checked, req))) return;
        return upload(checked, req);
      }
      case 'upload-status':
        return pollUpload(launch);
      case 'balance': {
        const id = launch.bulk_list_id as string;
        await record('balance', 'sent');
        const b = await deps.client.checkBalance(id);
        const words =
          b.requiredCredits !== null && b.availableCredits !== null
            ? `${formatAmount(b.requiredCredits)} credits needed, ${formatAmount(b.availableCredits)} available`
            : (b.message ?? null);
        const short =
          b.sufficientBalance === false ||
          (b.sufficientBalance === null &&
            b.requiredCredits !== null &&
            b.availableCredits !== null &&
            b.requiredCredits > b.availableCredits);
        if (short) {
          const message = `Not enough credits for this campaign (${words ?? 'the service says the balance is too low'}). Add credits, then launch again.`;
          await record('balance', 'refused', { message, patch: { state: 'failed', message } });
          return;
        }
        await record('balance', 'ok', { message: words, patch: { step: 'make-call-async' } });
        return;
      }
      case 'make-call-async':
      case 'start':
        return start(launch, req);
      case 'verify-start':
        return verifyStart(launch);
      default:
        throw new Error(`unknown launch step ${launch.step}`);
    }
  }

  /**
   * The do-not-call list, checked again right before the upload: numbers added since the file was
   * written are taken out of it, and the timeline says how many.
   */
  async function holdBackAtUpload(launch: StoredLaunch): Promise<StoredLaunch> {
    const { removed, kept } = await holdBackSuppressed(db, launch.workspace_id, launch.upload_file);
    if (removed === 0) return launch;
    const message = `${removed.toLocaleString('en-US')} ${removed === 1 ? 'number was' : 'numbers were'} held back: on the do-not-call list since the file was written`;
    if (kept === 0)
      return record(launch.step, 'refused', {
        message: `${message}; no number is left to call`,
        patch: { state: 'failed', valid: 0, message: `${message}; no number is left to call` },
      });
    return record(launch.step, 'info', { message, patch: { valid: kept } });
  }

  /**
   * Credits and fit, asked right before anything is uploaded: a refusal names both figures and
   * leaves the service untouched. A service that does not answer leaves the launch waiting.
   */
  async function refusedBeforeUpload(launch: StoredLaunch, req: LaunchRequest): Promise<boolean> {
    const credits = (await deps.client.getWorkspaceInfo()).credits;
    const calls = callsOfLaunch(launch);
    const refusals = launchRefusals({
      calls,
      credits,
      callsNotFitting: callsNotFittingOf(req, calls, Date.now()),
      acceptShortfall: req.acceptShortfall ?? false,
    });
    if (refusals.length === 0) return false;
    const message = refusals.map((r) => r.message).join(' ');
    const step = refusals.some((r) => r.kind === 'credits') ? 'balance' : launch.step;
    await record(step, 'refused', { message, patch: { state: 'failed', message } });
    return true;
  }

  async function upload(launch: StoredLaunch, req: LaunchRequest): Promise<void> {
    const large = launch.flow === 'large';
    await record(launch.step, 'sent');
    const file = await openAsBlob(launch.upload_file, { type: 'text/csv' });
    const fields = {
      file,
      fileName: req.fileName,
      agent_id: req.agentId,
      campaign_name: req.name,
      country_code: req.countryCode,
      variables_map: req.variablesMap,
      campaign_start_time: req.start,
      campaign_end_time: req.end,
      call_config: req.callConfig,
      remove_invalid_rows: req.removeInvalid,
      transliterate_callee_name: req.transliterate,
    };
    if (large) {
      const up = await deps.client.uploadCampaignCsv(fields);
      await record('upload', 'ok', {
        message: up.message ?? `Uploaded; the service is checking the list (${up.status})`,
        patch: { bulk_list_id: up.bulkListId, step: 'upload-status' },
      });
    } else {
      const saved = await deps.client.saveCampaign(fields);
      const refused = saved.failed_rows ?? null;
      const arrived = saved.successful_rows ?? (refused === null ? null : launch.valid - refused);
      // The refused rows are stored before the step is recorded (storing them again is harmless).
      if (refused) await storeSaveRefusals(db, launch, saved.list_id, req.variablesMap, saved);
      const counts =
        arrived !== null && refused !== null ? arrivalText(arrived, refused, launch.predicted_refused) : null;
      await record('save', 'ok', {
        message: [saved.message, counts].filter(Boolean).join(': ') || null,
        patch: { service_list_id: saved.list_id, step: 'start', arrived, service_invalid: refused },
      });
    }
  }

  async function pollUpload(launch: StoredLaunch): Promise<void> {
    const id = launch.bulk_list_id as string;
    const { first, max } = deps.pollMs ?? { first: 500, max: 10_000 };
    const deadline = Date.now() + (deps.pollLimitMs ?? 30 * 60_000);
    let wait = first;
    for (;;) {
      const s = await deps.client.getUploadStatus(id);
      if (s.phase === 'done') {
        const invalid = s.invalidRows ?? null;
        const arrived = s.validRows ?? (invalid === null ? null : launch.valid - invalid);
        const unread = await readBack(launch, s.invalidRowsCsvUrl ?? null);
        const counts =
          arrived !== null && invalid !== null
            ? `: ${arrivalText(arrived, invalid, launch.predicted_refused)}`
            : '';
        await record('upload-status', 'ok', {
          message: `The service finished checking the list${counts}${unread}`,
          patch: {
            step: 'balance',
            service_invalid: invalid,
            arrived,
            rejects_url: s.invalidRowsCsvUrl ?? null,
          },
        });
        return;
      }
      if (s.phase === 'failed') {
        const unread = await readBack(launch, s.invalidRowsCsvUrl ?? null);
        const message = `The service could not process the list${s.message ? `: ${s.message}` : ''}${unread}`;
        await record('upload-status', 'refused', {
          message,
          patch: {
            state: 'failed',
            message,
            service_invalid: s.invalidRows ?? null,
            rejects_url: s.invalidRowsCsvUrl ?? null,
          },
        });
        return;
      }
      if (Date.now() > deadline || deps.signal?.aborted) {
        await patch({ state: 'waiting', message: 'The service is still processing the list' });
        return;
      }
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(max, Math.round(wait * 1.6));
    }
  }

  /**
   * Reads the service's rejects file and stores its rows against the list ('' when done or there
   * is none; else a sentence for the timeline: the launch goes on without it).
   */
  async function readBack(launch: StoredLaunch, url: string | null): Promise<string> {
    if (!url) return '';
    try {
      const csv = await deps.client.fetchInvalidRowsCsv(url);
      await storeRejectsFile(db, launch, launch.bulk_list_id as string, csv);
      return '';
    } catch (e) {
      if (!isApiError(e)) throw e;
      return `. The refused rows could not be read back: ${explainApiError(e)}`;
    }
  }

  async function start(launch: StoredLaunch, req: LaunchRequest): Promise<void> {
    const step = startStepOf(launch.flow);
    // A `sent` row with no answer after it: the process died while the start was in flight.
    const steps = await db.call('campaigns.steps', { launchId });
    const last = steps.at(-1);
    if (last && last.step === step && last.outcome === 'sent') {
      await record('verify-start', 'info', {
        message: 'The app stopped while the start was being sent; asking the service whether it started',
        patch: { step: 'verify-start' },
      });
      return;
    }
    await record(step, 'sent');
    try {
      if (launch.flow === 'large') {
        const source =
          'fromNumbers' in req.numberSource
            ? { from_numbers: req.numberSource.fromNumbers }
            : { number_pool_id: req.numberSource.numberPoolId };
        const r = await deps.client.makeCallAsync({
          bulk_list_id: launch.bulk_list_id as string,
          agent_id: req.agentId,
          ...source,
          country_code: req.countryCode,
          campaign_start_time: req.start,
          campaign_end_time: req.end,
          call_config: campaignCallConfigOf(req.callConfig),
          ...(req.concurrency !== undefined ? { concurrency_percentage: req.concurrency } : {}),
          ...(req.callbackUrl ? { callback_url: req.callbackUrl } : {}),
        });
        await record(step, 'ok', {
          message: r.message ?? r.status,
          patch: { state: 'started', message: null },
        });
      } else {
        const listId = launch.service_list_id as string;
        const r =
          'fromNumbers' in req.numberSource
            ? await deps.client.startCampaign({
                agent_id: req.agentId,
                list_id: listId,
                from_numbers: req.numberSource.fromNumbers,
              })
            : await deps.client.startCampaignV2({
                agent_id: req.agentId,
                list_id: listId,
                number_pool_id: req.numberSource.numberPoolId,
                ...(req.callbackUrl ? { callback_url: req.callbackUrl } : {}),
              });
        await record(step, 'ok', { message: r.status, patch: { state: 'started', message: null } });
      }
    } catch (e) {
      if (!isApiError(e)) throw e;
      if (isAmbiguous(e)) {
        await record(step, 'ambiguous', {
          message: `No clear answer to the start (${explainApiError(e)}); asking the service whether it started`,
          httpStatus: e.status ?? null,
          patch: { step: 'verify-start' },
        });
        return;
      }
      const steps = await db.call('campaigns.steps', { launchId });
      const triedBefore = steps.some((s) => s.step === step && s.outcome === 'ambiguous');
      if (e.status === 409 && triedBefore) {
        await record(step, 'ok', {
          message: `The service says the campaign was already started: ${explainApiError(e)}`,
          httpStatus: 409,
          patch: { state: 'started', message: null },
        });
        return;
      }
      await failed(step, e);
    }
  }

  /** Ask the service whether the list was started; send again only when it clearly was not. */
  async function verifyStart(launch: StoredLaunch): Promise<void> {
    const id = launch.service_id as string;
    const steps = await db.call('campaigns.steps', { launchId });
    const lastStartAt = steps.findLast((s) => s.step === startStepOf(launch.flow))?.at;
    const settleUntil = lastStartAt ? Date.parse(lastStartAt) + (deps.settleMs ?? 5_000) : 0;
    if (settleUntil > Date.now()) await new Promise((r) => setTimeout(r, settleUntil - Date.now()));
    let listed: { status: string | null } | null;
    let calls: number;
    try {
      listed = await findInListing(deps.client, id);
      calls = await countCalls(deps.client, id, launch.created_at);
    } catch (e) {
      if (!isApiError(e)) throw e;
      if (isOffline(e)) {
        await record('verify-start', 'unreachable', {
          message: explainApiError(e),
          patch: { state: 'waiting', message: 'Waiting for the service to say whether the campaign started' },
        });
        return;
      }
      return cannotTell(`the service answered: ${explainApiError(e)}`);
    }
    const status = listed?.status?.toLowerCase() ?? null;
    if (calls > 0 || (status !== null && status !== 'draft' && status !== 'failed')) {
      await record('verify-start', 'ok', {
        message: `The service shows the campaign started (${status ?? 'listing silent'}, ${calls > 0 ? 'calls exist' : 'no calls yet'})`,
        patch: { state: 'started', message: null },
      });
      return;
    }
    if (status === 'draft' && calls === 0) {
      await record('verify-start', 'info', {
        message: 'The service shows the campaign did not start; sending the start again',
        patch: { step: startStepOf(launch.flow) },
      });
      return;
    }
    return cannotTell(
      listed ? `the listing says "${status ?? 'nothing'}"` : 'the listing does not show the list',
    );
  }

  async function cannotTell(why: string): Promise<void> {
    const message = `The service cannot tell whether this campaign started (${why}). Check it on the service, then choose "Send the start again" or "Mark as started".`;
    await record('verify-start', 'info', { message, patch: { state: 'needs-decision', message } });
  }
}

/** The campaign with this list id in the service's listing (every page), or null. */
export async function findInListing(
  client: ApiClient,
  serviceId: string,
): Promise<{ status: string | null } | null> {
  const limit = 100;
  for (let offset = 0; offset < 10_000; offset += limit) {
    const page = await client.listCampaigns({ limit, offset, callCount: false });
    const hit = page.campaigns.find((c) => c.id === serviceId || c.bulk_list_id === serviceId);
    if (hit) return { status: hit.campaign_status ?? null };
    if (page.campaigns.length < limit) return null;
  }
  return null;
}

/** Calls of a list in the history, over an explicit window from a day before the launch to a year on. */
export async function countCalls(client: ApiClient, serviceId: string, since: string): Promise<number> {
  const from = Date.parse(since) - 86_400_000;
  const page = await client.listCallHistory({
    bulk_list_id: serviceId,
    start_date: new Date(from).toISOString(),
    end_date: new Date(Date.now() + 366 * 86_400_000).toISOString(),
    limit: 1,
    offset: 0,
  });
  return page.total ?? page.calls.length;
}
