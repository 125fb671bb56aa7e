// `campaign-desk sync` and `campaign-desk calls export`: the history sync and the calls CSV over the
// same services as the app, on a data folder (the app's own, or one of their own). The API key
// comes from CAMPAIGN_DESK_API_KEY with --base-url, from the OS keychain with --workspace; never
// from a flag.
import { terminalText } from '../../shared/domain/visibleText.ts';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DeskFailure } from '../../shared/ipc/result.ts';
import { createApiClient } from '../services/api/client.ts';
import { writeCallsCsv } from '../services/calls/exportCalls.ts';
import { createAtomicFile } from '../services/files/atomicFile.ts';
import { preparePrivateDataDir } from '../services/dataDir.ts';
import { lockDataDir } from '../services/dataDirLock.ts';
import { openCliDb } from './upgradeProgress.ts';
import type { DbClient } from '../services/db/client.ts';
import { DATABASE_FILE_NAME } from '../services/db/openDatabase.ts';
import { KeychainSecretStore } from '../services/secrets/keychainSecretStore.ts';
import { maxInFlightSchema } from '../services/sync/inFlightSetting.ts';
import { runWorkspaceSync } from '../services/sync/workspaceSync.ts';
import { EXIT, parseCommandLine, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';
import { formatCount } from '../../shared/domain/formatCount.ts';

/** Counts as the OS locale writes them. */
const n = formatCount;

export const API_KEY_ENV = 'CAMPAIGN_DESK_API_KEY';

export const syncUsage = `Usage: campaign-desk sync --data <dir> (--workspace <name> | --base-url <url>) [options]

Pulls the call history into the data folder's SQLite file (new and changed calls; resumes an
interrupted sync) and saves the recordings that can still be downloaded.
  --data <dir>         the data folder (the app's, or any folder)
  --workspace <name>   a workspace of that data folder; its API key comes from the OS keychain
  --base-url <url>     the service root (…/v0); the API key comes from ${API_KEY_ENV}
  --since <ISO date>   read the history again from this time (default: since the last sync)
  --no-recordings      do not download recordings
  --max-in-flight <n>  history requests in flight at most, 1-16 (default: the data folder's
                       setting, else 4; halved on a 429 or rising latency)
  --report <file>      write the figures as JSON (calls, inserted, updated, pages, retries, skipped,
                       quarantined, recordings)

Exit codes: 0 every page stored, 1 the sync stopped or the report could not be written (one line
says why), 2 bad usage, 130 interrupted.`;

export const exportUsage = `Usage: campaign-desk calls export --data <dir> --out <calls.csv> [--bulk-list-id <id>] [--status <s>] [--search <text>]

Writes the stored calls (one row per call) as CSV: call_id, bulk_list_id, to_number, name, status,
sub_status, created_at, call_duration, call_cost, agent_id, voicemail, recording, recording_path.
Cells that a spreadsheet would run as formulas are neutralised.

Exit codes: 0 written, 1 the data folder cannot be read (or is in use) or the file cannot be written,
2 bad usage.`;

const isoSchema = z.iso.datetime({ offset: true });

interface OpenData {
  db: DbClient;
  close(): Promise<void>;
}

/** The data folder's database under its lock. DeskFailure (in words) when it is in use or unusable. */
async function openData(dir: string, io: Io): Promise<OpenData> {
  try {
    preparePrivateDataDir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new DeskFailure('file_error', `${dir}: cannot use it as the data folder (${code})`, 'data');
  }
  const lock = lockDataDir(dir);
  try {
    const db = await openCliDb(join(dir, DATABASE_FILE_NAME), io);
    return {
      db,
      async close() {
        await db.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** openData, or null after one line on stderr saying why (locked by the app or another command). */
export async function openDataOrSay(dir: string, io: Io, command: string): Promise<OpenData | null> {
  try {
    return await openData(dir, io);
  } catch (error) {
    if (!(error instanceof DeskFailure)) throw error;
    io.err(`campaign-desk ${command}: ${terminalText(error.message)}`);
    return null;
  }
}

/** Writes the sync's figures whole or not at all (temporary file + rename); null, or why not. */
async function writeSyncReport(path: string, figures: unknown): Promise<string | null> {
  let file;
  try {
    file = await createAtomicFile(path);
    await file.write(`${JSON.stringify(figures, null, 2)}\n`);
    await file.commit();
    return null;
  } catch (error) {
    await file?.discard();
    if (error instanceof DeskFailure) return error.message;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `${path}: cannot write it (${code})`;
  }
}

function parseSyncArgs(argv: string[]) {
  return parseCommandLine({
    args: argv,
    options: {
      data: { type: 'string' },
      workspace: { type: 'string' },
      'base-url': { type: 'string' },
      since: { type: 'string' },
      'no-recordings': { type: 'boolean' },
      'max-in-flight': { type: 'string' },
      report: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
}

function parseExportArgs(argv: string[]) {
  return parseCommandLine({
    args: argv,
    options: {
      data: { type: 'string' },
      out: { type: 'string' },
      'bulk-list-id': { type: 'string' },
      status: { type: 'string' },
      search: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
}

export async function runSyncCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseSyncArgs(argv);
  if (values.help) {
    io.out(syncUsage);
    return EXIT.ok;
  }
  if (!values.data) throw new UsageError('--data <dir> is required');
  if ((values.workspace === undefined) === (values['base-url'] === undefined))
    throw new UsageError('give exactly one of --workspace <name> or --base-url <url>');
  if (values.since !== undefined && !isoSchema.safeParse(values.since).success)
    throw new UsageError(`--since must be an ISO 8601 date-time with a time zone (got "${values.since}")`);
  const maxInFlight = values['max-in-flight'];
  if (
    maxInFlight !== undefined &&
    !(/^\d+$/.test(maxInFlight) && maxInFlightSchema.safeParse(Number(maxInFlight)).success)
  )
    throw new UsageError(`--max-in-flight must be a whole number from 1 to 16 (got "${maxInFlight}")`);
  let baseUrl = values['base-url'];
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL (got "${baseUrl}")`);

  const data = await openDataOrSay(resolve(values.data), io, 'sync');
  if (!data) return EXIT.failed;
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  io.onInterrupt(onInterrupt);
  try {
    let apiKey: string | null;
    let workspaceId: string;
    if (values.workspace !== undefined) {
      const { workspaces } = await data.db.call('workspaces.list', {});
      const record = workspaces.find((w) => w.name === values.workspace);
      if (!record) {
        io.err(`campaign-desk sync: no workspace named "${values.workspace}" in ${values.data}`);
        return EXIT.failed;
      }
      workspaceId = record.id;
      baseUrl = record.baseUrl;
      const keychain = await KeychainSecretStore.open();
      apiKey = keychain.status().available ? await keychain.get(record.id, 'apiKey') : null;
      if (!apiKey) {
        io.err(`campaign-desk sync: no API key for workspace "${values.workspace}" in the OS keychain`);
        return EXIT.failed;
      }
    } else {
      apiKey = process.env[API_KEY_ENV] ?? null;
      if (!apiKey) {
        io.err(`campaign-desk sync: set ${API_KEY_ENV} to the API key (it is never taken from a flag)`);
        return EXIT.failed;
      }
      const { workspaces } = await data.db.call('workspaces.list', {});
      workspaceId = workspaces.find((w) => w.baseUrl === baseUrl)?.id ?? `url:${baseUrl}`;
    }
    const key = apiKey;
    const api = createApiClient({
      baseUrl: baseUrl as string,
      apiKey: async () => key,
      maxRetries: 0,
      timeoutMs: 30_000,
    });
    const report = await runWorkspaceSync({
      db: data.db,
      dataDir: resolve(values.data),
      workspaceId,
      serviceBaseUrl: baseUrl as string,
      fetchHistory: (q, o) => api.listCallHistoryPage(q, o),
      signal: controller.signal,
      recordings: !values['no-recordings'],
      ...(values.since !== undefined ? { sinceMs: Date.parse(values.since) } : {}),
      ...(maxInFlight !== undefined ? { policy: { maxInFlight: Number(maxInFlight) } } : {}),
      onStatus: (s) => {
        if (io.interactive && s.state === 'running')
          io.status(
            `sync: ${s.phase ?? ''} ${n(s.pages)} pages, ${n(s.inserted)} new, ${n(s.updated)} changed${s.message ? ` — ${s.message}` : ''}`,
          );
      },
    });
    if (io.interactive) io.status(null);
    const s = report.status;
    const figures = {
      ok: report.ok,
      calls: s.calls,
      inserted: s.inserted,
      updated: s.updated,
      pages: s.pages,
      retries: s.retries,
      /** Records of this pass refused by their schema (kept apart with the reason, not stored). */
      skipped: s.skipped,
      quarantined: s.quarantined,
      recordings: {
        saved: report.recordings.saved,
        expired: report.recordings.expired,
        failed: report.recordings.failed,
      },
      last_synced_at: s.lastSyncedAt,
      message: s.message,
    };
    // The sync's own result is said whatever happens to the report; a report that cannot be
    // written is said too, and turns a success into exit 1.
    const reportProblem = values.report ? await writeSyncReport(resolve(values.report), figures) : null;
    const sayReport = () => {
      if (reportProblem)
        io.err(`campaign-desk sync: the report was not written: ${terminalText(reportProblem)}`);
    };
    if (s.state === 'cancelled') {
      io.err('campaign-desk sync: interrupted; the next sync resumes where this one stopped');
      sayReport();
      return EXIT.interrupted;
    }
    if (!report.ok) {
      io.err(`campaign-desk sync: ${terminalText(s.message ?? 'the sync stopped')}`);
      sayReport();
      return EXIT.failed;
    }
    io.out(
      `Synced ${n(s.calls)} calls (${n(s.inserted)} new, ${n(s.updated)} changed, ${n(s.pages)} pages, ${n(s.retries)} retries${s.skipped > 0 ? `, ${n(s.skipped)} skipped records (bad data, kept apart: see the Calls page)` : ''}); recordings: ${n(figures.recordings.saved)} saved, ${n(figures.recordings.expired)} expired, ${n(figures.recordings.failed)} failed`,
    );
    sayReport();
    return reportProblem ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (error instanceof DeskFailure) {
      io.err(`campaign-desk sync: ${terminalText(error.message)}`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    io.offInterrupt(onInterrupt);
    await data.close();
  }
}

export async function runCallsCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    io.out(exportUsage);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  if (sub === 'qa-report') {
    const { runQaReportCommand } = await import('./qaReportCommand.ts');
    return runQaReportCommand(rest, io);
  }
  if (sub !== 'export')
    throw new UsageError(`unknown calls command "${sub}" (calls export, calls qa-report)`);
  const { values } = parseExportArgs(rest);
  if (values.help) {
    io.out(exportUsage);
    return EXIT.ok;
  }
  if (!values.data) throw new UsageError('--data <dir> is required');
  if (!values.out) throw new UsageError('--out <calls.csv> is required');
  const data = await openDataOrSay(resolve(values.data), io, 'calls export');
  if (!data) return EXIT.failed;
  try {
    const { rows } = await writeCallsCsv(
      data.db,
      {
        workspaceId: null,
        filter: {
          ...(values['bulk-list-id'] ? { bulkListId: values['bulk-list-id'] } : {}),
          ...(values.status ? { statuses: values.status.split(',').map((x) => x.trim()) } : {}),
          ...(values.search ? { search: values.search } : {}),
        },
      },
      resolve(values.out),
    );
    io.out(`Wrote ${n(rows)} calls to ${values.out}`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DeskFailure) {
      io.err(`campaign-desk calls export: ${terminalText(error.message)}`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    await data.close();
  }
}
