// The one overlap count (app and CLI) on a real SQLite file through the database worker: a file's
// numbers against an app campaign's list (numbers stored as integers) and a CLI campaign's upload
// file, refused and long-ended campaigns left out; and the live progress counts a launch's calls
// as the plan does (the rows sent less the rows the service drops).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDbClient } from '../db/client.ts';
import type { DbClient } from '../db/client.ts';
import { insertContactList, insertWorkspace, tempDirs } from '../db/testing.ts';
import { overlapsOf, uploadFileNumbers } from './overlaps.ts';

const dirs = tempDirs('desk-overlaps-');
const clients: DbClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  dirs.cleanup();
});

const day = 86_400_000;
const request = (end: string) =>
  JSON.stringify({
    agentId: 'a',
    name: 'n',
    countryCode: '+91',
    numberSource: { numberPoolId: 'p' },
    start: '01/11/2026, 09:00',
    end,
    callConfig: { call_time: { timezone: 'Asia/Kolkata' } },
    removeInvalid: true,
    transliterate: false,
    variablesMap: {},
    fileName: 'n.csv',
  });

async function setUp() {
  const dir = dirs.make();
  const file = join(dir, 'campaign-desk.sqlite');
  const db = await openDbClient({ file });
  clients.push(db);
  await insertWorkspace(db);
  const raw = new Database(file);
  raw.pragma('busy_timeout = 5000');
  return { dir, db, raw };
}

