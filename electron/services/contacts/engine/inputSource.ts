// The engine's input from a file on disk: a CSV is streamed as it is; an Excel workbook (.xlsx, told
// by its ZIP signature, not its name) is opened by random access and the chosen sheet streamed as
// CSV text (shared/domain/xlsx), with progress counted in the sheet's bytes.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import type { ChunkSource, CleanChoices, Progress } from '../../../../shared/domain/contacts/index.ts';
import { isZip, openSheet, workbookChoices } from '../../../../shared/domain/xlsx/index.ts';
import type { OpenedSheet, RandomAccess } from '../../../../shared/domain/xlsx/index.ts';

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

/** Opens the sheet; a sheet that cannot be used is a failure whose field is `sheet` (the CLI points at --sheet). */
async function openSheetOf(path: string, access: RandomAccess, choices: InputChoices): Promise<OpenedSheet> {
  try {
    return await openSheet(access, choices, 'first');
  } catch (error) {
    if (!(error instanceof ContactsError)) throw error;
    if (error.code === 'bad_option') throw new DeskFailure('invalid_request', error.message, 'sheet');
    if (error.code === 'no_phone_column' || error.code === 'empty_file')
      throw new DeskFailure('file_error', `${path}: ${error.message}`, 'sheet');
    throw error;
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
    const opened = await openSheetOf(path, access, choices);
    return {
      source: opened.source,
      choices: workbookChoices(choices),
      sheet: opened.sheet.name,
      progress: opened.progress,
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
