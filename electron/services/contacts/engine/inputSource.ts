// The engine's input from a file on disk: a CSV is streamed as it is; an Excel workbook (.xlsx, told
// by its ZIP signature, not its name) is read by a thread of its own (sheetThread.ts,
// xlsxReader.ts) that streams the chosen sheet as CSV text, with progress in the sheet's bytes.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import type { ChunkSource, CleanChoices, Progress } from '../../../../shared/domain/contacts/index.ts';
import { isZip, workbookChoices } from '../../../../shared/domain/xlsx/index.ts';
import type { RandomAccess } from '../../../../shared/domain/xlsx/index.ts';
import { startSheetThread } from './sheetThread.ts';
import type { SheetThread } from './sheetThread.ts';

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

/** A file handle read by offset (the workbook reader's RandomAccess). */
export const fileAccess = (handle: FileHandle, size: number): RandomAccess => ({
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

/** Starts the reader thread; a sheet that cannot be used is a failure whose field is `sheet` (the CLI points at --sheet). */
async function startReader(path: string, size: number, choices: InputChoices): Promise<SheetThread> {
  try {
    return await startSheetThread({
      path,
      size,
      choices: { sheet: choices.sheet, phoneColumn: choices.phoneColumn },
    });
  } catch (error) {
    if (!(error instanceof ContactsError)) throw error;
    if (error.code === 'bad_option') throw new DeskFailure('invalid_request', error.message, 'sheet');
    if (error.code === 'no_phone_column' || error.code === 'empty_file')
      throw new DeskFailure('file_error', `${path}: ${error.message}`, 'sheet');
    throw error;
  }
}

/** The first bytes of a file (its signature). */
async function signature(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    return await fileAccess(handle, 4).read(0, 4);
  } finally {
    await handle.close();
  }
}

export async function openInput(path: string, size: number, choices: InputChoices): Promise<Input> {
  if (!isZip(await signature(path))) {
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
  // The sheet is read in its own thread (xlsxReader.ts): the engine's threads keep their cores.
  const reader = await startReader(path, size, choices);
  return {
    source: reader.source,
    choices: workbookChoices(choices),
    sheet: reader.sheet,
    progress: reader.progress,
    close: () => reader.close(),
  };
}
