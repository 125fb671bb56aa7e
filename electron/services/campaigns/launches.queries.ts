// The launch outbox in SQLite: one row per launch (the next step and the service's ids), its
// timeline (a `sent` row before each request, a row after each answer) and the rows the service
// refused in a campaign.
import type { Db } from '../db/define.ts';
import { prepared, query, writeTransaction } from '../db/define.ts';
import { insertMany } from '../db/queries/insertMany.ts';

export interface StoredLaunch {
  id: string;
  workspace_id: string;
  launch_key: string | null;
  list_id: number | null;
  name: string;
  agent_id: string;
  flow: 'large' | 'standard';
  state: 'queued' | 'pending' | 'waiting' | 'started' | 'failed' | 'needs-decision';
  step: string;
  /** JSON of the launch request (LaunchRequest in campaigns/launchRequest.ts). */
  settings: string;
  upload_file: string;
  bulk_list_id: string | null;
  service_list_id: string | null;
  service_id: string | null;
  valid: number;
  invalid: number;
  service_invalid: number | null;
  rejects_url: string | null;
  message: string | null;
  /** Rows the app predicted the service would drop (migration 0135); null for older launches. */
  predicted_refused: number | null;
  /** Rows the service said it accepted, once it answered. */
  arrived: number | null;
  created_at: string;
  updated_at: string;
  /** The builder draft this launch was made from (its campaign); null for the CLI's launches. */
  draft_id: string | null;
  /** When the operator terminated its remaining calls. */
  terminated_at: string | null;
}

export interface StoredStep {
  seq: number;
  step: string;
  outcome: string;
  at: string;
  message: string | null;
  http_status: number | null;
}

export type NewLaunch = Omit<
  StoredLaunch,
  | 'service_id'
  | 'bulk_list_id'
  | 'service_list_id'
  | 'service_invalid'
  | 'rejects_url'
  | 'message'
  | 'updated_at'
  | 'predicted_refused'
  | 'arrived'
  | 'terminated_at'
> & { predicted_refused?: number | null };

/** A refused launch sent again (same row, same campaign): its new request, upload and first step. */
export interface Relaunch {
  id: string;
  name: string;
  agent_id: string;
  flow: StoredLaunch['flow'];
  state: 'pending' | 'queued';
  step: string;
  settings: string;
  upload_file: string;
  valid: number;
  invalid: number;
  predicted_refused: number | null;
  at: string;
}

/** What a step's answer changes on the launch (only the keys given). */
export interface LaunchPatch {
  state?: StoredLaunch['state'];
  step?: string;
  bulk_list_id?: string;
  service_list_id?: string;
  service_invalid?: number | null;
  rejects_url?: string | null;
  message?: string | null;
  arrived?: number | null;
  /** Rows of the upload file (fewer when the do-not-call list held some back at upload time). */
  valid?: number;
}

export interface StepRecord {
  launchId: string;
  step: string;
  outcome: string;
  at: string;
  message?: string | null;
  httpStatus?: number | null;
  patch?: LaunchPatch;
}

/** What a launch is made with, and made with again when a refused launch is corrected and resent. */
const REQUEST_COLUMNS = [
  'name',
  'agent_id',
  'flow',
  'state',
  'step',
  'settings',
  'upload_file',
  'valid',
  'invalid',
  'predicted_refused',
] as const satisfies ReadonlyArray<keyof NewLaunch & keyof Relaunch>;
/** The service's answers to an attempt: cleared when a refused launch is sent again. */
const ANSWER_COLUMNS = [
  'arrived',
  'bulk_list_id',
  'service_list_id',
  'service_invalid',
  'rejects_url',
  'message',
] as const satisfies ReadonlyArray<keyof StoredLaunch>;
const INSERT_COLUMNS = [
  'id',
  'workspace_id',
  'launch_key',
  'list_id',
  ...REQUEST_COLUMNS,
  'created_at',
  'draft_id',
] as const satisfies ReadonlyArray<keyof NewLaunch>;

const INSERT_LAUNCH_SQL = `INSERT INTO campaign_launches (${INSERT_COLUMNS.join(', ')}, updated_at)
  VALUES (${INSERT_COLUMNS.map((c) => `@${c}`).join(', ')}, @created_at)`;
const RELAUNCH_SQL = `UPDATE campaign_launches SET ${REQUEST_COLUMNS.map((c) => `${c} = @${c}`).join(', ')},
  ${ANSWER_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, updated_at = @at
  WHERE id = @id AND state = 'failed'`;

const PATCH_COLUMNS = [
  'state',
  'step',
  'bulk_list_id',
  'service_list_id',
  'service_invalid',
  'rejects_url',
  'message',
  'arrived',
  'valid',
] as const;

function applyPatch(db: Db, id: string, patch: LaunchPatch, at: string): void {
  const keys = PATCH_COLUMNS.filter((k) => patch[k] !== undefined);
  const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @at'].join(', ');
  db.prepare(`UPDATE campaign_launches SET ${sets} WHERE id = @id`).run({ ...patch, id, at });
}

const getLaunch = (db: Db, id: string) =>
  prepared<[string], StoredLaunch>(db, `SELECT * FROM campaign_launches WHERE id = ?`).get(id) ?? null;

