// The do-not-call list in SQLite (migration 0170): entries per workspace and the shared list
// (workspace_id ''), their history, pages, lookups and the counts an upload check shows.
import { mergeEntries } from '../../../shared/domain/suppression.ts';
import type {
  SuppressionEntry,
  SuppressionReason,
  SuppressionSource,
} from '../../../shared/domain/suppression.ts';
import { SOURCE_KINDS } from '../../../shared/domain/suppression.ts';
import { z } from 'zod';
import type { Db } from '../db/define.ts';
import { prepared, query, read, readStream, txQuery } from '../db/define.ts';
import { storedJson } from '../db/storedJson.ts';
import { ACTIVE_WORKSPACE, NOW, quote, suppressedSql } from './suppressedSql.ts';

/** Where an entry came from, as stored (entries' sources, history rows' source). */
export const storedSourceSchema = z.object({ kind: z.enum(SOURCE_KINDS), ref: z.string(), at: z.string() });
const sourcesJson = storedJson(z.array(storedSourceSchema), 'suppression sources');

interface EntryRow {
  e164: number;
  workspace_id: string;
  reason: SuppressionReason;
  sources: string;
  note: string;
  added_by: string;
  added_at: string;
  expires_at: string | null;
}

export interface StoredEntry extends SuppressionEntry {
  workspaceId: string;
}

const toEntry = (r: EntryRow): StoredEntry => ({
  e164: r.e164,
  workspaceId: r.workspace_id,
  reason: r.reason,
  sources: sourcesJson(r.sources),
  addedBy: r.added_by,
  addedAt: r.added_at,
  expiresAt: r.expires_at,
});

const getEntry = (db: Db, workspaceId: string, e164: number): StoredEntry | null => {
  const row = prepared<[number, string], EntryRow>(
    db,
    `SELECT * FROM suppressions WHERE e164 = ? AND workspace_id = ?`,
  ).get(e164, workspaceId);
  return row ? toEntry(row) : null;
};

