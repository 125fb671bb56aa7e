// Campaigns in SQLite: the launch outbox (one row per launch, the next step and the service's ids),
// its timeline (a `sent` row before each request, a row after each answer), the builder's drafts
// and the cached numbers / campaign listing of a workspace.
import type { Db } from '../define.ts';
import { prepared, query, txQuery, writeTransaction } from '../define.ts';
import { ensureNumbers } from '../../contacts/rowStore.ts';
import { insertMany } from './insertMany.ts';

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

/**
 * Whose contacts: a stored list's (the rows it sends: valid, not excluded, and, for a launched list,
 * not refused by the service for that launch's `refusedBy` bulk list) or an upload file's numbers.
 */
export type NumberSet = { listId: number; refusedBy?: string | null } | { numbers: readonly string[] };

/**
 * A subquery of a set's numbers (column e164, stored as the digits' integer: `+919876543210` is
 * 919876543210, 15 digits at most, exact in a double) and its parameters.
 */
const numberSetSql = (set: NumberSet): [string, Array<number | string>] =>
  'listId' in set
    ? [
        `SELECT n.e164 FROM contact_numbers n
           JOIN contacts c ON c.list_id = n.list_id AND c.row = n.row
         WHERE n.list_id = ? AND c.bucket = 0 AND c.excluded = 0
           AND NOT EXISTS (SELECT 1 FROM contact_refusals r
                           WHERE r.list_id = n.list_id AND r.row = n.row AND r.bulk_list_id = ?)`,
        [set.listId, set.refusedBy ?? ''],
      ]
    : [
        'SELECT value AS e164 FROM json_each(?)',
        [JSON.stringify(set.numbers.flatMap((n) => (/^\+\d{1,15}$/.test(n) ? [Number(n.slice(1))] : [])))],
      ];

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

export const campaignsQueries = {
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
    prepared(
      db,
      `INSERT INTO campaign_launches (id, workspace_id, launch_key, list_id, name, agent_id, flow, state, step,
         settings, upload_file, valid, invalid, predicted_refused, created_at, updated_at, draft_id)
       VALUES (@id, @workspace_id, @launch_key, @list_id, @name, @agent_id, @flow, @state, @step,
         @settings, @upload_file, @valid, @invalid, @predicted_refused, @created_at, @created_at, @draft_id)`,
    ).run({ ...a, predicted_refused: a.predicted_refused ?? null });
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
      const changed = prepared(
        db,
        `UPDATE campaign_launches SET name = @name, agent_id = @agent_id, flow = @flow, state = @state,
           step = @step, settings = @settings, upload_file = @upload_file, valid = @valid, invalid = @invalid,
           predicted_refused = @predicted_refused, arrived = NULL, bulk_list_id = NULL, service_list_id = NULL, service_invalid = NULL, rejects_url = NULL,
           message = NULL, updated_at = @at
         WHERE id = @id AND state = 'failed'`,
      ).run(a).changes;
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
  /**
   * Contacts (distinct E.164) of a list or a file that are also in other launches' contacts, per
   * launch and in all. A side is a stored list (its number index) or the numbers of an upload file
   * (the CLI's launches). The launches are chosen by the caller (running or recent); their lists may
   * be gone (then none).
   */
  'campaigns.overlaps': txQuery(
    (db, a: { source: NumberSet; launches: Array<{ id: string; set: NumberSet }> }) => {
      // A list just imported may still owe its number index (migration 0100): build it first.
      for (const set of [a.source, ...a.launches.map((l) => l.set)])
        if ('listId' in set) ensureNumbers(db, set.listId);
      const [source, sourceArgs] = numberSetSql(a.source);
      const count = (sets: NumberSet[]): number => {
        if (sets.length === 0) return 0;
        const parts = sets.map(numberSetSql);
        return (
          (db
            .prepare(
              `SELECT count(DISTINCT s.e164) FROM (${source}) s
               WHERE s.e164 IN (${parts.map(([sql]) => sql).join(' UNION ')})`,
            )
            .pluck()
            .get(...sourceArgs, ...parts.flatMap(([, args]) => args)) as number | undefined) ?? 0
        );
      };
      const byLaunch = a.launches.map((l) => ({ id: l.id, contacts: count([l.set]) }));
      return { total: count(a.launches.map((l) => l.set)), byLaunch };
    },
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

  /** One contact row's cells (the test call's variables), or null. */
  'campaigns.rowCells': query((db, a: { listId: number; row: number }) => {
    const cells = prepared<[number, number], string>(
      db,
      `SELECT cells FROM contacts WHERE list_id = ? AND row = ?`,
    )
      .pluck()
      .get(a.listId, a.row);
    return cells === undefined ? null : (JSON.parse(cells) as string[]);
  }),

  'campaigns.drafts': query((db, a: { workspaceId: string }) =>
    prepared<[string], { id: string; workspace_id: string; settings: string; updated_at: string }>(
      db,
      // A launched draft is a campaign (it is in the campaigns list, not here).
      `SELECT id, workspace_id, settings, updated_at FROM campaign_drafts d WHERE workspace_id = ?
       AND NOT EXISTS (SELECT 1 FROM campaign_launches l WHERE l.draft_id = d.id)
       ORDER BY updated_at DESC`,
    ).all(a.workspaceId),
  ),
  /** Saves a draft; false when the id is another workspace's draft (left untouched). */
  'campaigns.saveDraft': query(
    (db, a: { id: string; workspaceId: string; settings: string; at: string }) =>
      prepared(
        db,
        `INSERT INTO campaign_drafts (id, workspace_id, settings, updated_at) VALUES (@id, @workspaceId, @settings, @at)
         ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
         WHERE campaign_drafts.workspace_id = excluded.workspace_id`,
      ).run(a).changes > 0,
  ),
  /** One draft by id (launched or not), or null. */
  'campaigns.draft': query(
    (db, a: { id: string }) =>
      prepared<[string], { id: string; workspace_id: string; settings: string; updated_at: string }>(
        db,
        `SELECT id, workspace_id, settings, updated_at FROM campaign_drafts WHERE id = ?`,
      ).get(a.id) ?? null,
  ),
  'campaigns.deleteDraft': query(
    (db, a: { id: string; workspaceId: string }) =>
      prepared(db, `DELETE FROM campaign_drafts WHERE id = ? AND workspace_id = ?`).run(a.id, a.workspaceId)
        .changes > 0,
  ),

  'campaigns.cache': query(
    (db, a: { workspaceId: string; kind: 'numbers' | 'listing' }) =>
      prepared<[string, string], { body: string; synced_at: string | null; last_error: string | null }>(
        db,
        `SELECT body, synced_at, last_error FROM campaign_cache WHERE workspace_id = ? AND kind = ?`,
      ).get(a.workspaceId, a.kind) ?? null,
  ),
  'campaigns.setCache': query(
    (
      db,
      a: {
        workspaceId: string;
        kind: 'numbers' | 'listing';
        body?: string;
        syncedAt?: string;
        error?: string | null;
      },
    ) => {
      prepared(
        db,
        `INSERT INTO campaign_cache (workspace_id, kind, body, synced_at, last_error)
         VALUES (@workspaceId, @kind, coalesce(@body, '[]'), @syncedAt, @error)
         ON CONFLICT (workspace_id, kind) DO UPDATE SET body = coalesce(@body, campaign_cache.body),
           synced_at = coalesce(@syncedAt, campaign_cache.synced_at), last_error = @error`,
      ).run({ body: null, syncedAt: null, error: null, ...a });
    },
  ),
};
