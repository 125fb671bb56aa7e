// Cleans bytes held in memory on the calling thread: tests, small files, and the reference
// output the threaded hosts are compared with.
import { applyLateDuplicates } from './lateDuplicates.ts';
import { createLocalExecutor } from './localExecutor.ts';
import { rejectsHeader, uploadHeader } from './merger.ts';
import type { MergedBlock } from './merger.ts';
import { runClean } from './runClean.ts';
import type { RunOptions, RunResult } from './runClean.ts';
import type { CleanChoices } from './types.ts';

export interface InMemoryResult extends RunResult {
  upload: string;
  rejects: string;
  blocks: MergedBlock[];
}

export interface InMemoryOptions extends RunOptions {
  /** Feed the bytes in chunks of this size (default: 64 KiB). */
  chunkBytes?: number;
  /** Keep parsed cells in the merged blocks. */
  includeCells?: boolean;
}

export async function cleanInMemory(
  bytes: Uint8Array,
  choices: CleanChoices,
  options: InMemoryOptions = {},
): Promise<InMemoryResult> {
  const size = Math.max(1, options.chunkBytes ?? 64 * 1024);
  const utf8 = new TextDecoder();
  let upload = '';
  let rejects = '';
  let blocks: MergedBlock[] = [];
  const { report, setup, lateDuplicates } = await runClean(
    {
      *open() {
        for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
      },
      totalBytes: bytes.length,
    },
    choices,
    (s) => createLocalExecutor(s, { includeCells: options.includeCells ?? false }),
    {
      begin(s) {
        upload = uploadHeader(s);
        rejects = rejectsHeader(s);
      },
      block(merged) {
        upload += utf8.decode(merged.upload);
        rejects += merged.rejects;
        blocks.push(merged);
      },
      reset() {
        upload = '';
        rejects = '';
        blocks = [];
      },
    },
    options,
  );
  // Rows whose number a later row claimed point to it in the rejects file, as the CLI writes it.
  // The blocks stay as they were streamed (what a sink such as the app receives).
  if (lateDuplicates.length > 0) rejects = applyLateDuplicates(rejects, lateDuplicates);
  return { report, setup, lateDuplicates, upload, rejects, blocks };
}
