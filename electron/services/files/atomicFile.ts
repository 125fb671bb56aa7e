// Output files appear whole or not at all: written to a temporary file beside the target, then
// renamed over it. Anything that goes wrong removes the temporary file.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DeskFailure } from '../../../shared/ipc/result.ts';

/** A file system error as one line about the file we were writing. */
function cannotWrite(target: string, error: unknown): DeskFailure {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'its folder does not exist'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'ENOSPC'
            ? 'the disk is full'
            : `${code ?? 'error'}`;
  return new DeskFailure('file_error', `${target}: cannot write it (${why})`, 'outputs');
}

export interface AtomicFile {
  readonly path: string;
  write(data: string | Uint8Array): Promise<void>;
  /** Empties the file (the run starts over). */
  truncate(): Promise<void>;
  /**
   * Small after-the-fact fixes: `plan` gets the bytes written so far and returns byte spans to
   * replace with new text (in order, not overlapping); only the part from the first span on is
   * written again.
   */
  edit(
    plan: (bytes: Uint8Array) => ReadonlyArray<{ start: number; end: number; cell: string }>,
  ): Promise<void>;
  /** Closes and renames over the target. */
  commit(): Promise<void>;
  /** Closes and deletes the temporary file (safe to call more than once). */
  discard(): Promise<void>;
}

export async function createAtomicFile(target: string): Promise<AtomicFile> {
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  let handle: FileHandle | null;
  try {
    handle = await open(temp, 'wx');
  } catch (error) {
    throw cannotWrite(target, error);
  }
  let position = 0;
  const file: AtomicFile = {
    path: target,
    async write(data) {
      if (!handle) throw new Error('internal: write after close');
      try {
        const { bytesWritten } =
          typeof data === 'string'
            ? await handle.write(data, position, 'utf8')
            : await handle.write(data, 0, data.length, position);
        position += bytesWritten;
      } catch (error) {
        throw cannotWrite(target, error);
      }
    },
    async truncate() {
      await handle?.truncate(0);
      position = 0;
    },
    async edit(plan) {
      const bytes = await readFile(temp);
      const edits = plan(bytes);
      const first = edits[0];
      if (!first) return;
      position = first.start;
      for (let i = 0; i < edits.length; i++) {
        const edit = edits[i] as (typeof edits)[number];
        await file.write(edit.cell);
        await file.write(bytes.subarray(edit.end, edits[i + 1]?.start ?? bytes.length));
      }
      await handle?.truncate(position);
    },
    async commit() {
      if (!handle) throw new Error('internal: commit after close');
      await handle.close();
      handle = null;
      try {
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw cannotWrite(target, error);
      }
    },
    async discard() {
      const h = handle;
      handle = null;
      await h?.close().catch(() => undefined);
      await rm(temp, { force: true });
    },
  };
  return file;
}
