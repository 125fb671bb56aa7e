import type { Db } from '../db/define.ts';
import { prepared, query } from '../db/define.ts';

/** Settings are small JSON values under a key; callers validate what they read (zod at the boundary). */
export const readSetting = (db: Db, key: string): unknown => {
  const row = prepared<[string], { value: string }>(db, `SELECT value FROM app_settings WHERE key = ?`).get(
    key,
  );
  return row ? (JSON.parse(row.value) as unknown) : null;
};

export const writeSetting = (db: Db, key: string, value: unknown): void => {
  prepared(
    db,
    `INSERT INTO app_settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(key, JSON.stringify(value ?? null), new Date().toISOString());
};

export const settingsQueries = {
  'settings.get': query((db, args: { key: string }) => readSetting(db, args.key)),
  'settings.set': query((db, args: { key: string; value: unknown }) =>
    writeSetting(db, args.key, args.value),
  ),
};
