// The do-not-call list's back end: entries by hand, from calls and from files, removal with undo,
// history, the offers results make (DND_SKIPPED calls, opt-out phrases in transcripts), the check
// of a contact list, and the export. Every change emits `suppression:changed`, which makes open
// contact lists recount and the page reload.
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_OPT_OUT_PHRASES } from '../../../shared/domain/suppression.ts';
import type { SuppressionEntry, SuppressionReason } from '../../../shared/domain/suppression.ts';
import { parseTestCallNumber } from '../../../shared/domain/testCall.ts';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import type { SuppressionEntryView } from '../../../shared/ipc/channels/suppression.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import { callE164 } from './offers.queries.ts';
import { SHARED } from './suppressedSql.ts';
import type { StoredEntry } from './entries.queries.ts';
import { newDownload, removeDownload } from '../files/downloads.ts';
import { createAtomicFile } from '../files/atomicFile.ts';
import type { EventBus } from '../desk/events.ts';
import { createSheetWriter } from '../../../shared/domain/xlsx/writeSheet.ts';
import { entryOfRow, FILE_COLUMNS, fileCells, fileColumns, fileHeader, fileLine } from './suppressionFile.ts';
import { z } from 'zod';
import { cellsJson } from '../db/storedCells.ts';
import { storedJson } from '../db/storedJson.ts';
import { storedSourceSchema } from './entries.queries.ts';

const sourceJson = storedJson(storedSourceSchema, 'suppression history source');
const headersJson = storedJson(z.array(z.string()), 'list headers');

export const PHRASES_KEY = 'suppression.phrases';
/** Entries written per database call (an import of a million numbers never holds the writer long). */
const CHUNK = 2000;

/** Who adds an entry: the operator's login on this machine. */
export function operatorName(): string {
  try {
    return userInfo().username || 'operator';
  } catch {
    return 'operator';
  }
}

export const entryView = (e: StoredEntry): SuppressionEntryView => ({
  number: `+${e.e164}`,
  shared: e.workspaceId === SHARED,
  reason: e.reason,
  sources: e.sources,
  addedBy: e.addedBy,
  addedAt: e.addedAt,
  expiresAt: e.expiresAt,
});

const e164Of = (number: string) => Number(number.slice(1));

export interface SuppressionServiceOptions {
  db: DbClient;
  dataDir: string;
  events?: EventBus;
  /** The workspace the app works in (the active one); throws when there is none. */
  workspace: () => Promise<string>;
}

