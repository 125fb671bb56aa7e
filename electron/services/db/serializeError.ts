import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { SerializedError } from './protocol.ts';

export function serializeError(error: unknown): SerializedError {
  if (error instanceof DeskFailure) {
    return {
      name: error.name,
      message: error.message,
      deskCode: error.code,
      ...(error.field === undefined ? {} : { field: error.field }),
    };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      ...(typeof code === 'string' ? { sqliteCode: code } : {}),
      ...(error.stack ? { stack: error.stack } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}

/** An unexpected database failure: logged in full, answered as `internal` (or a clear database_error). */
export class DbError extends Error {
  readonly sqliteCode: string | undefined;
  constructor(serialized: SerializedError, method: string) {
    super(`${method}: ${serialized.message}`);
    this.name = serialized.name === 'SqliteError' ? 'SqliteError' : 'DbError';
    this.sqliteCode = serialized.sqliteCode;
    if (serialized.stack)
      this.stack = `${this.name}: ${this.message}\n${serialized.stack.split('\n').slice(1).join('\n')}`;
  }
}

/** SQLite failures the operator can act on get a clear database_error; the rest stay internal. */
const operatorFacing: Record<string, string> = {
  SQLITE_FULL: 'The disk is full: Campaign Desk could not save. Free some space and try again.',
  SQLITE_READONLY: 'The data folder is read-only: Campaign Desk could not save. Check its permissions.',
  SQLITE_CORRUPT:
    'The Campaign Desk database file is damaged. Restore a backup or choose another data folder.',
  SQLITE_NOTADB:
    'The Campaign Desk database file is damaged. Restore a backup or choose another data folder.',
  SQLITE_IOERR: 'The disk reported an error while Campaign Desk was reading or writing its data.',
  SQLITE_BUSY: 'The database is busy (another Campaign Desk may be using this data folder). Try again.',
};

export function deserializeError(serialized: SerializedError, method: string): Error {
  if (serialized.deskCode) return new DeskFailure(serialized.deskCode, serialized.message, serialized.field);
  const base = serialized.sqliteCode?.replace(/_[A-Z]+$/, '') ?? '';
  const message = serialized.sqliteCode
    ? (operatorFacing[serialized.sqliteCode] ?? operatorFacing[base])
    : undefined;
  if (message) return new DeskFailure('database_error', message);
  return new DbError(serialized, method);
}
