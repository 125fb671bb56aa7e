// The app's launch of a builder campaign: its settings checked, the list's upload file written
// (with the list row of each upload row beside it), credits and fit checked, the settings kept as
// the campaign's draft row, and the launch recorded in the outbox (queued when made offline).
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { formatCount } from '../../../shared/domain/formatCount.ts';
import type { ParsedRequestOf } from '../../../shared/ipc/contract.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { agentUpload, lint } from '../agents/listMapping.ts';
import { writeSteadyExport } from '../contacts/exportFile.ts';
import type { DeskContext } from '../desk/context.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import { refuseLaunchedAgain } from './campaignDrafts.ts';
import { callsNotFittingOf, launchRefusals } from './launchChecks.ts';
import { enqueueLaunch, requestFromSettings } from './launchOutbox.ts';
import type { StoredLaunch } from './launches.queries.ts';
import type { Planner } from './planner.ts';
import { countsOfList, requireValidSettings } from './planner.ts';
import { refusalBlock, uploadRowsPath, writeUploadRows } from './serviceRefusals.ts';

/** The launch recorded, and whether it goes out now (made online) or waits in the queue. */
export async function launchFromList(
  ctx: DeskContext,
  deps: { planner: Planner; online: () => Promise<boolean> },
  record: WorkspaceRecord,
  req: ParsedRequestOf<'campaigns:launch'>,
): Promise<{ launch: StoredLaunch; goNow: boolean }> {
  const s = req.settings;
  // A campaign launches once: refused before anything is checked or written.
  if (req.draftId) await refuseLaunchedAgain(ctx.db, req.draftId);
  requireValidSettings(s, true);
  const listId = s.listId as number;
  const agentId = s.agentId as string;
  const mapping = { listId, agentId, ...(s.versionId ? { versionId: s.versionId } : {}) };
  const problems = await lint(ctx, mapping);
  if (problems.unmapped.length > 0)
    throw new DeskFailure(
      'invalid_request',
      `Map a column to ${problems.unmapped.join(', ')} before launching`,
      'mapping',
    );
  const refused = refusalBlock(problems, s.removeInvalid);
  if (refused) throw new DeskFailure('invalid_request', refused, 'mapping');
  const plan = await agentUpload(ctx, mapping);
  const id = randomUUID();
  const dir = join(ctx.options.dataDir, 'launches', id);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'upload.csv');
  const discard = () => rm(dir, { recursive: true, force: true });
  // Refused while a bulk change runs; discarded if the list changes while it is written. The
  // list row of each upload row is kept beside it (the service numbers refusals by the file).
  const uploadRows: number[] = [];
  const written = await writeSteadyExport(ctx.db, listId, plan.setup, 'upload', file, undefined, {
    workspaceId: record.id,
    fillBlank: plan.fillBlank,
    refusing: plan.refusing,
    onRows: (r) => {
      for (const row of r) uploadRows.push(row);
    },
  })
    .then(async (w) => {
      await writeUploadRows(uploadRowsPath(file), uploadRows);
      return w;
    })
    .catch(async (error: unknown) => {
      await discard();
      throw error;
    });
  const { rows, list: stored } = written;
  // The list may have changed since the check: what the written file would have refused counts.
  if (written.refused > 0 && !s.removeInvalid) {
    await discard();
    throw new DeskFailure(
      'invalid_request',
      `The service would refuse ${formatCount(written.refused)} rows with an empty variable: exclude or fill them, or turn on "Remove invalid rows"`,
      'mapping',
    );
  }
  const counts = countsOfList(stored.counts);
  const request = requestFromSettings(s, plan.variablesMap);
  // Credits and fit before anything is stored or sent (the runner asks again before the upload).
  const reading = await deps.planner.credits(record);
  // The rows the service drops are sent but neither called nor charged.
  const calls = rows - written.refused;
  const refusals = launchRefusals({
    calls,
    credits: reading.source === 'service' ? reading.available : null,
    callsNotFitting: callsNotFittingOf(request, calls, Date.now()),
    acceptShortfall: s.acceptShortfall,
  });
  if (refusals.length > 0) {
    await discard();
    throw new DeskFailure(
      'invalid_request',
      refusals.map((r) => r.message).join(' '),
      refusals[0]?.kind === 'credits' ? 'credits' : 'acceptShortfall',
    );
  }
  // The campaign's settings stay as its draft row: shown read-only once launched.
  const draftId = req.draftId ?? randomUUID();
  const kept = await ctx.db.call('campaigns.saveDraft', {
    id: draftId,
    workspaceId: record.id,
    settings: JSON.stringify(s),
    at: new Date().toISOString(),
  });
  if (!kept) {
    await discard();
    throw new DeskFailure(
      'not_found',
      'This draft belongs to another workspace: switch back to launch it.',
      'draftId',
    );
  }
  // Made while the service answers, a launch goes out at once (after the UI's confirmation).
  // Made offline, it waits in the queue for the operator, or for auto-send once the service is back.
  const goNow = await deps.online();
  const launch = await enqueueLaunch(ctx.db, {
    id,
    workspaceId: record.id,
    request,
    listId,
    draftId,
    launchKey: null,
    uploadFile: file,
    valid: rows,
    invalid: counts.rejects,
    predictedRefused: written.refused,
    queued: !goNow,
    at: new Date().toISOString(),
  }).catch(async (error: unknown) => {
    await discard();
    throw error;
  });
  return { launch, goNow };
}
