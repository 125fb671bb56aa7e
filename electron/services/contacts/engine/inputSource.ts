// The engine's input from a file on disk: a CSV is streamed as it is; an Excel workbook (.xlsx, told
// by its ZIP signature, not its name) is opened by random access and the chosen sheet streamed as
// CSV text (shared/domain/xlsx), with progress counted in the sheet's bytes.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import type { ChunkSource, CleanChoices, Progress } from '../../../../shared/domain/contacts/index.ts';
import {
  chooseSheet,
  isZip,
  openWorkbook,
  sheetCsvSource,
  sheetOverview,
  sheetProgress,
  workbookChoices,
} from '../../../../shared/domain/xlsx/index.ts';
import type { RandomAccess, SheetOverview } from '../../../../shared/domain/xlsx/index.ts';

const READ_CHUNK = 1 << 20;

export interface InputChoices extends CleanChoices {
  /** A workbook's sheet: its name or number (1 = the first tab). */
  sheet?: string | undefined;
}

export interface Input {
  source: ChunkSource;
  choices: CleanChoices;
  /** The sheet read, for workbooks. */
  sheet: string | null;
  progress(progress: Progress): Progress;
  close(): Promise<void>;
}

const fileAccess = (handle: FileHandle, size: number): RandomAccess => ({
  size,
  async read(offset, length) {
    const bytes = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, offset + at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  },
});

/** The sheet, or a failure whose field is `sheet` (the CLI then points at --sheet). */
function pickSheet(path: string, sheets: SheetOverview[], choices: InputChoices): SheetOverview {
  try {
    return chooseSheet(sheets, choices, 'first');
  } catch (error) {
    if (!(error instanceof ContactsError)) throw error;
    if (error.code === 'bad_option') throw new DeskFailure('invalid_request', error.message, 'sheet');
    throw new DeskFailure('file_error', `${path}: ${error.message}`, 'sheet');
  }
}

export async function openInput(path: string, size: number, choices: InputChoices): Promise<Input> {
  const handle = await open(path, 'r');
  try {
    const access = fileAccess(handle, size);
    if (!isZip(await access.read(0, 4))) {
      await handle.close();
      if (choices.sheet !== undefined)
        throw new ContactsError('bad_option', 'a sheet can only be chosen for an Excel workbook (.xlsx)');
      return {
        source: { open: () => createReadStream(path, { highWaterMark: READ_CHUNK }), totalBytes: size },
        choices,
        sheet: null,
        progress: (p) => p,
        close: () => Promise.resolve(),
      };
    }
    if (choices.encoding !== undefined || choices.delimiter !== undefined)
      throw new ContactsError(
        'bad_option',
        'an encoding or delimiter only applies to CSV files, not to a workbook',
      );
    const book = await openWorkbook(access);
    const chosen = pickSheet(path, await sheetOverview(book), choices);
    const sheet = book.sheets[chosen.number - 1];
    if (!sheet) throw new Error(`internal: sheet ${chosen.number} vanished`);
    const source = sheetCsvSource(book, sheet);
    const started = performance.now();
    return {
      source,
      choices: workbookChoices(choices),
      sheet: sheet.name,
      progress: (p) => sheetProgress(p, source, started, performance.now()),
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
