import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { Db } from './define.ts';
import { writeTransaction } from './define.ts';
import type { Migration } from './migrations/migration.ts';
import { latestSchemaVersion } from './migrations/index.ts';

export const schemaTooNewMessage = (found: number, known: number) =>
  `This data folder was written by a newer Campaign Desk (schema ${found} > ${known}). Update the app or choose another data folder.`;

export const schemaVersion = (db: Db): number => db.pragma('user_version', { simple: true }) as number;

/**
 * Applies pending migrations in order, each in its own transaction together with the new
 * `user_version`, so a failure leaves the database at the last good version. Refuses a database
 * whose schema is newer than this app knows (it may hold data this version would misread).
 */
export function migrate(db: Db, migrations: readonly Migration[], upTo?: number): number {
  const known = latestSchemaVersion(migrations);
  const current = schemaVersion(db);
  if (current > known) throw new DeskFailure('database_error', schemaTooNewMessage(current, known));
  const target = upTo ?? known;
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current || migration.version > target) continue;
    writeTransaction(db, () => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    });
  }
  return schemaVersion(db);
}
