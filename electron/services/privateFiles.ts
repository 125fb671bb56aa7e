// The data folder holds call records, transcripts, recordings and logs of one account: only its
// owner may read them. Folders are 0700 and files 0600, created so and tightened when found
// looser (a folder an older build or another tool made 0755). No-ops on Windows, whose ACLs
// already give a user's profile folders to that user alone.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/** chmod when the mode lets anyone but the owner in; a file that is gone is no error. */
function tighten(path: string, mode: number): void {
  if (!posix) return;
  let current: number;
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return; // never follow a link out of the folder
    current = st.mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (current !== mode) chmodSync(path, mode);
}

/** Creates `dir` (and missing parents) 0700, and tightens it when it already existed. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

export const tightenFile = (file: string): void => tighten(file, PRIVATE_FILE_MODE);

/** Every folder under `dir` 0700 and every file 0600 (symbolic links are left alone). */
export function tightenTree(dir: string): void {
  if (!posix) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  tighten(dir, PRIVATE_DIR_MODE);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(path);
    else if (entry.isFile()) tighten(path, PRIVATE_FILE_MODE);
  }
}
