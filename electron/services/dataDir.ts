import { homedir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE_NAME } from './db/openDatabase.ts';
import { ensurePrivateDir, tightenFile, tightenTree } from './privateFiles.ts';

/**
 * The installation's data folder, the same for Electron and the browser host so an operator sees
 * the same workspaces in both: `$XDG_DATA_HOME/campaign-desk` (or ~/.local/share/campaign-desk) on
 * Linux, ~/Library/Application Support/Campaign Desk on macOS, %APPDATA%\Campaign Desk on Windows.
 * `DESK_DATA_DIR` overrides it (tests, several installations side by side).
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.DESK_DATA_DIR) return env.DESK_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Campaign Desk');
  if (platform === 'win32')
    return join(env.APPDATA || join(homedir(), 'AppData', 'Roaming'), 'Campaign Desk');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'campaign-desk');
}

/**
 * Before the app or a CLI command uses a data folder: the folder 0700, its database (with its
 * -wal and -shm) 0600, logs/ and recordings/ with everything in them private.
 */
export function preparePrivateDataDir(dataDir: string): void {
  ensurePrivateDir(dataDir);
  for (const suffix of ['', '-wal', '-shm']) tightenFile(join(dataDir, `${DATABASE_FILE_NAME}${suffix}`));
  tightenTree(join(dataDir, 'logs'));
  tightenTree(join(dataDir, 'recordings'));
}
