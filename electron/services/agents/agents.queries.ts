// The agent library in SQLite: synced agents (raw service answers kept), local draft agents,
// per-workspace sync state, unsaved event-subscription edits, and per-list variable mappings, plus
// the contact-row counts the agent lint and preview need (read from the rows, never from a screen).
import type { ContactFilter } from '../../../shared/ipc/channels/contacts.ts';
import type { Db } from '../db/define.ts';
import { prepared, query, txQuery } from '../db/define.ts';
import { blankCellSql } from '../contacts/blankCell.ts';
import { filterSql, UPLOAD_ROWS_SQL } from '../contacts/filters.ts';

/** A library row (what agents:list shows). */
export interface StoredAgentSummary {
  id: string;
  name: string;
  archived: 0 | 1;
  is_local_draft: 0 | 1;
  language: string | null;
  active_version_id: string | null;
  version_count: number;
  /** JSON list of the active version's variables. */
  variables: string;
  synced_at: string | null;
  updated_at: string;
  has_subscriptions_draft: 0 | 1;
}

/** A whole agent with its unsaved subscriptions edit, if any. */
export interface StoredAgent extends StoredAgentSummary {
  list_raw: string | null;
  detail_raw: string | null;
  draft_prompt: string | null;
  draft_subscriptions: string | null;
  draft_reason: string | null;
  draft_saved_at: string | null;
}

/** One synced agent as the sync writes it. */
export interface SyncedAgentInput {
  id: string;
  name: string;
  archived: boolean;
  language: string | null;
  activeVersionId: string | null;
  versionCount: number;
  variables: string[];
  listRaw: string | null;
  detailRaw: string;
  listOrder: number;
}

