import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallColumns } from '../sync/callRow.ts';
import { openDbClient } from './client.ts';
import type { DbClient } from './client.ts';
import { insertWorkspace, tempDirs } from './testing.ts';

const dirs = tempDirs();
const clients: DbClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  dirs.cleanup();
});

const call = (i: number): CallColumns => ({
  id: `call-${i}`,
  to_number: '+919876543210',
  name: `Name ${i}`,
  status: 'completed',
  sub_status: null,
  terminal: 1,
  created_at: '2026-11-01T10:00:00.000Z',
  created_ms: Date.parse('2026-11-01T10:00:00.000Z') + i,
  attempt_ms: null,
  call_duration: 10,
  call_cost: 1,
  voicemail: 0,
  agent_id: null,
  agent_name: null,
  transcript_raw: null,
  transcript_text: `turn ${i}`,
  number_text: '919876543210 9876543210',
  raw: JSON.stringify({ id: `call-${i}`, pad: 'x'.repeat(1500) }),
  recordingUrl: null,
  recordingExpiresMs: null,
});

describe('WAL checkpointer thread (real SQLite file)', () => {
  it('copies a commit SQLite would leave in the WAL into the database file, without another write, and close removes the WAL', async () => {
    const file = join(dirs.make(), 'campaign-desk.sqlite');
    const db = await openDbClient({ file });
    clients.push(db);
    await insertWorkspace(db);
    await expect
      .poll(() => statSync(`${file}-wal`).size, { timeout: 10_000, interval: 20 })
      .toBeGreaterThan(0);
    const before = statSync(file).size;
    // ~2 MB in one commit: about 500 pages, under SQLite's own auto-checkpoint of 1000, so without
    // the checkpointer these pages would stay in the WAL until a later commit or the close.
    const rows = Array.from({ length: 1200 }, (_, i) => call(i));
    const r = await db.call('calls.upsert', {
      workspaceId: 'w1',
      bulkListId: null,
      rows,
      nowIso: '2026-11-01T10:00:00.000Z',
    });
    expect(r.inserted).toBe(1200);
    // The database file holds the commit.
    await expect
      .poll(() => statSync(file).size, { timeout: 10_000, interval: 20 })
      .toBeGreaterThanOrEqual(before + 1_800_000);

    await db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
