import type { Db } from './db.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  created_at: number;
  credits: number;
  locked_credits: number;
}

export function createWorkspaceStore(db: Db) {
  const getStmt = db.prepare<[], WorkspaceRow>('SELECT * FROM workspace LIMIT 1');
  return {
    get(): WorkspaceRow {
      const w = getStmt.get();
      if (!w) throw new Error('sandbox workspace is not seeded');
      return w;
    },
    exists(): boolean {
      return getStmt.get() !== undefined;
    },
    insert(w: WorkspaceRow): void {
      db.prepare(
        'INSERT INTO workspace (id, name, created_at, credits, locked_credits) VALUES (@id, @name, @created_at, @credits, @locked_credits)',
      ).run(w);
    },
    setCredits(credits: number): void {
      db.prepare('UPDATE workspace SET credits = ?').run(credits);
    },
    /** Add (or with a negative amount, charge) credits. */
    adjustCredits(delta: number): void {
      db.prepare('UPDATE workspace SET credits = credits + ?').run(delta);
    },
  };
}

export function createMetaStore(db: Db) {
  const getStmt = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const setStmt = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  return {
    get: (key: string): string | undefined => getStmt.get(key)?.value,
    set: (key: string, value: string): void => void setStmt.run(key, value),
  };
}
