// The do-not-call list in SQLite (migration 0170): entries per workspace and the shared list
// (workspace_id ''), their history, the offers made from call results, and the SQL term every
// upload and grid read uses to hold suppressed rows back.
import { createPhraseMatcher, mergeEntries } from '../../../../shared/domain/suppression.ts';
import type {
  SuppressionEntry,
  SuppressionReason,
  SuppressionSource,
} from '../../../../shared/domain/suppression.ts';
import { normalizeTranscript } from '../../../../shared/service/normalize.ts';
import type { Db } from '../define.ts';
import { prepared, query, read, readStream, txQuery } from '../define.ts';
import { readSetting, writeSetting } from './settings.ts';

/** The shared list's workspace id. */
export const SHARED = '';

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** The active workspace, as the grid sees it (app_settings, written by workspaces:set-active). */
const ACTIVE_WORKSPACE = `(SELECT json_extract(value, '$') FROM app_settings WHERE key = 'activeWorkspaceId')`;
const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * SQL true when the row `alias`'s number is on the workspace's list or the shared one and in
 * force. `workspaceId` null = the active workspace (the grid and the Summary). Two probes of the
 * primary key (number first) per row: a 1M-row list against a 1M-entry list is ~1M probes.
 */
export const suppressedSql = (workspaceId: string | null, alias = 'contacts'): string =>
  `EXISTS (SELECT 1 FROM suppressions s WHERE s.e164 = ${alias}.e164 AND s.workspace_id IN ('', ${
    workspaceId === null ? ACTIVE_WORKSPACE : quote(workspaceId)
  }) AND (s.expires_at IS NULL OR s.expires_at > ${NOW}))`;

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
  sources: JSON.parse(r.sources) as SuppressionSource[],
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
function add(db: Db, a: AddArgs): { added: number; merged: number } {
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

// ---- offers from call results ----

export interface OfferRow {
  id: number;
  kind: 'dnd_skipped' | 'opt_out_phrase';
  call_id: string;
  e164: number;
  phrase: string | null;
  excerpt: string | null;
  created_at: string;
}

/** E.164 digits of a call's number, or null when it is not one. */
export const callE164 = (toNumber: string | null): number | null => {
  const digits = (toNumber ?? '').trim();
  return /^\+[1-9]\d{6,14}$/.test(digits) ? Number(digits.slice(1)) : null;
};

const offerInsert = (db: Db) =>
  prepared(
    db,
    `INSERT INTO suppression_offers (workspace_id, kind, call_id, e164, phrase, excerpt, created_at)
     SELECT @ws, @kind, @callId, @e164, @phrase, @excerpt, @at
     WHERE NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.e164 = @e164 AND s.workspace_id IN ('', @ws))
     ON CONFLICT DO NOTHING`,
  );

/** Offers every DND_SKIPPED call of the workspace whose number is not suppressed yet (once per call). */
function offerDnd(db: Db, a: { workspaceId: string; at: string }): number {
  const calls = prepared<[string], { id: string; to_number: string | null }>(
    db,
    `SELECT c.id, c.to_number FROM calls c WHERE c.workspace_id = ? AND c.sub_status = 'DND_SKIPPED'
       AND NOT EXISTS (SELECT 1 FROM suppression_offers o WHERE o.workspace_id = c.workspace_id AND o.kind = 'dnd_skipped' AND o.call_id = c.id)`,
  ).all(a.workspaceId);
  let made = 0;
  for (const c of calls) {
    const e164 = callE164(c.to_number);
    if (e164 !== null)
      made += offerInsert(db).run({
        ws: a.workspaceId,
        kind: 'dnd_skipped',
        callId: c.id,
        e164,
        phrase: null,
        excerpt: null,
        at: a.at,
      }).changes;
  }
  return made;
}

const scanKey = (workspaceId: string) => `suppression.scannedSeq.${workspaceId}`;

/** The customer's turns of a stored call (its whole text when the transcript has no turns). */
function customerTexts(raw: string, text: string): string[] {
  try {
    const turns = normalizeTranscript((JSON.parse(raw) as { transcript?: unknown }).transcript);
    if (turns.length > 0) return turns.filter((t) => t.speaker !== 'agent').map((t) => t.text);
  } catch {
    // not readable: the text as stored
  }
  return text ? [text] : [];
}

/**
 * Scans the transcripts of up to `batch` calls stored since the last scan (from the first call
 * when `fromStart`) for the phrases; each match becomes an offer (never an entry). One batch per
 * call, so the writer is held briefly; `done` says whether calls are left.
 */
function scanTranscripts(
  db: Db,
  a: { workspaceId: string; phrases: string[]; at: string; fromStart?: boolean; batch?: number },
): { scanned: number; offered: number; done: boolean } {
  const match = createPhraseMatcher(a.phrases);
  const from = a.fromStart ? 0 : Number(readSetting(db, scanKey(a.workspaceId)) ?? 0);
  const batch = a.batch ?? 2000;
  const calls = prepared<
    [string, number, number],
    { seq: number; id: string; to_number: string | null; raw: string; transcript_text: string }
  >(
    db,
    `SELECT seq, id, to_number, raw, transcript_text FROM calls
     WHERE workspace_id = ? AND seq > ? AND transcript_text != '' ORDER BY seq LIMIT ?`,
  ).all(a.workspaceId, from, batch);
  let offered = 0;
  for (const c of calls) {
    const found = match(customerTexts(c.raw, c.transcript_text));
    const e164 = callE164(c.to_number);
    if (found && e164 !== null)
      offered += offerInsert(db).run({
        ws: a.workspaceId,
        kind: 'opt_out_phrase',
        callId: c.id,
        e164,
        phrase: found.phrase,
        excerpt: found.excerpt,
        at: a.at,
      }).changes;
  }
  if (calls.length > 0) writeSetting(db, scanKey(a.workspaceId), calls[calls.length - 1]!.seq);
  return { scanned: calls.length, offered, done: calls.length < batch };
}

const openOffers = (db: Db, a: { workspaceId: string; kind?: OfferRow['kind'] }): OfferRow[] =>
  prepared<[{ ws: string; kind: string | null }], OfferRow>(
    db,
    `SELECT id, kind, call_id, e164, phrase, excerpt, created_at FROM suppression_offers
     WHERE workspace_id = @ws AND state = 'open' AND (@kind IS NULL OR kind = @kind) ORDER BY id`,
  ).all({ ws: a.workspaceId, kind: a.kind ?? null });

/**
 * The operator's answer to offers: accepted ones are added to the workspace's list (a DND skip as
 * dnd_registry, a phrase as opted_out, the call as source); dismissed ones are not offered again.
 */
function resolveOffers(
  db: Db,
  a: { workspaceId: string; ids: number[]; accept: boolean; by: string; at: string },
): number {
  let done = 0;
  for (const id of a.ids) {
    const offer = prepared<[number, string], OfferRow>(
      db,
      `SELECT id, kind, call_id, e164, phrase, excerpt, created_at FROM suppression_offers WHERE id = ? AND workspace_id = ? AND state = 'open'`,
    ).get(id, a.workspaceId);
    if (!offer) continue;
    prepared(db, `UPDATE suppression_offers SET state = ? WHERE id = ?`).run(
      a.accept ? 'accepted' : 'dismissed',
      id,
    );
    done++;
    if (!a.accept) continue;
    add(db, {
      workspaceId: a.workspaceId,
      entries: [
        {
          e164: offer.e164,
          reason: offer.kind === 'dnd_skipped' ? 'dnd_registry' : 'opted_out',
          sources: [{ kind: 'call', ref: offer.call_id, at: a.at }],
          addedBy: a.by,
          addedAt: a.at,
          expiresAt: null,
        },
      ],
    });
  }
  return done;
}

/** The numbers of some calls of a workspace (Do not call again on a call or a results selection). */
const callNumbers = (db: Db, a: { workspaceId: string; callIds: string[] }) =>
  prepared<[string, string], { id: string; to_number: string | null; bulk_list_id: string | null }>(
    db,
    `SELECT id, to_number, bulk_list_id FROM calls WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))`,
  ).all(a.workspaceId, JSON.stringify(a.callIds));

/** A contact list's valid rows that are not excluded, with their cells (a suppression file's import). */
function* listRows(
  db: Db,
  a: { listId: number; batch: number },
): Iterator<{ row: number; cells: string; e164: number }[], void, undefined> {
  let from = 0;
  for (;;) {
    const rows = prepared<[number, number, number], { row: number; cells: string; e164: number }>(
      db,
      `SELECT row, cells, e164 FROM contacts WHERE list_id = ? AND row > ? AND bucket = 0 AND excluded = 0
         AND e164 IS NOT NULL ORDER BY row LIMIT ?`,
    ).all(a.listId, from, a.batch);
    if (rows.length === 0) return;
    from = rows[rows.length - 1]!.row;
    yield rows;
  }
}

/** The numbers of some rows of a campaign's launched list (a Campaign results selection). */
const campaignRowNumbers = (
  db: Db,
  a: { workspaceId: string; bulkListId: string; rows: number[] },
): number[] =>
  prepared<[string, string, string], number>(
    db,
    `SELECT DISTINCT c.e164 FROM campaign_lists cl JOIN contacts c ON c.list_id = cl.list_id
     WHERE cl.workspace_id = ? AND cl.bulk_list_id = ? AND c.row IN (SELECT value FROM json_each(?))
       AND c.e164 IS NOT NULL ORDER BY c.e164`,
  )
    .pluck()
    .all(a.workspaceId, a.bulkListId, JSON.stringify(a.rows));

export const suppressionQueries = {
  'suppression.campaignRowNumbers': read(campaignRowNumbers),
  'suppression.listRows': readStream(listRows),
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
  'suppression.offerDnd': txQuery(offerDnd),
  'suppression.scanTranscripts': txQuery(scanTranscripts),
  'suppression.offers': query(openOffers),
  'suppression.resolveOffers': txQuery(resolveOffers),
  'suppression.callNumbers': query(callNumbers),
  'suppression.resetScan': query((db, a: { workspaceId: string }) =>
    writeSetting(db, scanKey(a.workspaceId), 0),
  ),
};
