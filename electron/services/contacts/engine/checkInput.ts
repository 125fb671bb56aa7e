// Cheap checks before any thread starts: the input exists, is a non-empty file, and no output
// would overwrite it (or another output). Returns the problem as plain data (no heavy imports).
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ErrorCode } from '../../../../shared/ipc/result.ts';

export type InputCheck =
  { ok: true; bytes: number } | { ok: false; code: ErrorCode; message: string; field: string };

export async function checkInput(path: string, outputs: readonly string[]): Promise<InputCheck> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'file not found'
        : code === 'EACCES'
          ? 'permission denied'
          : `cannot read it (${code ?? 'error'})`;
    return { ok: false, code: 'file_error', message: `${path}: ${why}`, field: 'path' };
  }
  if (info.isDirectory())
    return { ok: false, code: 'file_error', message: `${path}: is a folder, not a CSV file`, field: 'path' };
  if (info.size === 0)
    return { ok: false, code: 'file_error', message: `${path}: the file is empty`, field: 'path' };
  const input = resolve(path);
  for (const out of outputs) {
    if (resolve(out) === input) {
      return {
        ok: false,
        code: 'invalid_request',
        message: `${out}: an output file cannot be the input file`,
        field: 'options',
      };
    }
  }
  if (new Set(outputs.map((o) => resolve(o))).size !== outputs.length) {
    return {
      ok: false,
      code: 'invalid_request',
      message: 'the upload, rejects and report files must be different files',
      field: 'options',
    };
  }
  return { ok: true, bytes: info.size };
}
