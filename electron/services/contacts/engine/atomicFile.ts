// Output files appear whole or not at all: written to a temporary file beside the target, then
// renamed over it. Anything that goes wrong removes the temporary file.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicFile {
  readonly path: string;
  write(data: string | Uint8Array): Promise<void>;
  /** Empties the file (the run starts over). */
  truncate(): Promise<void>;
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
  let handle: FileHandle | null = await open(temp, 'wx');
  let position = 0;
  return {
    path: target,
    async write(data) {
      if (!handle) throw new Error('internal: write after close');
      const { bytesWritten } =
        typeof data === 'string'
          ? await handle.write(data, position, 'utf8')
          : await handle.write(data, 0, data.length, position);
      position += bytesWritten;
    },
    async truncate() {
      await handle?.truncate(0);
      position = 0;
    },
    async commit() {
      if (!handle) throw new Error('internal: commit after close');
      await handle.close();
      handle = null;
      await rename(temp, target);
    },
    async discard() {
      const h = handle;
      handle = null;
      await h?.close().catch(() => undefined);
      await rm(temp, { force: true });
    },
  };
}
