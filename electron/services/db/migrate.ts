import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { Db } from './define.ts';
import { writeTransaction } from './define.ts';
import type { Migration } from './migrations/migration.ts';
import { latestSchemaVersion } from './migrations/index.ts';
import type { MigrationProgress } from './migrationProgress.ts';
import { migrationTitle, withMigrationFraction } from './migrationProgress.ts';

export const schemaTooNewMessage = (found: number, known: number) =>
  `This data folder was written by a newer Campaign Desk (schema ${found} > ${known}). Update the app or choose another data folder.`;

export const schemaVersion = (db: Db): number => db.pragma('user_version', { simple: true }) as number;

export interface MigrateOptions {
  /** Apply only up to this version (tests). */
  upTo?: number;
  /**
   * Told as each pending migration starts (fraction null) and as a long one reports how far it is;
   * only when upgrading a file that has a schema (a new file is made in milliseconds, silently).
   */
  onProgress?: (progress: MigrationProgress) => void;
  /** The file, named in a failure's message. */
  file?: string;
}

/** A migration that failed: which step, in words, and SQLite's reason (no stack). */
export const migrationFailedMessage = (p: MigrationProgress, reason: string, file?: string) =>
  `Upgrading ${file ? `the data file ${file}` : 'the data'} failed at step ${p.step} of ${p.steps} ` +
  `(${String(p.version).padStart(4, '0')} ${p.name}): ${reason}. Nothing of that step was written ` +
  '(the steps before it are kept). The details are in the log file.';

/**
 * Applies pending migrations in order, each in its own transaction together with the new
 * `user_version`, so a failure leaves the database at the last good version. Refuses a database
 * whose schema is newer than this app knows (it may hold data this version would misread).
 */
export function migrate(
  db: Db,
  migrations: readonly Migration[],
  upToOrOptions: number | MigrateOptions = {},
): number {
  const options = typeof upToOrOptions === 'number' ? { upTo: upToOrOptions } : upToOrOptions;
  const known = latestSchemaVersion(migrations);
  const current = schemaVersion(db);
  if (current > known) throw new DeskFailure('database_error', schemaTooNewMessage(current, known));
  const target = options.upTo ?? known;
  const pending = [...migrations]
    .sort((a, b) => a.version - b.version)
    .filter((m) => m.version > current && m.version <= target);
  pending.forEach((migration, i) => {
    const at = {
      step: i + 1,
      steps: pending.length,
      version: migration.version,
      name: migrationTitle(migration.name),
    };
    const tell = (fraction: number | null) => {
      if (current > 0) options.onProgress?.({ ...at, fraction });
    };
    tell(null);
    try {
      withMigrationFraction(db, tell, () =>
        writeTransaction(db, () => {
          migration.up(db);
          db.pragma(`user_version = ${migration.version}`);
        }),
      );
    } catch (error) {
      if (error instanceof DeskFailure) throw error;
      throw new DeskFailure(
        'database_error',
        migrationFailedMessage({ ...at, fraction: null }, (error as Error).message, options.file),
      );
    }
  });
  return schemaVersion(db);
}