function insertLaunch(
  raw: Database.Database,
  l: {
    id: string;
    listId: number | null;
    state: string;
    uploadFile?: string;
    end?: string;
    terminatedAt?: string | null;
    valid?: number;
    predicted?: number | null;
    arrived?: number | null;
    serviceId?: string | null;
  },
) {
  const at = new Date().toISOString();
  raw
    .prepare(
      `INSERT INTO campaign_launches (id, workspace_id, list_id, name, agent_id, flow, state, step, settings,
         upload_file, bulk_list_id, valid, invalid, predicted_refused, arrived, terminated_at, created_at, updated_at)
       VALUES (?, 'w1', ?, ?, 'a', 'standard', ?, 'start', ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
    )
    .run(
      l.id,
      l.listId,
      `Campaign ${l.id}`,
      l.state,
      request(l.end ?? '01/01/2100, 09:00'),
      l.uploadFile ?? 'gone.csv',
      l.serviceId ?? null,
      l.valid ?? 3,
      l.predicted ?? null,
      l.arrived ?? null,
      l.terminatedAt ?? null,
      at,
      at,
    );
}

/** A stored row of list `listId` with its number (indexed as the import indexes valid and duplicate rows). */
function addRow(
  raw: Database.Database,
  listId: number,
  row: number,
  e164: number,
  o: { bucket?: 0 | 1 | 2; excluded?: boolean; duplicateOf?: number } = {},
) {
  raw
    .prepare(
      `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, e164, bucket, issues, reasons, duplicate_of, excluded)
       VALUES (?, ?, ?, '[]', ?, ?, ?, 0, '', ?, ?)`,
    )
    .run(listId, row, row, `+${e164}`, e164, o.bucket ?? 0, o.duplicateOf ?? 0, o.excluded ? 1 : 0);
  raw.prepare('INSERT INTO contact_numbers (list_id, e164, row) VALUES (?, ?, ?)').run(listId, e164, row);
}

describe('overlapsOf', () => {
  it('counts a file’s numbers in an app campaign’s list and a CLI campaign’s upload file; refused and long-ended ones do not count', async () => {
    const { dir, db, raw } = await setUp();
    insertContactList(raw, 1);
    [919800000001, 919800000002, 919800000003].forEach((n, i) => addRow(raw, 1, i + 2, n));
    const cliFile = join(dir, 'cli-upload.csv');
    writeFileSync(cliFile, 'Mobile Number,Name\n+919800000003,A\n+919800000004,"B, C"\n');
    insertLaunch(raw, { id: 'app', listId: 1, state: 'started' });
    insertLaunch(raw, { id: 'cli', listId: null, state: 'pending', uploadFile: cliFile });
    insertLaunch(raw, { id: 'refused', listId: 1, state: 'failed' });
    insertLaunch(raw, {
      id: 'old',
      listId: 1,
      state: 'started',
      terminatedAt: new Date(Date.now() - 10 * day).toISOString(),
    });
    raw.close();

    expect(await uploadFileNumbers(cliFile)).toEqual(['+919800000003', '+919800000004']);
    expect(await uploadFileNumbers(join(dir, 'missing.csv'))).toBeNull();
    const file = ['+919800000002', '+919800000003', '+919800000004', '+919800000009'];
    const o = await overlapsOf(db, { workspaceId: 'w1', source: { numbers: file }, nowMs: Date.now() });
    expect(o.contacts).toBe(3);
    expect(o.campaigns.map((c) => [c.launchId, c.contacts])).toEqual(
      expect.arrayContaining([
        ['app', 2],
        ['cli', 2],
      ]),
    );
    expect(o.campaigns).toHaveLength(2);
    // The app's list as the source, its own campaign left out (the CLI campaign shares one number).
    const own = await overlapsOf(db, {
      workspaceId: 'w1',
      source: { listId: 1 },
      launchId: 'app',
      nowMs: Date.now(),
    });
    expect(own).toMatchObject({ contacts: 1, campaigns: [{ launchId: 'cli', contacts: 1 }] });
  });
});

describe('overlapsOf counts only the contacts a campaign sent', () => {
  it('leaves out a launched list’s excluded rows, duplicates and the rows the service refused for that launch', async () => {
    const { db, raw } = await setUp();
    insertContactList(raw, 1);
    addRow(raw, 1, 2, 919800000001); // sent
    addRow(raw, 1, 3, 919800000002, { excluded: true }); // excluded by the operator: not sent
    addRow(raw, 1, 4, 919800000003); // refused by the service for this launch
    addRow(raw, 1, 5, 919800000001, { bucket: 2, duplicateOf: 2 }); // a duplicate of row 2
    addRow(raw, 1, 6, 919800000004); // refused by another launch of the list only: sent here
    raw
      .prepare(
        `INSERT INTO contact_refusals (list_id, row, bulk_list_id, upload_row, reason) VALUES (1, 4, 'B1', 3, 'x'), (1, 6, 'B0', 4, 'y')`,
      )
      .run();
    insertLaunch(raw, { id: 'app', listId: 1, state: 'started', serviceId: 'B1' });
    raw.close();
    const file = ['+919800000001', '+919800000002', '+919800000003', '+919800000004'];
    const o = await overlapsOf(db, { workspaceId: 'w1', source: { numbers: file }, nowMs: Date.now() });
    expect(o).toMatchObject({ contacts: 2, campaigns: [{ launchId: 'app', contacts: 2 }] });
  });
});

describe('live campaign progress', () => {
  it('counts a launch’s calls as the plan does: rows sent less the rows the service drops, or what it accepted', async () => {
    const { db, raw } = await setUp();
    insertLaunch(raw, {
      id: 'p',
      listId: null,
      state: 'started',
      serviceId: 'S1',
      valid: 1_308,
      predicted: 92,
    });
    insertLaunch(raw, {
      id: 'q',
      listId: null,
      state: 'started',
      serviceId: 'S2',
      valid: 1_308,
      predicted: 92,
      arrived: 1_200,
    });
    raw.close();
    const rows = await db.call('calls.liveCampaigns', { workspaceId: 'w1', limit: 10 });
    expect(Object.fromEntries(rows.map((r) => [r.bulkListId, r.contacts]))).toEqual({ S1: 1_216, S2: 1_200 });
  });
});
