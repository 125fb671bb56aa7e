// contacts:export: a list's upload or rejects file (for an agent: its mapping's columns), written
// to a path the operator gave or to a one-time download.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { EngineSetup } from '../../../shared/domain/contacts/index.ts';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import { newDownload, removeDownload } from '../files/downloads.ts';
import { writeSteadyExport } from './exportFile.ts';
import { setupJson } from './listJson.ts';

/** The upload for an agent (its mapping's columns and variables_map), from the agents domain. */
export type AgentUpload = (req: {
  listId: number;
  agentId: string;
  versionId?: string | undefined;
}) => Promise<{ setup: EngineSetup; variablesMap: Record<string, string>; fillBlank?: number[] }>;

const safeFileName = (name: string): string =>
  name
    .replace(/\.csv$/i, '')
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .trim()
    .slice(0, 80) || 'contacts';

function exportTarget(path: string, fileName: string): string {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  if (!isAbsolute(expanded)) {
    throw new DeskFailure(
      'invalid_request',
      'Give a full path, such as ~/Downloads/contacts-upload.csv.',
      'path',
    );
  }
  let target = resolve(expanded);
  if (existsSync(target) && statSync(target).isDirectory()) target = join(target, fileName);
  const folder = dirname(target);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new DeskFailure('file_error', `The folder ${folder} does not exist.`, 'path');
  }
  return target;
}

export async function exportList(
  db: DbClient,
  dataDir: string,
  agentUpload: AgentUpload | undefined,
  req: ParsedRequestOf<'contacts:export'>,
): Promise<ResponseOf<'contacts:export'>> {
  const stored = await db.call('contacts.list', { listId: req.listId });
  if (!stored || stored.status !== 'ready')
    throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
  let setup = setupJson(stored.setup);
  let variablesMap: Record<string, string> | null = null;
  // Optional variables' blank cells, written as the launch writes them.
  let fillBlank: number[] = [];
  if (req.agentId !== undefined) {
    if (req.kind !== 'upload' || !agentUpload)
      throw new DeskFailure('invalid_request', 'Only the upload file is written for an agent.', 'agentId');
    const plan = await agentUpload({ listId: req.listId, agentId: req.agentId, versionId: req.versionId });
    setup = plan.setup;
    variablesMap = plan.variablesMap;
    fillBlank = plan.fillBlank ?? [];
  }
  const fileName = `${safeFileName(stored.name)}-${req.kind}.csv`;
  if ('path' in req) {
    const target = exportTarget(req.path, fileName);
    try {
      const { rows, bytes } = await writeSteadyExport(db, req.listId, setup, req.kind, target, stored, {
        fillBlank,
      });
      return {
        kind: req.kind,
        rows,
        bytes,
        fileName: basename(target),
        path: target,
        downloadUrl: null,
        variablesMap,
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
        throw new DeskFailure('file_error', `${target}: cannot write the file (${code}).`, 'path');
      }
      throw error;
    }
  }
  const download = newDownload(dataDir);
  try {
    const { rows, bytes } = await writeSteadyExport(
      db,
      req.listId,
      setup,
      req.kind,
      join(download.dir, fileName),
      stored,
      { fillBlank },
    );
    return { kind: req.kind, rows, bytes, fileName, path: null, downloadUrl: download.url, variablesMap };
  } catch (error) {
    removeDownload(download.dir);
    throw error;
  }
}