export function createSuppressionService(o: SuppressionServiceOptions) {
  const { db } = o;
  /** The last removals, for Undo (a handful; the oldest go first). */
  const removals = new Map<string, { workspaceId: string; entries: StoredEntry[] }>();

  const counts = async (workspaceId: string) => {
    const offers = await db.call('suppression.offers', { workspaceId });
    return {
      dndSkipped: offers.filter((x) => x.kind === 'dnd_skipped').length,
      optOutPhrases: offers.filter((x) => x.kind === 'opt_out_phrase').length,
    };
  };
  const changed = async (workspaceId: string) => {
    const c = await counts(workspaceId);
    o.events?.emit('suppression:changed', { workspaceId, counts: c });
    return c;
  };
  const listOf = (workspaceId: string, shared: boolean) => (shared ? SHARED : workspaceId);

  const addEntries = async (workspaceId: string, entries: SuppressionEntry[]) => {
    let added = 0;
    let merged = 0;
    for (let i = 0; i < entries.length; i += CHUNK) {
      const r = await db.call('suppression.add', { workspaceId, entries: entries.slice(i, i + CHUNK) });
      added += r.added;
      merged += r.merged;
    }
    return { added, merged };
  };

  const phrases = async (): Promise<string[]> => {
    const stored = await db.call('settings.get', { key: PHRASES_KEY });
    return Array.isArray(stored) && stored.every((p) => typeof p === 'string')
      ? (stored as string[])
      : [...DEFAULT_OPT_OUT_PHRASES];
  };

  /** New offers from the workspace's stored calls: DND skips, then transcripts not scanned yet. */
  const scan = async (workspaceId: string, fromStart = false) => {
    const at = new Date().toISOString();
    await db.call('suppression.offerDnd', { workspaceId, at });
    const list = await phrases();
    let scanned = 0;
    let first = true;
    for (;;) {
      const r = await db.call('suppression.scanTranscripts', {
        workspaceId,
        phrases: list,
        at,
        fromStart: fromStart && first,
      });
      first = false;
      scanned += r.scanned;
      if (r.done) break;
    }
    return { scanned, counts: await changed(workspaceId) };
  };

  const exportTarget = (path: string, fileName: string): string => {
    const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
    if (!isAbsolute(expanded))
      throw new DeskFailure(
        'invalid_request',
        'Give a full path, such as ~/Downloads/do-not-call.csv.',
        'path',
      );
    let target = resolve(expanded);
    if (existsSync(target) && statSync(target).isDirectory()) target = join(target, fileName);
    if (!existsSync(dirname(target)))
      throw new DeskFailure('file_error', `The folder ${dirname(target)} does not exist.`, 'path');
    return target;
  };

  /** The list as CSV (the engine's csvCell) or as a one-sheet .xlsx of text cells. */
  const writeFile = async (
    workspaceId: string,
    scope: 'workspace' | 'shared' | 'both',
    format: 'csv' | 'xlsx',
    target: string,
  ) => {
    const file = await createAtomicFile(target);
    try {
      let bytes = 0;
      let rows = 0;
      const chunks: Uint8Array[] = [];
      const flush = async () => {
        for (const c of chunks.splice(0)) {
          bytes += c.length;
          await file.write(c);
        }
      };
      const sheet = format === 'xlsx' ? createSheetWriter('Do not call', (c) => chunks.push(c)) : null;
      const header = fileHeader();
      if (sheet) sheet.row(FILE_COLUMNS);
      else chunks.push(Buffer.from(header));
      for await (const page of db.stream('suppression.exportEntries', { workspaceId, scope, batch: 5000 })) {
        if (sheet) for (const e of page) sheet.row(fileCells(e));
        else chunks.push(Buffer.from(page.map(fileLine).join('')));
        rows += page.length;
        await flush();
      }
      sheet?.end();
      await flush();
      await file.commit();
      return { rows, bytes };
    } catch (error) {
      await file.discard();
      throw error;
    }
  };

  return {
    scan,
    changed,
    async list(req: ParsedRequestOf<'suppression:list'>): Promise<ResponseOf<'suppression:list'>> {
      const workspaceId = await o.workspace();
      const r = await db.call('suppression.page', { workspaceId, ...req });
      return { total: r.total, entries: r.entries.map(entryView) };
    },

    async add(req: ParsedRequestOf<'suppression:add'>): Promise<ResponseOf<'suppression:add'>> {
      const workspaceId = await o.workspace();
      const at = new Date().toISOString();
      const by = operatorName();
      const refused: { number: string; message: string }[] = [];
      const entries: SuppressionEntry[] = [];
      for (const text of req.numbers) {
        const parsed = parseTestCallNumber(text, req.country);
        if (!parsed.ok) {
          refused.push({ number: text, message: parsed.message });
          continue;
        }
        entries.push({
          e164: e164Of(parsed.e164),
          reason: req.reason,
          sources: [{ kind: 'manual', ref: by, at }],
          addedBy: by,
          addedAt: at,
          expiresAt: req.expiresAt === null ? null : new Date(req.expiresAt).toISOString(),
        });
      }
      const r = await addEntries(listOf(workspaceId, req.shared), entries);
      if (entries.length > 0) await changed(workspaceId);
      return { ...r, refused };
    },

    async remove(req: ParsedRequestOf<'suppression:remove'>): Promise<ResponseOf<'suppression:remove'>> {
      const workspaceId = await o.workspace();
      const removed = await db.call('suppression.remove', {
        workspaceId: listOf(workspaceId, req.shared),
        numbers: req.numbers.map(e164Of),
        by: operatorName(),
        at: new Date().toISOString(),
      });
      if (removed.length === 0) return { removed: 0, undoToken: null };
      const undoToken = randomUUID();
      removals.set(undoToken, { workspaceId, entries: removed });
      while (removals.size > 20) removals.delete(removals.keys().next().value as string);
      await changed(workspaceId);
      return { removed: removed.length, undoToken };
    },

    async undoRemove(
      req: ParsedRequestOf<'suppression:undo-remove'>,
    ): Promise<ResponseOf<'suppression:undo-remove'>> {
      const workspaceId = await o.workspace();
      const removal = removals.get(req.undoToken);
      if (!removal || removal.workspaceId !== workspaceId)
        throw new DeskFailure(
          'not_found',
          'Nothing to undo: the removal is too old or was undone.',
          'undoToken',
        );
      removals.delete(req.undoToken);
      for (const list of [SHARED, workspaceId]) {
        const entries = removal.entries.filter((e) => e.workspaceId === list);
        if (entries.length > 0)
          await db.call('suppression.add', {
            workspaceId: list,
            action: 'restored',
            entries: entries.map(({ workspaceId: _w, ...e }) => e),
          });
      }
      await changed(workspaceId);
      return { restored: removal.entries.length };
    },

    async history(req: ParsedRequestOf<'suppression:history'>): Promise<ResponseOf<'suppression:history'>> {
      const workspaceId = await o.workspace();
      const rows = await db.call('suppression.history', { workspaceId, e164: e164Of(req.number) });
      return {
        events: rows.map((r) => ({
          shared: r.workspace_id === SHARED,
          action: r.action,
          reason: r.reason,
          source: r.source ? sourceJson(r.source) : null,
          by: r.by,
          at: r.at,
        })),
      };
    },

    async fromCalls(
      req: ParsedRequestOf<'suppression:from-calls'>,
    ): Promise<ResponseOf<'suppression:from-calls'>> {
      const workspaceId = await o.workspace();
      const calls = await db.call('suppression.callNumbers', { workspaceId, callIds: req.callIds });
      const at = new Date().toISOString();
      const by = operatorName();
      const refused: { number: string; message: string }[] = [];
      const found = new Set(calls.map((c) => c.id));
      for (const id of req.callIds)
        if (!found.has(id)) refused.push({ number: id, message: 'No such call in this workspace.' });
      const entries: SuppressionEntry[] = [];
      for (const c of calls) {
        const e164 = callE164(c.to_number);
        if (e164 === null) {
          refused.push({ number: c.to_number ?? c.id, message: 'The call has no number to suppress.' });
          continue;
        }
        entries.push({
          e164,
          reason: req.reason,
          sources: [
            { kind: 'call', ref: c.id, at },
            ...(c.bulk_list_id ? [{ kind: 'campaign' as const, ref: c.bulk_list_id, at }] : []),
          ],
          addedBy: by,
          addedAt: at,
          expiresAt: null,
        });
      }
      const r = await addEntries(listOf(workspaceId, req.shared), entries);
      if (entries.length > 0) await changed(workspaceId);
      return { ...r, refused };
    },

    async fromResults(
      req: ParsedRequestOf<'suppression:from-results'>,
    ): Promise<ResponseOf<'suppression:from-results'>> {
      const workspaceId = await o.workspace();
      const rows = await db.call('calls.outcomeRows', {
        workspaceId,
        bulkListId: req.bulkListId,
        outcomes: req.outcomes,
      });
      if (rows === null)
        throw new DeskFailure(
          'not_found',
          'This campaign was not launched from a contact list here.',
          'bulkListId',
        );
      const numbers = await db.call('suppression.campaignRowNumbers', {
        workspaceId,
        bulkListId: req.bulkListId,
        rows,
      });
      const at = new Date().toISOString();
      const by = operatorName();
      const r = await addEntries(
        listOf(workspaceId, req.shared),
        numbers.map((e164) => ({
          e164,
          reason: req.reason,
          sources: [{ kind: 'campaign' as const, ref: req.bulkListId, at }],
          addedBy: by,
          addedAt: at,
          expiresAt: null,
        })),
      );
      if (numbers.length > 0) await changed(workspaceId);
      return { ...r, refused: [] };
    },

    async offers(req: ParsedRequestOf<'suppression:offers'>): Promise<ResponseOf<'suppression:offers'>> {
      const workspaceId = await o.workspace();
      const rows = await db.call('suppression.offers', {
        workspaceId,
        ...(req.kind ? { kind: req.kind } : {}),
      });
      return {
        counts: await counts(workspaceId),
        offers: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          callId: r.call_id,
          number: `+${r.e164}`,
          phrase: r.phrase,
          excerpt: r.excerpt,
          createdAt: r.created_at,
        })),
      };
    },

    async resolveOffers(
      req: ParsedRequestOf<'suppression:resolve-offers'>,
    ): Promise<ResponseOf<'suppression:resolve-offers'>> {
      const workspaceId = await o.workspace();
      const ids =
        'ids' in req
          ? req.ids
          : (await db.call('suppression.offers', { workspaceId, kind: req.all })).map((x) => x.id);
      let resolved = 0;
      for (let i = 0; i < ids.length; i += CHUNK)
        resolved += await db.call('suppression.resolveOffers', {
          workspaceId,
          ids: ids.slice(i, i + CHUNK),
          accept: req.accept,
          by: operatorName(),
          at: new Date().toISOString(),
        });
      return { resolved, counts: await changed(workspaceId) };
    },

    async scanNow(): Promise<ResponseOf<'suppression:scan'>> {
      return scan(await o.workspace());
    },

    phrases: async (): Promise<ResponseOf<'suppression:phrases'>> => ({ phrases: await phrases() }),

    async setPhrases(
      req: ParsedRequestOf<'suppression:set-phrases'>,
    ): Promise<ResponseOf<'suppression:set-phrases'>> {
      const list = [...new Set(req.phrases)];
      await db.call('settings.set', { key: PHRASES_KEY, value: list });
      // Every transcript is read again with the new list (offers already made stay).
      await scan(await o.workspace(), true);
      return { phrases: list };
    },

    async listCheck(
      req: ParsedRequestOf<'suppression:list-check'>,
    ): Promise<ResponseOf<'suppression:list-check'>> {
      const workspaceId = await o.workspace();
      const byReason = await db.call('suppression.listCheck', { listId: req.listId, workspaceId });
      return { total: Object.values(byReason).reduce<number>((a, b) => a + (b ?? 0), 0), byReason };
    },

    async importList(
      req: ParsedRequestOf<'suppression:import-list'>,
    ): Promise<ResponseOf<'suppression:import-list'>> {
      const workspaceId = await o.workspace();
      const list = await db.call('contacts.list', { listId: req.listId });
      if (!list || list.status !== 'ready')
        throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
      const cols = fileColumns(headersJson(list.headers));
      const fallback = {
        reason: req.reason as SuppressionReason,
        fileName: list.file_name,
        by: operatorName(),
        at: new Date().toISOString(),
      };
      const target = listOf(workspaceId, req.shared);
      let added = 0;
      let merged = 0;
      let taken = 0;
      for await (const page of db.stream('suppression.listRows', { listId: req.listId, batch: CHUNK })) {
        taken += page.length;
        const r = await db.call('suppression.add', {
          workspaceId: target,
          entries: page.map((row) => entryOfRow(row.e164, cellsJson(row.cells), cols, fallback)),
        });
        added += r.added;
        merged += r.merged;
      }
      await changed(workspaceId);
      // Rows not taken: invalid, excluded or without a number.
      const rows = await db.call('suppression.listRowCount', { listId: req.listId });
      return { added, merged, skipped: Math.max(0, rows - taken) };
    },

    async exportFile(req: ParsedRequestOf<'suppression:export'>): Promise<ResponseOf<'suppression:export'>> {
      const workspaceId = await o.workspace();
      const fileName = `do-not-call-${req.scope}.${req.format}`;
      if ('path' in req) {
        const target = exportTarget(req.path, fileName);
        const r = await writeFile(workspaceId, req.scope, req.format, target);
        return { ...r, fileName: basename(target), path: target, downloadUrl: null };
      }
      const download = newDownload(o.dataDir);
      try {
        const r = await writeFile(workspaceId, req.scope, req.format, join(download.dir, fileName));
        return { ...r, fileName, path: null, downloadUrl: download.url };
      } catch (error) {
        removeDownload(download.dir);
        throw error;
      }
    },
  };
}

export type SuppressionService = ReturnType<typeof createSuppressionService>;
