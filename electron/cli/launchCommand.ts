// `campaign-desk launch <file.csv> --data <dir> …`: clean a contacts file with the contacts engine
// and launch it as a campaign through the same launch outbox as the app (SQLite in --data). A re-run
// with the same --data, workspace, API key, file content and name resumes that launch and never
// starts a second campaign. A launch the service refused is tried again with the re-run's options.
import { terminalText } from '../../shared/domain/visibleText.ts';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { scheduleProblems } from '../../shared/domain/campaignSchedule.ts';
import { countryCodeSchema } from '../../shared/service/upload.ts';
import type { CallConfig } from '../../shared/service/callConfig.ts';
import { createApiClient } from '../services/api/index.ts';
import type { ApiClient } from '../services/api/index.ts';
import { runLaunch } from '../services/campaigns/launchRunner.ts';
import { overlapsOf, uploadFileNumbers } from '../services/campaigns/overlaps.ts';
import { hoursWarningOf } from '../services/campaigns/validateSettings.ts';
import { CALL_PURPOSES } from '../../shared/domain/callingHours.ts';
import type { CallPurpose } from '../../shared/domain/callingHours.ts';
import { callConfigDefaults } from '../../shared/domain/callConfig.ts';
import {
  buildLaunchRequest,
  enqueueLaunch,
  startMayHaveHappened,
} from '../services/campaigns/launchOutbox.ts';
import { flowFor } from '../services/campaigns/launchRequest.ts';
import type { LaunchRequest } from '../services/campaigns/launchRequest.ts';
import { startLabel, summaryFromRequest, summaryLines } from '../services/campaigns/launchSummary.ts';
import type { LaunchSummary } from '../../shared/ipc/channels/campaigns.ts';
import { createAtomicFile } from '../services/contacts/engine/atomicFile.ts';
import { checkInput } from '../services/contacts/engine/checkInput.ts';
import { cleanFile } from '../services/contacts/engine/cleanFile.ts';
import { preparePrivateDataDir } from '../services/dataDir.ts';
import { lockDataDir } from '../services/dataDirLock.ts';
import { openDbClient } from '../services/db/client.ts';
import type { DbClient } from '../services/db/client.ts';
import {
  addWorkspaceEntries,
  heldBackText,
  holdBack,
  readSuppressFile,
  uploadNumbers,
} from './suppressList.ts';
import type { SuppressMap } from './suppressList.ts';
import type { StoredLaunch } from '../services/campaigns/launches.queries.ts';
import { KeychainSecretStore } from '../services/secrets/keychainSecretStore.ts';
import { API_KEY_ENV } from './agentsCommand.ts';
import { DeskFailure } from '../../shared/ipc/result.ts';
import { detectionNotes } from './cleanCommand.ts';
import { EXIT, parseCommandLine, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';
import { formatCount } from '../../shared/domain/formatCount.ts';

export const launchUsage = `Usage: campaign-desk launch <file.csv> --data <dir> (--workspace <name> | --base-url <url>)
    --agent <agent_id> --name <campaign name> (--pool <number_pool_id> | --from <id or E.164>...)
    --country <+91|IN> [--map var=Column]... --start "DD/MM/YYYY, HH:MM" --end "DD/MM/YYYY, HH:MM"
    --timezone <IANA> [--window HH:MM-HH:MM] [--retries n] [--concurrency 0-100]
    [--purpose promotional|loan-recovery|other] [--accept-hours]
    [--remove-invalid] [--accept-shortfall] [--suppress <do-not-call file>]... [--report launch.json] [--yes]

Cleans the file with the contacts engine, then launches it: 5,000 valid rows or more go through
upload-csv, upload status, balance check and make-call-async; fewer through campaign save and start.
Every step is kept in <dir>/campaign-desk.sqlite: running the same command again (same file, name
and API key) resumes the launch and never starts a second campaign; a launch the service refused is
tried again with the new command's options. Before anything is sent it prints what will go out
(campaign, file, calls, credits, window, start and end, caller numbers, agent and its name, and
the contacts also in campaigns running or run in the last 7 days in --data) and asks to start the
calls (y/N); where stdin is not a terminal (a script) --yes is needed.
--purpose (default other) picks the recipients' permitted calling hours, as the app's Purpose does
(India: promotional 09:00-21:00, loan-recovery 08:00-19:00, local time): a daily window outside
them is a warning to acknowledge: asked on a terminal, --accept-hours where stdin is not one.
With --base-url the key is read from ${API_KEY_ENV};
with --workspace, from the OS keychain of the app's workspace of that name (in --data).
Numbers on the do-not-call list are held back (the summary counts them): those of each --suppress file
(CSV or .xlsx, read as contact lists are), of the --workspace's list and of the shared list in --data,
checked again right before the upload.
Before anything is uploaded, a launch needing more credits than the workspace has is refused (both
figures said), and so is one whose calls cannot all fit before --end unless --accept-shortfall.
Prints the campaign's id (bulk_list_id or list id) on stdout once started.
Exit codes: 0 started, 1 refused, not confirmed or the file cannot be read (one line says why),
2 bad usage (--yes or --accept-hours missing off a terminal),
3 the service cannot tell whether it started (check it on the service; a re-run never sends the
start again), 75 service unreachable (run again).`;

/** Request timeout; CAMPAIGN_DESK_TIMEOUT_MS shortens it (tests inject slow answers). */
const timeoutMs = (): number => {
  const n = Number(process.env.CAMPAIGN_DESK_TIMEOUT_MS);
  return Number.isInteger(n) && n > 0 ? n : 20_000;
};
const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

interface LaunchArgs {
  file: string;
  data: string;
  workspace: string | undefined;
  baseUrl: string | undefined;
  agent: string;
  name: string;
  pool: string | undefined;
  from: string[];
  country: string;
  map: Array<[string, string]>;
  start: string;
  end: string;
  timezone: string;
  window: [string, string] | null;
  retries: number | undefined;
  concurrency: number | undefined;
  removeInvalid: boolean;
  acceptShortfall: boolean;
  purpose: CallPurpose;
  acceptHours: boolean;
  report: string | undefined;
  yes: boolean;
  suppress: string[];
}

function parseLaunchArgs(argv: string[]): LaunchArgs | 'help' {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      data: { type: 'string' },
      workspace: { type: 'string' },
      'base-url': { type: 'string' },
      agent: { type: 'string' },
      name: { type: 'string' },
      pool: { type: 'string' },
      from: { type: 'string', multiple: true },
      country: { type: 'string' },
      map: { type: 'string', multiple: true },
      start: { type: 'string' },
      end: { type: 'string' },
      timezone: { type: 'string' },
      window: { type: 'string' },
      retries: { type: 'string' },
      concurrency: { type: 'string' },
      'remove-invalid': { type: 'boolean', default: false },
      'accept-shortfall': { type: 'boolean', default: false },
      purpose: { type: 'string' },
      'accept-hours': { type: 'boolean', default: false },
      report: { type: 'string' },
      suppress: { type: 'string', multiple: true },
      yes: { type: 'boolean', short: 'y', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  if (positionals.length !== 1) throw new UsageError('name one CSV file to launch');
  const required = (name: 'data' | 'agent' | 'name' | 'country' | 'start' | 'end' | 'timezone'): string => {
    const value = v[name]?.trim();
    if (!value) throw new UsageError(`--${name} is required`);
    return value;
  };
  if ((v.workspace === undefined) === (v['base-url'] === undefined))
    throw new UsageError('give exactly one of --workspace <name> or --base-url <url>');
  if (v['base-url'] !== undefined && !/^https?:\/\//i.test(v['base-url']))
    throw new UsageError('--base-url must start with http:// or https:// and end in /v0');
  const from = v.from ?? [];
  if ((v.pool === undefined) === (from.length === 0))
    throw new UsageError('give exactly one number source: --pool <number_pool_id> or --from <number>...');
  const country = required('country');
  if (!countryCodeSchema.safeParse(country).success)
    throw new UsageError(
      `--country must be a dialing prefix such as +91 or a code such as IN (got "${country}")`,
    );
  let window: [string, string] | null = null;
  if (v.window !== undefined) {
    const [a, b] = v.window.split('-');
    if (!a || !b || !hhmm.test(a) || !hhmm.test(b))
      throw new UsageError(`--window must be HH:MM-HH:MM such as 09:00-18:00 (got "${v.window}")`);
    window = [a, b];
  }
  const int = (name: string, text: string | undefined, max: number): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || Number(text) > max)
      throw new UsageError(`--${name} must be a whole number from 0 to ${max}`);
    return Number(text);
  };
  const purpose = v.purpose ?? 'other';
  if (!(CALL_PURPOSES as readonly string[]).includes(purpose))
    throw new UsageError(`--purpose must be one of ${CALL_PURPOSES.join(', ')} (got "${purpose}")`);
  const map = (v.map ?? []).map((entry): [string, string] => {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) throw new UsageError(`--map needs var=Column (got "${entry}")`);
    return [entry.slice(0, eq).trim(), entry.slice(eq + 1)];
  });
  return {
    file: positionals[0] as string,
    data: required('data'),
    workspace: v.workspace,
    baseUrl: v['base-url'],
    agent: required('agent'),
    name: required('name'),
    pool: v.pool,
    from,
    country,
    map,
    start: required('start'),
    end: required('end'),
    timezone: required('timezone'),
    window,
    retries: int('retries', v.retries, 10),
    concurrency: int('concurrency', v.concurrency, 100),
    removeInvalid: v['remove-invalid'] ?? false,
    acceptShortfall: v['accept-shortfall'] ?? false,
    purpose: purpose as CallPurpose,
    acceptHours: v['accept-hours'] ?? false,
    report: v.report,
    yes: v.yes ?? false,
    suppress: v.suppress ?? [],
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Which API key (so which account) a launch runs with: 16 hex digits of its sha256, never the key. */
export const apiKeyFingerprint = (apiKey: string): string => sha256(apiKey).slice(0, 16);

/**
 * The resume key of a launch: the workspace (`url:<base URL>` without trailing slashes, or the app
 * workspace's id), the file's content, the campaign name and the API key's fingerprint. The same
 * command with another account's key is another launch.
 */
export function launchKeyOf(a: {
  workspaceId: string;
  fileSha256: string;
  name: string;
  apiKey: string;
}): string {
  return sha256(JSON.stringify([a.workspaceId, a.fileSha256, a.name, apiKeyFingerprint(a.apiKey)]));
}

/**
 * The resume key builds before the API key's fingerprint was part of it used (workspace, file,
 * name). A launch recorded under it by an older build is still resumed, never started twice.
 */
export const legacyLaunchKeyOf = (a: { workspaceId: string; fileSha256: string; name: string }): string =>
  sha256(JSON.stringify([a.workspaceId, a.fileSha256, a.name]));

/** The key of the n-th attempt at a launch (n > 0 after the service refused the ones before). */
const attemptKey = (key: string, n: number): string => (n === 0 ? key : sha256(`${key}#${n}`));

async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The service root and key: --base-url + the environment, or an app workspace + the keychain. */
async function connection(
  args: LaunchArgs,
  db: DbClient,
): Promise<{ workspaceId: string; baseUrl: string; apiKey: string }> {
  if (args.baseUrl) {
    const apiKey = process.env[API_KEY_ENV];
    if (!apiKey) throw new UsageError(`set ${API_KEY_ENV} to the workspace's API key`);
    return { workspaceId: `url:${args.baseUrl.replace(/\/+$/, '')}`, baseUrl: args.baseUrl, apiKey };
  }
  const { workspaces } = await db.call('workspaces.list', {});
  const ws = workspaces.find((w) => w.name.toLowerCase() === args.workspace?.toLowerCase());
  if (!ws) throw new UsageError(`no workspace named "${args.workspace}" in ${args.data}`);
  const keychain = await KeychainSecretStore.open();
  const apiKey = await keychain.get(ws.id, 'apiKey');
  if (!apiKey) throw new UsageError(`the keychain holds no API key for workspace "${ws.name}"`);
  return { workspaceId: ws.id, baseUrl: ws.baseUrl, apiKey };
}

function callConfigOf(args: LaunchArgs): CallConfig {
  return {
    call_time: {
      timezone: args.timezone,
      ...(args.window ? { call_start_time: args.window[0], call_end_time: args.window[1] } : {}),
    },
    ...(args.retries !== undefined ? { call_retry_config: { retry_count: args.retries } } : {}),
  };
}

interface Prepared {
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
async function prepareLaunch(
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
function insertLaunch(
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

/** What is confirmed: the request, its rows, and its upload file (its numbers give the overlaps). */
interface ToConfirm {
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
type Confirm = (what: ToConfirm) => Promise<'yes' | 'no'>;

const fileHashOrNull = (path: string): Promise<string | null> => fileHash(path).catch(() => null);

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
async function launchToRun(
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
    const request = JSON.parse(refused.settings) as LaunchRequest;
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

async function writeReport(path: string, launch: StoredLaunch, db: DbClient): Promise<void> {
  const steps = await db.call('campaigns.steps', { launchId: launch.id });
  const body = {
    flow: launch.flow,
    id: launch.service_id,
    status: launch.state,
    valid: launch.valid,
    invalid: launch.invalid,
    serviceInvalid: launch.service_invalid,
    rejectsUrl: launch.rejects_url,
    message: launch.message,
    steps: steps.map((s) => ({
      step: s.step,
      outcome: s.outcome,
      at: s.at,
      message: s.message,
      httpStatus: s.http_status,
    })),
  };
  const file = await createAtomicFile(path);
  try {
    await file.write(`${JSON.stringify(body, null, 2)}\n`);
    await file.commit();
  } finally {
    await file.discard();
  }
}

export async function runLaunchCommand(argv: string[], io: Io): Promise<number> {
  const args = parseLaunchArgs(argv);
  if (args === 'help') {
    io.out(launchUsage);
    return EXIT.ok;
  }
  const problems = scheduleProblems(args.start, args.end, args.timezone, Date.now());
  if (problems.length > 0) throw new UsageError(problems.map((p) => p.message).join('; '));
  // Outside the recipients' permitted hours: the app's warning, acknowledged before anything runs.
  const hoursWarning = hoursWarningOf(
    {
      countryCode: args.country,
      purpose: args.purpose,
      windowStart: args.window?.[0] ?? callConfigDefaults.callStartTime,
      windowEnd: args.window?.[1] ?? callConfigDefaults.callEndTime,
      timezone: args.timezone,
      start: args.start,
    },
    Date.now(),
  );
  if (hoursWarning) {
    io.err(`campaign-desk launch: calling hours: ${hoursWarning}`);
    if (!args.acceptHours) {
      const answer = await io.ask('Call at these hours anyway? [y/N] ');
      if (answer === null)
        throw new UsageError(
          'stdin is not a terminal: add --accept-hours to confirm these calls may be made at these hours, or change --window (nothing was sent)',
        );
      if (!/^\s*y(es)?\s*$/i.test(answer)) {
        io.err('campaign-desk launch: not started: the calling hours were not confirmed (nothing was sent)');
        return EXIT.failed;
      }
    }
  }
  const input = await checkInput(args.file, []);
  if (!input.ok) {
    io.err(`campaign-desk launch: ${terminalText(input.message)}`);
    return EXIT.failed;
  }
  args.data = resolve(args.data);
  preparePrivateDataDir(args.data);
  // One process per data folder (the app or another launch): two runners must never share a launch.
  let lock;
  try {
    lock = lockDataDir(args.data);
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'DeskFailure') throw error;
    io.err(`campaign-desk launch: ${terminalText(error.message)}`);
    return EXIT.failed;
  }
  let db: DbClient;
  try {
    db = await openDbClient({ file: join(args.data, 'campaign-desk.sqlite'), readLane: false });
  } catch (error) {
    lock.release();
    if (!(error instanceof DeskFailure)) throw error;
    io.err(`campaign-desk launch: ${terminalText(error.message)}`);
    return EXIT.failed;
  }
  try {
    const conn = await connection(args, db);
    let fileSha256;
    try {
      fileSha256 = await fileHash(args.file);
    } catch (error) {
      io.err(
        `campaign-desk launch: ${args.file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      return EXIT.failed;
    }
    const key = launchKeyOf({
      workspaceId: conn.workspaceId,
      fileSha256,
      name: args.name,
      apiKey: conn.apiKey,
    });
    const legacyKey = legacyLaunchKeyOf({ workspaceId: conn.workspaceId, fileSha256, name: args.name });
    const client: ApiClient = createApiClient({
      baseUrl: conn.baseUrl,
      apiKey: async () => conn.apiKey,
      timeoutMs: timeoutMs(),
      maxRetries: 2,
    });
    const confirm: Confirm = async ({ request, valid, uploadFile, launchId, heldBack }) => {
      // The balance and the agent's name (reads, once, short): an unreachable service leaves them unknown.
      const quick = createApiClient({
        baseUrl: conn.baseUrl,
        apiKey: async () => conn.apiKey,
        timeoutMs: Math.min(timeoutMs(), 5_000),
        maxRetries: 0,
      });
      const credits = await quick.getWorkspaceInfo().then(
        (w) => w.credits,
        () => null,
      );
      const agentName =
        (await db.call('agents.get', { workspaceId: conn.workspaceId, agentId: request.agentId }))?.name ??
        (await quick.getAgent(request.agentId).then(
          (a) => a.name,
          () => null,
        ));
      // Who is called again: the app's overlap count, over this data folder's campaigns.
      const numbers = await uploadFileNumbers(uploadFile);
      const overlaps = numbers
        ? await overlapsOf(db, {
            workspaceId: conn.workspaceId,
            source: { numbers },
            launchId,
            nowMs: Date.now(),
          })
        : null;
      const summary: LaunchSummary = summaryFromRequest({
        request,
        list: args.file,
        calls: valid,
        creditsAvailable: credits,
        agentName,
        overlaps,
        hoursWarning,
        nowMs: Date.now(),
      });
      if (heldBack !== undefined) summary.heldBack = heldBack;
      for (const line of summaryLines(summary)) io.err(line);
      if (args.yes) return 'yes';
      const answer = await io.ask(`${startLabel(valid)}? [y/N] `);
      if (answer === null)
        throw new UsageError('stdin is not a terminal: add --yes to start these calls (nothing was sent)');
      return /^\s*y(es)?\s*$/i.test(answer) ? 'yes' : 'no';
    };
    const launch = await launchToRun(args, db, conn.workspaceId, key, legacyKey, io, confirm);
    if (typeof launch === 'string') {
      io.err(`campaign-desk launch: ${terminalText(launch)}`);
      return EXIT.failed;
    }
    const done = await runLaunch(
      {
        db,
        client,
        settleMs: timeoutMs(),
        onChange: (l) => {
          if (io.interactive) io.status(`${l.flow} launch: ${l.step} (${l.state})`);
        },
      },
      launch.id,
    );
    if (io.interactive) io.status(null);
    // The launch's outcome is said whatever happens to the report; a report that cannot be written
    // is said too and turns exit 0 into 1 (a re-run resumes and writes it).
    let reportProblem: string | null = null;
    if (args.report)
      reportProblem = await writeReport(args.report, done, db).then(
        () => null,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    const code = outcome(done, io);
    if (reportProblem)
      io.err(`campaign-desk launch: the report was not written: ${terminalText(reportProblem)}`);
    return reportProblem && code === EXIT.ok ? EXIT.failed : code;
  } finally {
    await db.close();
    lock.release();
  }
}

/** Says how the launch stands (the id on stdout once started, else one line) and its exit code. */
function outcome(done: StoredLaunch, io: Io): number {
  // The messages are the service's: its controls are made visible.
  const say = (text: string) => io.err(`campaign-desk launch: ${terminalText(text.replace(/\s+/g, ' '))}`);
  switch (done.state) {
    case 'started':
      io.out(terminalText(done.service_id ?? ''));
      return EXIT.ok;
    case 'waiting':
      say(`${done.message ?? 'the service is unreachable'}; run the same command again to resume`);
      return EXIT.unavailable;
    case 'needs-decision':
      say(done.message ?? 'the service cannot tell whether this campaign started');
      return EXIT.undecided;
    default:
      say(done.message ?? `the launch is ${done.state}`);
      return EXIT.failed;
  }
}
