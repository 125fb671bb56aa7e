// Offers to add numbers to the do-not-call list made from call results (DND skips, opt-out phrases
// in transcripts), and the numbers of calls, lists and campaign rows that an entry can come from.
import { z } from 'zod';
import { createPhraseMatcher } from '../../../shared/domain/suppression.ts';
import { normalizeTranscript } from '../../../shared/service/normalize.ts';
import type { Db } from '../db/define.ts';
import { prepared, query, readStream, read, txQuery } from '../db/define.ts';
import { storedJson } from '../db/storedJson.ts';
import { readSetting, writeSetting } from '../settings/settings.queries.ts';
import { add } from './entries.queries.ts';

/** A stored call's raw answer, for its transcript only (other keys are not read). */
const rawTranscriptJson = storedJson(z.object({ transcript: z.unknown() }), 'call raw answer');

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
    const turns = normalizeTranscript(rawTranscriptJson(raw).transcript);
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

export const suppressionOfferQueries = {
  'suppression.campaignRowNumbers': read(campaignRowNumbers),
  'suppression.listRows': readStream(listRows),
  'suppression.listRowCount': read(
    (db, a: { listId: number }) =>
      prepared<[number], { n: number }>(db, `SELECT count(*) AS n FROM contacts WHERE list_id = ?`).get(
        a.listId,
      )!.n,
  ),
  'suppression.offerDnd': txQuery(offerDnd),
  'suppression.scanTranscripts': txQuery(scanTranscripts),
  'suppression.offers': query(openOffers),
  'suppression.resolveOffers': txQuery(resolveOffers),
  'suppression.callNumbers': query(callNumbers),
  'suppression.resetScan': query((db, a: { workspaceId: string }) =>
    writeSetting(db, scanKey(a.workspaceId), 0),
  ),
};
