// `campaign-desk launch <file.csv> --data <dir> …`: clean a contacts file with the contacts engine
// and launch it as a campaign through the same launch outbox as the app (SQLite in --data). A re-run
// with the same --data, workspace, file content and name resumes that launch and never starts a
// second campaign.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { scheduleProblems } from '../../shared/domain/campaignSchedule.ts';
import { countryCodeSchema } from '../../shared/service/upload.ts';
import type { CallConfig } from '../../shared/service/callConfig.ts';
import { createApiClient } from '../services/api/index.ts';
import type { ApiClient } from '../services/api/index.ts';
import { runLaunch } from '../services/campaigns/launchRunner.ts';
import { firstStep, flowFor } from '../services/campaigns/launchRequest.ts';
import type { LaunchRequest } from '../services/campaigns/launchRequest.ts';
import { cleanFile } from '../services/contacts/engine/cleanFile.ts';
import { lockDataDir } from '../services/dataDirLock.ts';
import { openDbClient } from '../services/db/client.ts';
import type { DbClient } from '../services/db/client.ts';
import type { StoredLaunch } from '../services/db/queries/campaigns.ts';
import { KeychainSecretStore } from '../services/secrets/keychainSecretStore.ts';
import { API_KEY_ENV } from './agentsCommand.ts';
import { EXIT, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';

export const launchUsage = `Usage: campaign-desk launch <file.csv> --data <dir> (--workspace <name> | --base-url <url>)
    --agent <agent_id> --name <campaign name> (--pool <number_pool_id> | --from <id or E.164>...)
    --country <+91|IN> [--map var=Column]... --start "DD/MM/YYYY, HH:MM" --end "DD/MM/YYYY, HH:MM"
    --timezone <IANA> [--window HH:MM-HH:MM] [--retries n] [--concurrency 0-100]
    [--remove-invalid] [--report launch.json]

Cleans the file with the contacts engine, then launches it: 5,000 valid rows or more go through
upload-csv, upload status, balance check and make-call-async; fewer through campaign save and start.
Every step is kept in <dir>/campaign-desk.sqlite: running the same command again resumes the launch
and never starts a second campaign. With --base-url the key is read from ${API_KEY_ENV}; with
--workspace, from the OS keychain of the app's workspace of that name (in --data).
Prints the campaign's id (bulk_list_id or list id) on stdout once started.
Exit codes: 0 started, 1 refused (one line says why), 2 bad usage, 75 service unreachable (run again).`;

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
  report: string | undefined;
}

function parseLaunchArgs(argv: string[]): LaunchArgs | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
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
        report: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments',
    );
  }
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
    report: v.report,
  };
}

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

/** Clean the file into <data>/launches/<key>/ and record the launch (state pending). */
async function prepareLaunch(
  args: LaunchArgs,
  db: DbClient,
  workspaceId: string,
  key: string,
  io: Io,
): Promise<StoredLaunch | string> {
  const dir = join(args.data, 'launches', key.slice(0, 24));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
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
      onProgress: io.interactive
        ? (p) => io.status(`cleaning: ${p.rows.toLocaleString('en-US')} rows`)
        : undefined,
    });
  } catch (error) {
    if (io.interactive) io.status(null);
    if (error instanceof Error && error.name === 'DeskFailure') return error.message;
    throw error;
  }
  if (io.interactive) io.status(null);
  const valid = report.valid;
  const invalid = report.rows - report.valid;
  if (valid === 0) return `${args.file}: no valid rows to call (${invalid} invalid or duplicate)`;
  if (invalid > 0 && !args.removeInvalid)
    io.err(
      `campaign-desk launch: ${invalid} invalid or duplicate rows are left out (see ${join(dir, 'rejects.csv')})`,
    );
  const flow = flowFor(valid);
  const request: LaunchRequest = {
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
  };
  return db.call('campaigns.insertLaunch', {
    id: randomUUID(),
    workspace_id: workspaceId,
    launch_key: key,
    list_id: null,
    name: args.name,
    agent_id: args.agent,
    flow,
    state: 'pending',
    step: firstStep(flow),
    settings: JSON.stringify(request),
    upload_file: out,
    valid,
    invalid,
    created_at: new Date().toISOString(),
  });
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
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`);
  await rename(tmp, path);
}

export async function runLaunchCommand(argv: string[], io: Io): Promise<number> {
  const args = parseLaunchArgs(argv);
  if (args === 'help') {
    io.out(launchUsage);
    return EXIT.ok;
  }
  const problems = scheduleProblems(args.start, args.end, args.timezone, Date.now());
  if (problems.length > 0) throw new UsageError(problems.map((p) => p.message).join('; '));
  args.data = resolve(args.data);
  await mkdir(args.data, { recursive: true });
  // One process per data folder (the app or another launch): two runners must never share a launch.
  let lock;
  try {
    lock = lockDataDir(args.data);
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'DeskFailure') throw error;
    io.err(`campaign-desk launch: ${error.message}`);
    return EXIT.failed;
  }
  const db = await openDbClient({ file: join(args.data, 'campaign-desk.sqlite'), readLane: false }).catch(
    (e: unknown) => {
      lock.release();
      throw e;
    },
  );
  try {
    const conn = await connection(args, db);
    const key = createHash('sha256')
      .update(JSON.stringify([conn.workspaceId, await fileHash(args.file), args.name]))
      .digest('hex');
    let launch = await db.call('campaigns.launchByKey', { key });
    if (!launch) {
      const prepared = await prepareLaunch(args, db, conn.workspaceId, key, io);
      if (typeof prepared === 'string') {
        io.err(`campaign-desk launch: ${prepared}`);
        return EXIT.failed;
      }
      launch = prepared;
    } else if (launch.state === 'failed') {
      // A refusal (credits, a wrong field on the service) may be fixed since: try that step again.
      launch = await db.call('campaigns.patchLaunch', {
        id: launch.id,
        patch: { state: 'pending', message: null },
        at: new Date().toISOString(),
      });
    }
    if (!launch) throw new Error('the launch disappeared');
    const client: ApiClient = createApiClient({
      baseUrl: conn.baseUrl,
      apiKey: async () => conn.apiKey,
      timeoutMs: timeoutMs(),
      maxRetries: 2,
    });
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
    if (args.report) await writeReport(args.report, done, db);
    switch (done.state) {
      case 'started':
        io.out(done.service_id ?? '');
        return EXIT.ok;
      case 'waiting':
        io.err(
          `campaign-desk launch: ${done.message ?? 'the service is unreachable'}; run the same command again to resume`,
        );
        return EXIT.unavailable;
      default:
        io.err(
          `campaign-desk launch: ${(done.message ?? `the launch is ${done.state}`).replace(/\s+/g, ' ')}`,
        );
        return EXIT.failed;
    }
  } finally {
    await db.close();
    lock.release();
  }
}