export const campaignLaunchQueries = {
  /**
   * The rows of a list the service refused in one campaign (its service list id), replacing what
   * was stored for that campaign: a read-back is idempotent.
   */
  'campaigns.storeRefusals': query(
    (
      db,
      a: {
        listId: number;
        bulkListId: string;
        refusals: Array<{ row: number; uploadRow: number; reason: string }>;
      },
    ) =>
      writeTransaction(db, () => {
        if (!prepared<[number], number>(db, `SELECT 1 FROM contact_lists WHERE id = ?`).pluck().get(a.listId))
          return 0;
        prepared(db, `DELETE FROM contact_refusals WHERE list_id = ? AND bulk_list_id = ?`).run(
          a.listId,
          a.bulkListId,
        );
        return insertMany(
          db,
          'INSERT OR REPLACE INTO contact_refusals (list_id, row, bulk_list_id, upload_row, reason)',
          5,
          a.refusals.flatMap((r) => [a.listId, r.row, a.bulkListId, r.uploadRow, r.reason]),
        );
      }),
  ),
  'campaigns.insertLaunch': query((db, a: NewLaunch) => {
    prepared(db, INSERT_LAUNCH_SQL).run({ ...a, predicted_refused: a.predicted_refused ?? null });
    return getLaunch(db, a.id) as StoredLaunch;
  }),
  'campaigns.launch': query((db, a: { id: string }) => getLaunch(db, a.id)),
  'campaigns.launchByKey': query(
    (db, a: { key: string }) =>
      prepared<[string], StoredLaunch>(db, `SELECT * FROM campaign_launches WHERE launch_key = ?`).get(
        a.key,
      ) ?? null,
  ),
  'campaigns.launchByDraft': query(
    (db, a: { draftId: string }) =>
      prepared<[string], StoredLaunch>(db, `SELECT * FROM campaign_launches WHERE draft_id = ?`).get(
        a.draftId,
      ) ?? null,
  ),
  /**
   * A refused launch sent again in its own row: only while it is still refused (state failed), so
   * two sends cannot both take it. The service's ids of the refused attempt are cleared (nothing
   * started under them); the timeline keeps the refusal and says it was sent again.
   */
  'campaigns.relaunch': query((db, a: Relaunch) =>
    writeTransaction(db, () => {
      const changed = prepared(db, RELAUNCH_SQL).run(a).changes;
      if (changed === 0) return null;
      const seq =
        (prepared<[string], number>(
          db,
          `SELECT coalesce(max(seq), 0) FROM campaign_launch_steps WHERE launch_id = ?`,
        )
          .pluck()
          .get(a.id) ?? 0) + 1;
      prepared(
        db,
        `INSERT INTO campaign_launch_steps (launch_id, seq, step, outcome, at, message, http_status)
         VALUES (?, ?, ?, 'info', ?, 'Corrected and sent again by the operator', NULL)`,
      ).run(a.id, seq, a.step, a.at);
      return getLaunch(db, a.id);
    }),
  ),
  /** Marks the launch of a service id as terminated (its remaining calls cancelled). */
  'campaigns.markTerminated': query(
    (db, a: { workspaceId: string; serviceId: string; at: string }) =>
      prepared(
        db,
        `UPDATE campaign_launches SET terminated_at = @at, updated_at = @at
         WHERE workspace_id = @workspaceId AND (bulk_list_id = @serviceId OR service_list_id = @serviceId)`,
      ).run(a).changes > 0,
  ),
  'campaigns.launches': query((db, a: { workspaceId: string }) =>
    prepared<[string], StoredLaunch>(
      db,
      `SELECT * FROM campaign_launches WHERE workspace_id = ? ORDER BY created_at DESC, id`,
    ).all(a.workspaceId),
  ),
  /** Launches the runner should carry on with (any workspace). */
  'campaigns.resumable': query((db) =>
    prepared<[], StoredLaunch>(
      db,
      `SELECT * FROM campaign_launches WHERE state IN ('pending', 'waiting') ORDER BY created_at`,
    ).all(),
  ),
  'campaigns.patchLaunch': query((db, a: { id: string; patch: LaunchPatch; at: string }) => {
    applyPatch(db, a.id, a.patch, a.at);
    return getLaunch(db, a.id);
  }),
  /** One timeline row and the launch's change, in one transaction. */
  'campaigns.recordStep': query((db, a: StepRecord) =>
    writeTransaction(db, () => {
      const seq =
        (prepared<[string], number>(
          db,
          `SELECT coalesce(max(seq), 0) FROM campaign_launch_steps WHERE launch_id = ?`,
        )
          .pluck()
          .get(a.launchId) ?? 0) + 1;
      prepared(
        db,
        `INSERT INTO campaign_launch_steps (launch_id, seq, step, outcome, at, message, http_status)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(a.launchId, seq, a.step, a.outcome, a.at, a.message ?? null, a.httpStatus ?? null);
      applyPatch(db, a.launchId, a.patch ?? {}, a.at);
      return getLaunch(db, a.launchId) as StoredLaunch;
    }),
  ),
  'campaigns.steps': query((db, a: { launchId: string }) =>
    prepared<[string], StoredStep>(
      db,
      `SELECT seq, step, outcome, at, message, http_status FROM campaign_launch_steps WHERE launch_id = ? ORDER BY seq`,
    ).all(a.launchId),
  ),
  'campaigns.deleteLaunch': query(
    (db, a: { id: string }) =>
      prepared(db, `DELETE FROM campaign_launches WHERE id = ? AND state = 'queued'`).run(a.id).changes > 0,
  ),
};
