// The builder's drafts: list, save, delete and the copy of a launched campaign. A launched draft
// is its campaign's settings (read-only, except a refused launch that may be corrected).
import { randomUUID } from 'node:crypto';
import type { CampaignSettings } from '../../../shared/ipc/channels/campaigns.ts';
import { campaignSettingsSchema } from '../../../shared/ipc/channels/campaigns.ts';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import { launchAgainRefusal } from './launchOutbox.ts';
import type { StoredLaunch } from './launches.queries.ts';

/** A draft's stored settings, or null when they no longer read as settings (such a draft is left out). */
export function storedSettings(text: string): CampaignSettings | null {
  const parsed = campaignSettingsSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

/** Refuses (conflict) when the draft is a campaign already launched (not refused). */
export async function refuseLaunchedAgain(db: DbClient, draftId: string): Promise<void> {
  const launch = await db.call('campaigns.launchByDraft', { draftId });
  if (!launch) return;
  const refusal = launchAgainRefusal(launch, await db.call('campaigns.steps', { launchId: launch.id }));
  if (refusal) throw new DeskFailure('conflict', refusal, 'draftId');
}

export async function listDrafts(
  db: DbClient,
  record: WorkspaceRecord,
): Promise<ResponseOf<'campaigns:drafts'>> {
  const rows = await db.call('campaigns.drafts', { workspaceId: record.id });
  return {
    drafts: rows.flatMap((r) => {
      const settings = storedSettings(r.settings);
      return settings ? [{ id: r.id, workspaceId: r.workspace_id, settings, updatedAt: r.updated_at }] : [];
    }),
  };
}

export async function saveDraft(
  db: DbClient,
  record: WorkspaceRecord,
  req: ParsedRequestOf<'campaigns:save-draft'>,
): Promise<ResponseOf<'campaigns:save-draft'>> {
  // A launched campaign's settings are read-only (a refused one may be corrected).
  if (req.id) await refuseLaunchedAgain(db, req.id);
  const id = req.id ?? randomUUID();
  const at = new Date().toISOString();
  const saved = await db.call('campaigns.saveDraft', {
    id,
    workspaceId: record.id,
    settings: JSON.stringify(req.settings),
    at,
  });
  if (!saved)
    throw new DeskFailure(
      'not_found',
      'This draft belongs to another workspace: switch back to save it.',
      'id',
    );
  return { id, workspaceId: record.id, settings: req.settings, updatedAt: at };
}

export async function deleteDraft(db: DbClient, record: WorkspaceRecord, id: string): Promise<boolean> {
  // A launched campaign keeps its settings (its draft row).
  if (await db.call('campaigns.launchByDraft', { draftId: id }))
    throw new DeskFailure('conflict', 'This campaign was launched: it is kept with its settings.', 'id');
  return db.call('campaigns.deleteDraft', { id, workspaceId: record.id });
}

/** The builder settings a launch was made from (null for the CLI's launches). */
export async function launchSettings(db: DbClient, launch: StoredLaunch): Promise<CampaignSettings | null> {
  const draft = launch.draft_id ? await db.call('campaigns.draft', { id: launch.draft_id }) : null;
  return draft ? storedSettings(draft.settings) : null;
}

/** A new draft copying a launched campaign's settings ("(copy)" after its name). */
export async function duplicateDraft(
  db: DbClient,
  record: WorkspaceRecord,
  launch: StoredLaunch,
): Promise<{ id: string; workspaceId: string; settings: CampaignSettings; updatedAt: string }> {
  const from = await launchSettings(db, launch);
  if (!from)
    throw new DeskFailure(
      'not_found',
      'This campaign was launched from the command line: it has no builder settings to copy.',
      'id',
    );
  const settings = { ...from, name: `${from.name.trim()} (copy)`.slice(0, 200) };
  const id = randomUUID();
  const at = new Date().toISOString();
  await db.call('campaigns.saveDraft', {
    id,
    workspaceId: record.id,
    settings: JSON.stringify(settings),
    at,
  });
  return { id, workspaceId: record.id, settings, updatedAt: at };
}
