import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { Db } from '../db/define.ts';
import { prepared, query, writeTransaction } from '../db/define.ts';
import { readSetting, writeSetting } from '../settings/settings.queries.ts';

export type SecretStorageKind = 'keychain' | 'session';

export interface WorkspaceRecord {
  id: string;
  name: string;
  baseUrl: string;
  isSandbox: boolean;
  secretStorage: SecretStorageKind;
  createdAt: string;
  updatedAt: string;
  lastTest: { at: string; ok: boolean; message: string; credits: number | null } | null;
}

interface WorkspaceRow {
  id: string;
  name: string;
  base_url: string;
  is_sandbox: 0 | 1;
  secret_storage: SecretStorageKind;
  created_at: string;
  updated_at: string;
  test_at: string | null;
  test_ok: 0 | 1 | null;
  test_message: string | null;
  test_credits: number | null;
}

const SELECT = `
  SELECT w.*, t.tested_at AS test_at, t.ok AS test_ok, t.message AS test_message, t.credits AS test_credits
  FROM workspaces w
  LEFT JOIN connection_tests t ON t.id = (
    SELECT id FROM connection_tests WHERE workspace_id = w.id ORDER BY id DESC LIMIT 1)`;

const toRecord = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  baseUrl: row.base_url,
  isSandbox: row.is_sandbox === 1,
  secretStorage: row.secret_storage,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  lastTest:
    row.test_at === null
      ? null
      : {
          at: row.test_at,
          ok: row.test_ok === 1,
          message: row.test_message ?? '',
          credits: row.test_credits,
        },
});

const ACTIVE_KEY = 'activeWorkspaceId';

const getById = (db: Db, id: string): WorkspaceRecord | null => {
  const row = prepared<[string], WorkspaceRow>(db, `${SELECT} WHERE w.id = ?`).get(id);
  return row ? toRecord(row) : null;
};

const listAll = (db: Db): WorkspaceRecord[] =>
  prepared<[], WorkspaceRow>(db, `${SELECT} ORDER BY w.is_sandbox DESC, w.created_at, w.rowid`)
    .all()
    .map(toRecord);

const readActive = (db: Db): string | null => {
  const id = readSetting(db, ACTIVE_KEY);
  return typeof id === 'string' && getById(db, id) ? id : null;
};

/** A second workspace with the same name (case-insensitive) is refused, naming the field. */
const nameConflict = (error: unknown, name: string | undefined): never => {
  if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && name !== undefined) {
    throw new DeskFailure('conflict', `A workspace named "${name}" already exists.`, 'name');
  }
  throw error;
};

export const workspaceQueries = {
  /** Every workspace, the built-in Sandbox first, with its latest connection test; plus the active id. */
  'workspaces.list': query((db, _args: Record<string, never>) => ({
    workspaces: listAll(db),
    activeId: readActive(db),
  })),

  'workspaces.get': query((db, args: { id: string }) => getById(db, args.id)),

  'workspaces.sandbox': query((db, _args: Record<string, never>) => {
    const row = prepared<[], WorkspaceRow>(db, `${SELECT} WHERE w.is_sandbox = 1`).get();
    return row ? toRecord(row) : null;
  }),

  'workspaces.insert': query(
    (
      db,
      args: {
        id: string;
        name: string;
        baseUrl: string;
        isSandbox: boolean;
        secretStorage: SecretStorageKind;
      },
    ): WorkspaceRecord => {
      const now = new Date().toISOString();
      try {
        prepared(
          db,
          `INSERT INTO workspaces (id, name, base_url, is_sandbox, secret_storage, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(args.id, args.name, args.baseUrl, args.isSandbox ? 1 : 0, args.secretStorage, now, now);
      } catch (error) {
        nameConflict(error, args.name);
      }
      return getById(db, args.id)!;
    },
  ),

  'workspaces.update': query(
    (
      db,
      args: { id: string; name?: string; baseUrl?: string; secretStorage?: SecretStorageKind },
    ): WorkspaceRecord => {
      const current = getById(db, args.id);
      if (!current) throw new DeskFailure('not_found', 'This workspace no longer exists.', 'id');
      try {
        prepared(
          db,
          `UPDATE workspaces SET name = ?, base_url = ?, secret_storage = ?, updated_at = ? WHERE id = ?`,
        ).run(
          args.name ?? current.name,
          args.baseUrl ?? current.baseUrl,
          args.secretStorage ?? current.secretStorage,
          new Date().toISOString(),
          args.id,
        );
      } catch (error) {
        nameConflict(error, args.name);
      }
      return getById(db, args.id)!;
    },
  ),

  /** Deletes a workspace (its test log goes with it) and, if it was active, activates the next one. */
  'workspaces.remove': query((db, args: { id: string }) =>
    writeTransaction(db, () => {
      const removed = prepared(db, `DELETE FROM workspaces WHERE id = ?`).run(args.id).changes > 0;
      let activeId = readActive(db);
      if (activeId === null) {
        activeId = listAll(db)[0]?.id ?? null;
        writeSetting(db, ACTIVE_KEY, activeId);
      }
      return { removed, activeId };
    }),
  ),

  'workspaces.active': query((db, _args: Record<string, never>) => readActive(db)),

  'workspaces.setActive': query((db, args: { id: string }) => {
    if (!getById(db, args.id)) throw new DeskFailure('not_found', 'This workspace no longer exists.', 'id');
    writeSetting(db, ACTIVE_KEY, args.id);
    return args.id;
  }),
};
