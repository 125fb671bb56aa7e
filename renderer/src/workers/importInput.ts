// What the import coordinator reads: a CSV File as it is, or (told by the ZIP signature) an Excel
// workbook whose chosen sheet is streamed as CSV text by the shared reader, read from the File by
// random access (Blob.slice), never whole. Also the first megabyte the engine sniffs.
import type { ChunkSource, CleanChoices, Progress } from '../../../shared/domain/contacts/index.ts';
import { readFirst } from '../../../shared/domain/contacts/runClean.ts';
import { isZip, openSheet, workbookChoices } from '../../../shared/domain/xlsx/index.ts';
import type { RandomAccess } from '../../../shared/domain/xlsx/index.ts';
import type { Detected } from '../../../shared/ipc/channels/contacts.ts';
import { blobSource, readSlice, SLICE_BYTES } from './blobSource.ts';

export interface ImportInput {
  source: ChunkSource;
  /** The start of what the engine reads (at least a megabyte, or all of it when `complete`). */
  first: Uint8Array;
  complete: boolean;
  /** The engine's choices for this input (a workbook's CSV form is fixed: UTF-8, commas). */
  choices(choices: CleanChoices): CleanChoices;
  /** Workbook facts for Detected (empty for a CSV). */
  workbook: Pick<Detected, 'sheet' | 'sheets'>;
  progress(progress: Progress): Progress;
}

const blobAccess = (blob: Blob): RandomAccess => ({
  size: blob.size,
  read: (offset, length) => readSlice(blob, offset, offset + length),
});

/** The first megabyte of the source, as runClean will read it. */
async function firstBytes(source: ChunkSource): Promise<{ first: Uint8Array; complete: boolean }> {
  const iterator = (source.open() as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  try {
    const { bytes, done } = await readFirst(iterator, SLICE_BYTES);
    return { first: bytes, complete: done };
  } finally {
    await iterator.return?.();
  }
}

export async function openImportInput(
  file: Blob,
  choices: { sheet?: string | undefined; phoneColumn?: string | undefined },
): Promise<ImportInput> {
  const head = await readSlice(file, 0, SLICE_BYTES);
  if (!isZip(head)) {
    return {
      source: blobSource(file),
      first: head,
      complete: file.size <= SLICE_BYTES,
      choices: (c) => c,
      workbook: {},
      progress: (p) => p,
    };
  }
  const opened = await openSheet(blobAccess(file), choices, 'first-with-phone');
  const { first, complete } = await firstBytes(opened.source);
  return {
    source: opened.source,
    first,
    complete,
    choices: workbookChoices,
    workbook: {
      sheet: opened.sheet.name,
      sheets: opened.sheets.map((s) => ({ name: s.name, phoneColumn: s.phoneColumn })),
    },
    progress: opened.progress,
  };
}
