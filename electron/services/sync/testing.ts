// Test fixtures of the sync: a real sandbox process (HTTP on 127.0.0.1), a real SQLite database in
// a temp folder, and the API client the engine uses (no retries of its own: the engine retries).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createApiClient } from '../api/client.ts';
import { startSandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { openDbClient } from '../db/client.ts';
import type { DbClient } from '../db/client.ts';
import type { FetchHistory } from './historySync.ts';

export async function startSyncSandbox(): Promise<SandboxProcess> {
  return startSandboxProcess({ apiKey: `sk-sync-${Math.random().toString(36).slice(2)}` });
}

export function historyFetcher(sandbox: Pick<SandboxProcess, 'baseUrl' | 'apiKey'>): FetchHistory {
  const api = createApiClient({
    baseUrl: sandbox.baseUrl,
    apiKey: () => Promise.resolve(sandbox.apiKey),
    maxRetries: 0,
    timeoutMs: 10_000,
  });
  return (query, opts) => api.listCallHistoryPage(query, opts);
}

export interface TempDb {
  dir: string;
  db: DbClient;
  close(): Promise<void>;
}

export async function openTempDb(): Promise<TempDb> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-sync-'));
  const db = await openDbClient({ file: join(dir, 'campaign-desk.sqlite') });
  return {
    dir,
    db,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls per status as the sandbox counts them (to compare with what was stored). */
export async function sandboxStatusCounts(sandbox: SandboxProcess): Promise<Record<string, number>> {
  const stats = await sandbox.control<{ calls_by_status: Record<string, number> }>('GET', '/stats');
  return stats.calls_by_status;
}

/**
 * FTS5's own check of the calls search index against the calls table, on a second connection to
 * the file (throws when a stored call is missing from the index or indexed with other text).
 */
export function checkSearchIndex(t: Pick<TempDb, 'dir'>): void {
  const db = new Database(join(t.dir, 'campaign-desk.sqlite'));
  try {
    db.exec(`INSERT INTO calls_fts (calls_fts, rank) VALUES ('integrity-check', 1)`);
  } finally {
    db.close();
  }
}