const history = (
  db: Db,
  h: {
    e164: number;
    workspaceId: string;
    action: string;
    reason: string;
    source: SuppressionSource | null;
    entry: SuppressionEntry | null;
    by: string;
    at: string;
  },
) =>
  prepared(
    db,
    `INSERT INTO suppression_history (e164, workspace_id, action, reason, source, entry, actor, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    h.e164,
    h.workspaceId,
    h.action,
    h.reason,
    h.source ? JSON.stringify(h.source) : null,
    h.entry ? JSON.stringify(h.entry) : null,
    h.by,
    h.at,
  );

const writeEntry = (db: Db, workspaceId: string, e: SuppressionEntry) =>
  prepared(
    db,
    `INSERT INTO suppressions (e164, workspace_id, reason, sources, added_by, added_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (e164, workspace_id) DO UPDATE SET reason = excluded.reason, sources = excluded.sources,
       added_by = excluded.added_by, added_at = excluded.added_at, expires_at = excluded.expires_at`,
  ).run(e.e164, workspaceId, e.reason, JSON.stringify(e.sources), e.addedBy, e.addedAt, e.expiresAt);

export interface AddArgs {
  workspaceId: string;
  entries: SuppressionEntry[];
  /** 'restored' for an undo of a removal; history rows say so. */
  action?: 'added' | 'restored';
}

/** Adds entries, merging each with the number's entry on that list (earliest reason, every source). */
export function add(db: Db, a: AddArgs): { added: number; merged: number } {
  let added = 0;
  let merged = 0;
  for (const incoming of a.entries) {
    const kept = getEntry(db, a.workspaceId, incoming.e164);
    const next = kept ? mergeEntries(kept, incoming) : incoming;
    writeEntry(db, a.workspaceId, next);
    if (kept) merged++;
    else added++;
    history(db, {
      e164: incoming.e164,
      workspaceId: a.workspaceId,
      action: kept && a.action !== 'restored' ? 'merged' : (a.action ?? 'added'),
      reason: incoming.reason,
      source: incoming.sources[0] ?? null,
      entry: null,
      by: incoming.addedBy,
      at: incoming.addedAt,
    });
  }
  return { added, merged };
}

/** Removes numbers from one list; answers the entries as they were (the undo puts them back). */
function remove(
  db: Db,
  a: { workspaceId: string; numbers: number[]; by: string; at: string },
): StoredEntry[] {
  const out: StoredEntry[] = [];
  for (const e164 of a.numbers) {
    const kept = getEntry(db, a.workspaceId, e164);
    if (!kept) continue;
    prepared(db, `DELETE FROM suppressions WHERE e164 = ? AND workspace_id = ?`).run(e164, a.workspaceId);
    const { workspaceId: _w, ...entry } = kept;
    history(db, {
      e164,
      workspaceId: a.workspaceId,
      action: 'removed',
      reason: kept.reason,
      source: null,
      entry,
      by: a.by,
      at: a.at,
    });
    out.push(kept);
  }
  return out;
}

export interface PageArgs {
  workspaceId: string;
  /** 'workspace' = its own list, 'shared' = the shared list, 'both' = both. */
  scope: 'workspace' | 'shared' | 'both';
  /** Digits the number contains ('' = every entry). */
  search: string;
  offset: number;
  limit: number;
}

const scopeSql = (scope: PageArgs['scope']) =>
  scope === 'workspace'
    ? `workspace_id = @ws`
    : scope === 'shared'
      ? `workspace_id = ''`
      : `workspace_id IN ('', @ws)`;

function page(db: Db, a: PageArgs): { total: number; entries: StoredEntry[] } {
  const digits = a.search.replace(/\D/g, '');
  const where = `${scopeSql(a.scope)} AND (@digits = '' OR CAST(e164 AS TEXT) LIKE '%' || @digits || '%')`;
  const params = { ws: a.workspaceId, digits, limit: a.limit, offset: a.offset };
  const total = prepared<[typeof params], { n: number }>(
    db,
    `SELECT count(*) AS n FROM suppressions WHERE ${where}`,
  ).get(params)!.n;
  const rows = prepared<[typeof params], EntryRow>(
    db,
    `SELECT * FROM suppressions WHERE ${where} ORDER BY added_at DESC, e164 LIMIT @limit OFFSET @offset`,
  ).all(params);
  return { total, entries: rows.map(toEntry) };
}

/** The entries in force for some numbers (the workspace's and the shared list's, earliest first). */
function lookup(db: Db, a: { workspaceId: string; numbers: number[] }): StoredEntry[] {
  return prepared<[string, string], EntryRow>(
    db,
    `SELECT s.* FROM json_each(?) j JOIN suppressions s ON s.e164 = j.value AND s.workspace_id IN ('', ?)
     WHERE s.expires_at IS NULL OR s.expires_at > ${NOW} ORDER BY s.e164, s.added_at`,
  )
    .all(JSON.stringify(a.numbers), a.workspaceId)
    .map(toEntry);
}

/**
 * The rows of a contact list the upload would carry (valid, not excluded) whose number is
 * suppressed, counted per reason (the number's earliest reason over both lists).
 */
function listCheck(
  db: Db,
  a: { listId: number; workspaceId: string | null },
): Partial<Record<SuppressionReason, number>> {
  const ws = a.workspaceId === null ? ACTIVE_WORKSPACE : quote(a.workspaceId);
  const rows = prepared<[number], { reason: SuppressionReason; n: number }>(
    db,
    `SELECT (SELECT s.reason FROM suppressions s WHERE s.e164 = c.e164 AND s.workspace_id IN ('', ${ws})
               AND (s.expires_at IS NULL OR s.expires_at > ${NOW}) ORDER BY s.added_at LIMIT 1) AS reason,
            count(*) AS n
     FROM contacts c WHERE c.list_id = ? AND c.bucket = 0 AND c.excluded = 0 AND ${suppressedSql(a.workspaceId, 'c')}
     GROUP BY 1`,
  ).all(a.listId);
  return Object.fromEntries(rows.map((r) => [r.reason, r.n])) as Partial<Record<SuppressionReason, number>>;
}

/** Reasons for some rows of a list (the grid's chip), the active workspace's view. */
function rowReasons(
  db: Db,
  a: { listId: number; rows: number[] },
): { row: number; reason: SuppressionReason }[] {
  return prepared<[number, string], { row: number; reason: SuppressionReason }>(
    db,
    `SELECT c.row, (SELECT s.reason FROM suppressions s WHERE s.e164 = c.e164 AND s.workspace_id IN ('', ${ACTIVE_WORKSPACE})
               AND (s.expires_at IS NULL OR s.expires_at > ${NOW}) ORDER BY s.added_at LIMIT 1) AS reason
     FROM contacts c WHERE c.list_id = ? AND c.row IN (SELECT value FROM json_each(?)) AND c.e164 IS NOT NULL`,
  )
    .all(a.listId, JSON.stringify(a.rows))
    .filter((r) => r.reason !== null);
}

/** One list's entries in number order, a keyset page per step (the export). */
function* exportEntries(
  db: Db,
  a: { workspaceId: string; scope: PageArgs['scope']; batch: number },
): Iterator<StoredEntry[], void, undefined> {
  let from = 0;
  for (;;) {
    const params = { ws: a.workspaceId, from, batch: a.batch };
    const rows = prepared<[typeof params], EntryRow>(
      db,
      `SELECT * FROM suppressions WHERE ${scopeSql(a.scope)} AND e164 > @from ORDER BY e164, workspace_id LIMIT @batch`,
    ).all(params);
    if (rows.length === 0) return;
    from = rows[rows.length - 1]!.e164;
    yield rows.map(toEntry);
  }
}

export const suppressionEntryQueries = {
  'suppression.add': txQuery(add),
  'suppression.remove': txQuery(remove),
  'suppression.page': read(page),
  'suppression.entry': query((db, a: { workspaceId: string; e164: number }) =>
    getEntry(db, a.workspaceId, a.e164),
  ),
  'suppression.history': read((db, a: { workspaceId: string; e164: number }) =>
    prepared<
      [number, string],
      {
        id: number;
        workspace_id: string;
        action: string;
        reason: string;
        source: string | null;
        by: string;
        at: string;
      }
    >(
      db,
      `SELECT id, workspace_id, action, reason, source, actor AS "by", at FROM suppression_history
       WHERE e164 = ? AND workspace_id IN ('', ?) ORDER BY id`,
    ).all(a.e164, a.workspaceId),
  ),
  'suppression.lookup': query(lookup),
  'suppression.listCheck': read(listCheck),
  'suppression.rowReasons': read(rowReasons),
  'suppression.exportEntries': readStream(exportEntries),
};
