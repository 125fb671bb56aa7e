// `campaign-desk calls qa-report`: a campaign's QA report (every call with its review mark) as CSV,
// from a data folder's SQLite file, written whole or not at all (temporary file + rename).
import { resolve } from 'node:path';
import { terminalText } from '../../shared/domain/visibleText.ts';
import { DeskFailure } from '../../shared/ipc/result.ts';
import { QA_REPORT_COLUMNS, writeQaReport } from '../services/review/qaReport.ts';
import { openDataOrSay } from './callsCommands.ts';
import { EXIT, parseCommandLine, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';

export const qaReportUsage = `Usage: campaign-desk calls qa-report --data <dir> --campaign <bulk list id> --out <report.csv> [--workspace <name>]

Writes the QA report of a campaign: every stored call of it with its review (marked in the app's
review queue), one row per call: ${QA_REPORT_COLUMNS.join(', ')}.
Review marks stay on this computer; nothing is asked of the calling service.
  --campaign <id>      the campaign's bulk list id (Calls → Campaign, or the campaign's page)
  --workspace <name>   only that workspace's calls (default: every workspace of the data folder)

Exit codes: 0 written, 1 the data folder cannot be read (or is in use), the workspace or campaign is
unknown, or the file cannot be written, 2 bad usage.`;

export async function runQaReportCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandLine({
    args: argv,
    options: {
      data: { type: 'string' },
      campaign: { type: 'string' },
      workspace: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    io.out(qaReportUsage);
    return EXIT.ok;
  }
  if (!values.data) throw new UsageError('--data <dir> is required');
  if (!values.campaign?.trim()) throw new UsageError('--campaign <bulk list id> is required');
  if (!values.out) throw new UsageError('--out <report.csv> is required');
  const say = (message: string) => io.err(`campaign-desk calls qa-report: ${terminalText(message)}`);
  const data = await openDataOrSay(resolve(values.data), io, 'calls qa-report');
  if (!data) return EXIT.failed;
  try {
    let workspaceId: string | null = null;
    if (values.workspace !== undefined) {
      const { workspaces } = await data.db.call('workspaces.list', {});
      const record = workspaces.find((w) => w.name === values.workspace);
      if (!record) {
        say(`no workspace named "${values.workspace}" in ${values.data}`);
        return EXIT.failed;
      }
      workspaceId = record.id;
    }
    const bulkListId = values.campaign.trim();
    // An empty report for a mistyped id would look like a campaign nobody called.
    if ((await data.db.call('reviews.campaignCalls', { workspaceId, bulkListId })) === 0) {
      say(`no calls of campaign ${bulkListId} are stored in ${values.data} (sync first, or check the id)`);
      return EXIT.failed;
    }
    const { rows } = await writeQaReport(data.db, { workspaceId, bulkListId }, resolve(values.out));
    io.out(`Wrote the QA report of ${rows} calls to ${values.out}`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DeskFailure) {
      say(error.message);
      return EXIT.failed;
    }
    throw error;
  } finally {
    await data.close();
  }
}
