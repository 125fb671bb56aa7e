import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { openDbClient } from './client.ts';
import type { DbClient } from './client.ts';
import { latestSchemaVersion } from './migrations/index.ts';
import { openReader } from './openDatabase.ts';
import { insertWorkspace, tempDirs } from './testing.ts';

const dirs = tempDirs();
const clients: DbClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  dirs.cleanup();
});
const open = async (file: string) => {
  const client = await openDbClient({ file });
  clients.push(client);
  return client;
};

describe('database worker client (real worker thread, real SQLite file)', () => {
  it('opens, migrates and answers named queries', async () => {
    const file = join(dirs.make(), 'campaign-desk.sqlite');
    const db = await open(file);
    expect(db.schemaVersion).toBe(latestSchemaVersion());
    const ws = await insertWorkspace(db);
    expect(ws).toMatchObject({ id: 'w1', name: 'Production', isSandbox: false, lastTest: null });
    await db.call('workspaces.setActive', { id: 'w1' });
    expect(await db.call('workspaces.list', {})).toMatchObject({
      activeId: 'w1',
      workspaces: [{ id: 'w1' }],
    });
    await db.close();

    // The pragmas stuck: WAL is a property of the file; the file is private to the user.
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
    raw.close();
  });

  it('runs with WAL, foreign keys on and synchronous=NORMAL', async () => {
    const db = await open(join(dirs.make(), 'x.sqlite'));
    expect(await db.call('db.status', {})).toMatchObject({
      journalMode: 'wal',
      synchronous: 1,
      foreignKeys: true,
    });
    // connection_tests references workspaces: without foreign keys this insert would succeed.
    await expect(
      db.call('connectionTests.record', {
        workspaceId: 'missing',
        baseUrl: 'u',
        at: 'now',
        ok: true,
        message: 'Connected',
        credits: null,
        serviceWorkspaceName: null,
      }),
    ).rejects.toThrow(/FOREIGN KEY constraint failed/);
  });

  it('keeps a DeskFailure thrown by a query (code and field) across the thread boundary', async () => {
    const db = await open(join(dirs.make(), 'x.sqlite'));
    const base = { baseUrl: 'https://a/v0', isSandbox: false, secretStorage: 'keychain' as const };
    await db.call('workspaces.insert', { id: 'a', name: 'Acme', ...base });
    const error = await db
      .call('workspaces.insert', { id: 'b', name: 'ACME', ...base })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskFailure);
    expect(error).toMatchObject({
      code: 'conflict',
      field: 'name',
      message: 'A workspace named "ACME" already exists.',
    });
  });

  it('streams batches on demand and closes an abandoned stream', async () => {
    const db = await open(join(dirs.make(), 'x.sqlite'));
    const base = { baseUrl: 'https://a/v0', isSandbox: false, secretStorage: 'keychain' as const };
    for (let w = 0; w < 30; w++) await db.call('workspaces.insert', { id: `w${w}`, name: `W${w}`, ...base });
    for (let i = 0; i < 300; i++) {
      await db.call('connectionTests.record', {
        workspaceId: `w${i % 30}`,
        baseUrl: 'u',
        at: String(i),
        ok: i % 2 === 0,
        message: `m${i}`,
        credits: i,
        serviceWorkspaceName: null,
      });
    }
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const batch of db.stream('connectionTests.all', { batchSize: 128 })) {
      sizes.push(batch.length);
      seen.push(...batch.map((t) => t.credits ?? -1));
    }
    expect(sizes).toEqual([128, 128, 44]);
    expect(seen).toEqual([...Array(300).keys()]);

    let batches = 0;
    for await (const _ of db.stream('connectionTests.all', { batchSize: 10 })) {
      if (++batches === 2) break;
    }
    expect(batches).toBe(2);
    // Other queries keep working after an abandoned stream.
    expect((await db.call('workspaces.list', {})).workspaces).toHaveLength(30);

    // Read ahead: the same batches; abandoned mid-way or at the last batch, the stream is closed.
    const ahead: number[] = [];
    for await (const batch of db.stream('connectionTests.all', { batchSize: 128 }, { readAhead: true }))
      ahead.push(...batch.map((t) => t.credits ?? -1));
    expect(ahead).toEqual(seen);
    for (const stopAt of [1, 3]) {
      let n = 0;
      for await (const _ of db.stream('connectionTests.all', { batchSize: 128 }, { readAhead: true }))
        if (++n === stopAt) break;
      expect(n).toBe(stopAt);
    }
    expect((await db.call('workspaces.list', {})).workspaces).toHaveLength(30);
  });

  it('refuses a database written by a newer app, with the clear message, through the worker', async () => {
    const file = join(dirs.make(), 'campaign-desk.sqlite');
    const raw = new Database(file);
    raw.pragma('user_version = 9000');
    raw.close();
    const error = await openDbClient({ file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskFailure);
    expect(error).toMatchObject({
      code: 'database_error',
      message: `This data folder was written by a newer Campaign Desk (schema 9000 > ${latestSchemaVersion()}). Update the app or choose another data folder.`,
    });
  });

  it('refuses a file that is not a database with a clear message', async () => {
    const dir = dirs.make();
    const file = join(dir, 'campaign-desk.sqlite');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, 'this is not sqlite '.repeat(100));
    const error = await openDbClient({ file }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'database_error' });
    expect((error as Error).message).toMatch(
      /could not be opened as a Campaign Desk database .* Move it away/,
    );
    expect(existsSync(file)).toBe(true);
  });

  it('fails pending and later calls clearly after close', async () => {
    const db = await openDbClient({ file: join(dirs.make(), 'x.sqlite') });
    await db.close();
    await expect(db.call('workspaces.list', {})).rejects.toMatchObject({ code: 'database_error' });
  });

  it('answers read queries and read streams on its read lane while the writer waits for a lock', async () => {
    const file = join(dirs.make(), 'x.sqlite');
    const db = await open(file);
    // It starts in the background; until then the writer answers reads.
    expect(await db.readLane).toBe(true);
    await insertWorkspace(db);
    for (let i = 0; i < 3; i++) {
      await db.call('connectionTests.record', {
        workspaceId: 'w1',
        baseUrl: 'u',
        at: String(i),
        ok: true,
        message: `m${i}`,
        credits: i,
        serviceWorkspaceName: null,
      });
    }
    // Another connection holds the write lock: the writer's next write waits in its busy handler.
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    let written = false;
    const write = db.call('workspaces.setActive', { id: 'w1' }).then(() => (written = true));
    try {
      // A read query sent after it is answered meanwhile, and sees what was committed.
      const facets = await db.call('calls.facets', { workspaceId: 'w1' });
      expect(facets).toBeTruthy();
      expect(
        await db.call('contacts.page', { listId: 1, filter: 'all', fromRow: 0, skip: 0, limit: 10 }),
      ).toEqual([]);
      const credits: Array<number | null> = [];
      for await (const batch of db.stream('connectionTests.all', { batchSize: 2 }))
        credits.push(...batch.map((t) => t.credits));
      expect(credits).toEqual([0, 1, 2]);
      expect(written).toBe(false);
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    await write;
    expect(written).toBe(true);
    expect(await db.call('workspaces.list', {})).toMatchObject({ activeId: 'w1' });
  });

  it('without a read lane (the CLI) the writer answers reads', async () => {
    const db = await openDbClient({ file: join(dirs.make(), 'x.sqlite'), readLane: false });
    clients.push(db);
    expect(await db.readLane).toBe(false);
    await insertWorkspace(db);
    expect(await db.call('calls.facets', { workspaceId: 'w1' })).toBeTruthy();
    expect(await db.call('contacts.lists', {})).toEqual([]);
  });

  it("the read lane's connection refuses writes", async () => {
    const file = join(dirs.make(), 'x.sqlite');
    await (await open(file)).close();
    const reader = openReader(file);
    try {
      expect(reader.prepare('SELECT count(*) AS n FROM workspaces').get()).toEqual({ n: 0 });
      expect(() => reader.exec(`DELETE FROM workspaces`)).toThrow(/readonly/);
    } finally {
      reader.close();
    }
  });
});
