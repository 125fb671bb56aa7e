// An app workspace's data, read by a CLI command (`clean --workspace`): the data folder's database
// under its lock (never beside the app on the same folder), the workspace found by name or id.
import { join } from 'node:path';
import { DeskFailure } from '../../shared/ipc/result.ts';
import { preparePrivateDataDir } from '../services/dataDir.ts';
import { lockDataDir } from '../services/dataDirLock.ts';
import { openCliDb } from './upgradeProgress.ts';
import type { Io } from './io.ts';
import { processIo } from './io.ts';
import type { DbClient } from '../services/db/client.ts';
import { DATABASE_FILE_NAME } from '../services/db/openDatabase.ts';

export async function withWorkspaceDb<R>(
  dataDir: string,
  workspace: string,
  run: (db: DbClient, workspaceId: string) => Promise<R>,
  io: Pick<Io, 'err' | 'status' | 'interactive'> = processIo(),
): Promise<R> {
  try {
    preparePrivateDataDir(dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new DeskFailure('file_error', `${dataDir}: cannot use it as the data folder (${code})`, 'data');
  }
  const lock = lockDataDir(dataDir);
  try {
    const db = await openCliDb(join(dataDir, DATABASE_FILE_NAME), io);
    try {
      const { workspaces } = await db.call('workspaces.list', {});
      const ws =
        workspaces.find((w) => w.id === workspace) ??
        workspaces.find((w) => w.name.toLowerCase() === workspace.toLowerCase());
      if (!ws)
        throw new DeskFailure(
          'invalid_request',
          `no workspace named "${workspace}" in ${dataDir}`,
          'workspace',
        );
      return await run(db, ws.id);
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
  }
}
