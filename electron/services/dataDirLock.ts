import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeskFailure } from '../../shared/ipc/result.ts';

export const LOCK_FILE_NAME = 'desk.lock';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * One back end per data folder: two would start two sandboxes on the same files and overwrite each
 * other's Sandbox address. The lock file holds the owner's pid; a lock whose process is gone (a
 * crash) is taken over.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new DeskFailure(
          'conflict',
          `Campaign Desk is already running with the data folder ${dataDir} (process ${owner}). Use that window, close it first, or choose another data folder.`,
        );
      }
      rmSync(file, { force: true }); // left by a process that is gone
    }
  }
  throw new DeskFailure('conflict', `The data folder ${dataDir} is locked by another Campaign Desk.`);
}
