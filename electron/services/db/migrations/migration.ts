import type { Db } from '../define.ts';

/**
 * One schema step. `version` is the number in the file name (0010, 0020 … gaps of ten leave room)
 * and becomes `PRAGMA user_version` once applied. `up` runs inside a transaction.
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}
