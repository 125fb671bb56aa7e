// The upload and rejects files written from SQLite, exactly as the engine's writers define them
// (shared/domain/contacts: uploadHeader/uploadLine, rejectsHeader and `row,reasons,tail` lines):
// streamed a keyset page at a time, written to a temporary file and renamed into place.
import {
  csvCell,
  createRowRules,
  rejectsHeader,
  uploadHeader,
} from '../../../shared/domain/contacts/index.ts';
import type { EngineSetup } from '../../../shared/domain/contacts/index.ts';
import type { ExportKind } from '../../../shared/ipc/channels/contacts.ts';
import type { DbClient } from '../db/client.ts';
import { cellsJson } from '../db/storedCells.ts';
import { createAtomicFile } from '../files/atomicFile.ts';
import type { StoredList } from './storedList.ts';
import { OPTIONAL_BLANK_VALUE } from '../../../shared/domain/serviceRefusals.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { bulkBusy, renderTail } from './rowState.ts';

const PAGE = 5000;

/** Options of an upload written for a launch. */
export interface UploadOptions {
  /** Whose do-not-call list holds rows back (the launch's workspace); absent = the active workspace's. */
  workspaceId?: string;
  /** Column indexes whose blank cells are written as OPTIONAL_BLANK_VALUE (optional variables). */
  fillBlank?: readonly number[];
  /**
   * Receives the list's spreadsheet row of each data row written, in file order: the service
   * numbers refused rows by the upload file, this maps them back to the list.
   */
  onRows?: (rows: readonly number[]) => void;
  /** Column indexes whose blank cell the service refuses: such rows are counted (`refused`). */
  refusing?: readonly number[];
}

function filled(cells: string[], fill: readonly number[]): string[] {
  for (const i of fill) if ((cells[i] ?? '').trim() === '') cells[i] = OPTIONAL_BLANK_VALUE;
  return cells;
}

export async function writeExport(
  db: DbClient,
  listId: number,
  setup: EngineSetup,
  kind: ExportKind,
  target: string,
  /** Checked before the file is put in place (throw to discard it, e.g. the list changed meanwhile). */
  beforeCommit: () => Promise<void> = async () => {},
  upload: UploadOptions = {},
): Promise<{ rows: number; bytes: number; refused: number }> {
  const fill = upload.fillBlank ?? [];
  const refusing = upload.refusing ?? [];
  let refused = 0;
  const file = await createAtomicFile(target);
  try {
    const rules = createRowRules(setup);
    const header = kind === 'upload' ? uploadHeader(setup) : rejectsHeader(setup);
    await file.write(header);
    let bytes = Buffer.byteLength(header);
    let rows = 0;
    for await (const page of db.stream('contacts.exportRows', {
      listId,
      kind,
      batch: PAGE,
      ...(upload.workspaceId ? { workspaceId: upload.workspaceId } : {}),
    })) {
      let text = '';
      for (const r of page) {
        const cells = cellsJson(r.cells);
        if (refusing.length > 0 && refusing.some((i) => (cells[i] ?? '').trim() === '')) refused++;
        text +=
          kind === 'upload'
            ? rules.uploadLine(`+${r.e164}`, fill.length > 0 ? filled(cells, fill) : cells)
            : `${r.row},${csvCell(r.reasons)},${r.tail ?? renderTail(cells)}\n`;
      }
      if (kind === 'upload') upload.onRows?.(page.map((r) => r.row));
      rows += page.length;
      bytes += Buffer.byteLength(text);
      await file.write(text);
    }
    await beforeCommit();
    await file.commit();
    return { rows, bytes, refused };
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/**
 * The list's export when the list holds still: refused while a bulk change runs on it (mid-change a
 * former duplicate reads as valid until duplicates are decided again), and discarded, nothing
 * written, when the list changes before the file is complete (pages are read one after another).
 */
export async function writeSteadyExport(
  db: DbClient,
  listId: number,
  setup: EngineSetup,
  kind: ExportKind,
  target: string,
  /** The list as read when `setup` was taken from it (read here when not given). */
  baseline?: StoredList,
  upload: UploadOptions = {},
): Promise<{ rows: number; bytes: number; refused: number; list: StoredList }> {
  const list = baseline ?? (await db.call('contacts.list', { listId }));
  if (!list || list.status !== 'ready')
    throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
  if (await db.call('contacts.bulkRunning', { listId })) throw bulkBusy();
  const written = await writeExport(
    db,
    listId,
    setup,
    kind,
    target,
    async () => {
      const now = await db.call('contacts.list', { listId });
      if (!now || now.status !== 'ready' || now.revision !== list.revision) {
        throw new DeskFailure(
          'conflict',
          'The list changed while it was being exported; nothing was written. Export it again.',
          'listId',
        );
      }
      if (await db.call('contacts.bulkRunning', { listId })) throw bulkBusy();
    },
    upload,
  );
  return { ...written, list };
}
