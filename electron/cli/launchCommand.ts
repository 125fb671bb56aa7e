// `campaign-desk launch <file.csv> --data <dir> …`: clean a contacts file with the contacts engine
// and launch it as a campaign through the same launch outbox as the app (SQLite in --data). A re-run
// with the same --data, workspace, API key, file content and name resumes that launch and never
// starts a second campaign. A launch the service refused is tried again with the re-run's options.
import { join, resolve } from 'node:path';
import { createApiClient } from '../services/api/index.ts';
import type { ApiClient } from '../services/api/index.ts';
import { serviceCredits } from '../services/campaigns/credits.ts';
import { runLaunch } from '../services/campaigns/launchRunner.ts';
import { overlapsOf, uploadFileNumbers } from '../services/campaigns/overlaps.ts';
import { hoursWarningOf } from '../services/campaigns/validateSettings.ts';
import { callConfigDefaults } from '../../shared/domain/callConfig.ts';
import { startLabel, summaryFromRequest, summaryLines } from '../services/campaigns/launchSummary.ts';
import type { LaunchSummary } from '../../shared/ipc/channels/campaigns.ts';
import { createAtomicFile } from '../services/files/atomicFile.ts';
import { checkInput } from '../services/contacts/engine/checkInput.ts';
import { preparePrivateDataDir } from '../services/dataDir.ts';
import { lockDataDir } from '../services/dataDirLock.ts';
import { openCliDb } from './upgradeProgress.ts';
import type { DbClient } from '../services/db/client.ts';
import type { StoredLaunch } from '../services/campaigns/launches.queries.ts';
import { toTimelineEntry } from '../services/campaigns/launchView.ts';
import { KeychainSecretStore } from '../services/secrets/keychainSecretStore.ts';
import { API_KEY_ENV } from './agentsCommand.ts';
import { DeskFailure } from '../../shared/ipc/result.ts';
import { EXIT, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';
import { terminalText } from '../../shared/domain/visibleText.ts';
import { scheduleProblems } from '../../shared/domain/campaignSchedule.ts';
import { launchUsage, parseLaunchArgs, timeoutMs } from './launch/launchArgs.ts';
import type { LaunchArgs } from './launch/launchArgs.ts';
import { fileHash, launchKeyOf, legacyLaunchKeyOf } from './launch/launchKey.ts';
import { launchToRun } from './launch/resumeLaunch.ts';
import type { Confirm } from './launch/resumeLaunch.ts';

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
    steps: steps.map(toTimelineEntry),
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
    db = await openCliDb(join(args.data, 'campaign-desk.sqlite'), io);
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
      const credits = await serviceCredits(quick).catch(() => null);
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