export interface StoredSyncState {
  synced_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

const SUMMARY_COLUMNS = `a.id, a.name, a.archived, a.is_local_draft, a.language, a.active_version_id,
  a.version_count, a.variables, a.synced_at, a.updated_at, (d.agent_id IS NOT NULL) AS has_subscriptions_draft`;
const DRAFT_JOIN = `LEFT JOIN agent_subscription_drafts d ON d.workspace_id = a.workspace_id AND d.agent_id = a.id`;

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function upsertSynced(db: Db, workspaceId: string, a: SyncedAgentInput, now: string): void {
  // ON CONFLICT … UPDATE, not REPLACE: a replace would delete the row and cascade its drafts away.
  prepared(
    db,
    `INSERT INTO agents (workspace_id, id, name, archived, is_local_draft, language, active_version_id,
       version_count, variables, list_raw, detail_raw, list_order, synced_at, updated_at)
     VALUES (@workspaceId, @id, @name, @archived, 0, @language, @activeVersionId, @versionCount, @variables,
       @listRaw, @detailRaw, @listOrder, @now, @now)
     ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, archived = excluded.archived,
       is_local_draft = 0, language = excluded.language, active_version_id = excluded.active_version_id,
       version_count = excluded.version_count, variables = excluded.variables,
       list_raw = coalesce(excluded.list_raw, agents.list_raw), detail_raw = excluded.detail_raw,
       draft_prompt = NULL, list_order = excluded.list_order, synced_at = excluded.synced_at,
       updated_at = excluded.updated_at`,
  ).run({
    workspaceId,
    id: a.id,
    name: a.name,
    archived: a.archived ? 1 : 0,
    language: a.language,
    activeVersionId: a.activeVersionId,
    versionCount: a.versionCount,
    variables: JSON.stringify(a.variables),
    listRaw: a.listRaw,
    detailRaw: a.detailRaw,
    listOrder: a.listOrder,
    now,
  });
}

function replaceSynced(
  db: Db,
  a: { workspaceId: string; agents: SyncedAgentInput[]; now: string },
): { removed: number } {
  for (const agent of a.agents) upsertSynced(db, a.workspaceId, agent, a.now);
  // Agents gone from the service go from the library (local drafts stay).
  prepared(db, `CREATE TEMP TABLE IF NOT EXISTS seen_agents (id TEXT PRIMARY KEY)`).run();
  prepared(db, `DELETE FROM temp.seen_agents`).run();
  const seen = prepared<[string]>(db, `INSERT OR IGNORE INTO temp.seen_agents (id) VALUES (?)`);
  for (const agent of a.agents) seen.run(agent.id);
  const removed = prepared<[string]>(
    db,
    `DELETE FROM agents WHERE workspace_id = ? AND is_local_draft = 0 AND id NOT IN (SELECT id FROM temp.seen_agents)`,
  ).run(a.workspaceId).changes;
  prepared(
    db,
    `INSERT INTO agent_sync (workspace_id, synced_at, last_error, last_error_at) VALUES (?, ?, NULL, NULL)
     ON CONFLICT (workspace_id) DO UPDATE SET synced_at = excluded.synced_at, last_error = NULL, last_error_at = NULL`,
  ).run(a.workspaceId, a.now);
  return { removed };
}

function getAgent(db: Db, a: { workspaceId: string; agentId: string }): StoredAgent | null {
  return (
    prepared<[string, string], StoredAgent>(
      db,
      `SELECT ${SUMMARY_COLUMNS}, a.list_raw, a.detail_raw, a.draft_prompt, d.subscriptions AS draft_subscriptions,
         d.reason AS draft_reason, d.saved_at AS draft_saved_at
       FROM agents a ${DRAFT_JOIN} WHERE a.workspace_id = ? AND a.id = ?`,
    ).get(a.workspaceId, a.agentId) ?? null
  );
}

/** Upload-row positions: `all` follows pos (dense), a filter follows its own where clause in row order. */
function filterWhere(filter: ContactFilter): string {
  return filter === 'all' ? '1 = 1' : filterSql(filter).where;
}

export const agentsQueries = {
  'agents.list': query((db, a: { workspaceId: string; search?: string }) => {
    const search = a.search?.trim() ?? '';
    return prepared<[string, string], StoredAgentSummary>(
      db,
      `SELECT ${SUMMARY_COLUMNS} FROM agents a ${DRAFT_JOIN}
       WHERE a.workspace_id = ? AND a.name LIKE ? ESCAPE '\\'
       ORDER BY a.archived, a.is_local_draft DESC, a.list_order, a.name COLLATE NOCASE`,
    ).all(a.workspaceId, likePattern(search));
  }),
  'agents.get': query(getAgent),
  'agents.replaceSynced': txQuery(replaceSynced),
  /** The service accepted new subscriptions: the stored answer carries them, the draft goes. */
  'agents.upsertSubscriptions': txQuery(
    (db, a: { workspaceId: string; agentId: string; detailRaw: string; now: string }) => {
      prepared(db, `UPDATE agents SET detail_raw = ?, updated_at = ? WHERE workspace_id = ? AND id = ?`).run(
        a.detailRaw,
        a.now,
        a.workspaceId,
        a.agentId,
      );
      prepared(db, `DELETE FROM agent_subscription_drafts WHERE workspace_id = ? AND agent_id = ?`).run(
        a.workspaceId,
        a.agentId,
      );
    },
  ),
  'agents.syncState': query(
    (db, a: { workspaceId: string }) =>
      prepared<[string], StoredSyncState>(
        db,
        `SELECT synced_at, last_error, last_error_at FROM agent_sync WHERE workspace_id = ?`,
      ).get(a.workspaceId) ?? null,
  ),
  'agents.syncFailed': query((db, a: { workspaceId: string; message: string; at: string }) => {
    prepared(
      db,
      `INSERT INTO agent_sync (workspace_id, synced_at, last_error, last_error_at) VALUES (?, NULL, ?, ?)
       ON CONFLICT (workspace_id) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at`,
    ).run(a.workspaceId, a.message, a.at);
  }),

  'agents.createDraft': query(
    (
      db,
      a: {
        workspaceId: string;
        id: string;
        name: string;
        prompt: string;
        language: string | null;
        variables: string[];
        now: string;
      },
    ) => {
      prepared(
        db,
        `INSERT INTO agents (workspace_id, id, name, is_local_draft, language, version_count, variables, draft_prompt,
           list_order, updated_at)
         VALUES (?, ?, ?, 1, ?, 1, ?, ?, 0, ?)`,
      ).run(a.workspaceId, a.id, a.name, a.language, JSON.stringify(a.variables), a.prompt, a.now);
    },
  ),
  'agents.updateDraft': query(
    (
      db,
      a: {
        workspaceId: string;
        id: string;
        name: string;
        prompt: string;
        language: string | null;
        variables: string[];
        now: string;
      },
    ) =>
      prepared(
        db,
        `UPDATE agents SET name = ?, language = ?, variables = ?, draft_prompt = ?, updated_at = ?
         WHERE workspace_id = ? AND id = ? AND is_local_draft = 1`,
      ).run(a.name, a.language, JSON.stringify(a.variables), a.prompt, a.now, a.workspaceId, a.id).changes,
  ),
  'agents.deleteDraft': txQuery((db, a: { workspaceId: string; id: string }) => {
    prepared(db, `DELETE FROM agent_mappings WHERE workspace_id = ? AND agent_id = ?`).run(
      a.workspaceId,
      a.id,
    );
    return prepared(db, `DELETE FROM agents WHERE workspace_id = ? AND id = ? AND is_local_draft = 1`).run(
      a.workspaceId,
      a.id,
    ).changes;
  }),

  'agents.saveSubscriptionsDraft': query(
    (db, a: { workspaceId: string; agentId: string; subscriptions: string; reason: string; now: string }) => {
      prepared(
        db,
        `INSERT INTO agent_subscription_drafts (workspace_id, agent_id, subscriptions, reason, saved_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, agent_id) DO UPDATE SET subscriptions = excluded.subscriptions,
           reason = excluded.reason, saved_at = excluded.saved_at`,
      ).run(a.workspaceId, a.agentId, a.subscriptions, a.reason, a.now);
    },
  ),
  'agents.discardSubscriptionsDraft': query(
    (db, a: { workspaceId: string; agentId: string }) =>
      prepared(db, `DELETE FROM agent_subscription_drafts WHERE workspace_id = ? AND agent_id = ?`).run(
        a.workspaceId,
        a.agentId,
      ).changes,
  ),

  /** The mapping saved for this list and agent, or (no listId match) the agent's newest one elsewhere. */
  'agents.mapping': query((db, a: { workspaceId: string; agentId: string; listId: number }) => {
    const own = prepared<
      [string, string, number],
      { mapping: string; version_id: string | null; optional: string }
    >(
      db,
      `SELECT mapping, version_id, optional FROM agent_mappings WHERE workspace_id = ? AND agent_id = ? AND list_id = ?`,
    ).get(a.workspaceId, a.agentId, a.listId);
    const last = prepared<[string, string, number], { mapping: string }>(
      db,
      `SELECT mapping FROM agent_mappings WHERE workspace_id = ? AND agent_id = ? AND list_id != ?
       ORDER BY updated_at DESC LIMIT 1`,
    ).get(a.workspaceId, a.agentId, a.listId);
    return { own: own ?? null, last: last?.mapping ?? null };
  }),
  'agents.setMapping': query(
    (
      db,
      a: {
        workspaceId: string;
        agentId: string;
        listId: number;
        versionId: string | null;
        mapping: string;
        /** JSON array of the variables marked optional. */
        optional?: string;
        now: string;
      },
    ) => {
      prepared(
        db,
        `INSERT INTO agent_mappings (workspace_id, agent_id, list_id, version_id, mapping, optional, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, agent_id, list_id) DO UPDATE SET version_id = excluded.version_id,
           mapping = excluded.mapping, optional = excluded.optional, updated_at = excluded.updated_at`,
      ).run(a.workspaceId, a.agentId, a.listId, a.versionId, a.mapping, a.optional ?? '[]', a.now);
    },
  ),

  /**
   * Rows the upload carries, how many of them have each column blank, and how many have any of
   * `required` blank (the rows the service refuses; each row once): one pass over the list.
   */
  'agents.lintCounts': query((db, a: { listId: number; columns: number[]; required?: number[] }) => {
    const sums = a.columns.map((c, i) => `, coalesce(sum(${blankCellSql(c)}), 0) AS c${i}`).join('');
    const required = a.required ?? [];
    const any =
      required.length === 0
        ? ', 0 AS refused'
        : `, coalesce(sum(${required.map((c) => blankCellSql(c)).join(' OR ')}), 0) AS refused`;
    const row = prepared<[number], Record<string, number>>(
      db,
      `SELECT count(*) AS n${sums}${any} FROM contacts WHERE list_id = ? AND ${UPLOAD_ROWS_SQL}`,
    ).get(a.listId)!;
    return {
      uploadRows: row.n ?? 0,
      empty: a.columns.map((_, i) => row[`c${i}`] ?? 0),
      refused: row.refused ?? 0,
    };
  }),
  /** The first row of the filter after (or before) `fromRow` with any of `columns` blank. */
  'agents.problemRow': query(
    (
      db,
      a: {
        listId: number;
        filter: ContactFilter;
        fromRow: number;
        direction: 'next' | 'previous';
        columns: number[];
      },
    ) => {
      if (a.columns.length === 0) return null;
      const blank = a.columns.map((c) => blankCellSql(c)).join(' OR ');
      const next = a.direction === 'next';
      return (
        prepared<[number, number], { row: number; pos: number; cells: string }>(
          db,
          `SELECT row, pos, cells FROM contacts WHERE list_id = ? AND ${filterWhere(a.filter)} AND row ${next ? '>' : '<'} ?
           AND (${blank}) ORDER BY row ${next ? 'ASC' : 'DESC'} LIMIT 1`,
        ).get(a.listId, a.fromRow) ?? null
      );
    },
  ),
};
