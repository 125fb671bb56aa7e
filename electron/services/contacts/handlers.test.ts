import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanInMemory } from '../../../shared/domain/contacts/index.ts';
import type { ContactList, ContactRow } from '../../../shared/ipc/channels/contacts.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';
import { generate, importThroughService } from './testing.ts';
import type { ImportTarget } from './testing.ts';

// Every contacts channel through the desk's dispatcher (request schema in, response schema out),
// on a real data folder: what the UI gets in both hosts.

const dirs = tempDirs('desk-contacts-handlers-');
const desks: Desk[] = [];
afterEach(async () => {
  await Promise.all(desks.splice(0).map((d) => d.close()));
  dirs.cleanup();
});

const value = <T>(result: Result<unknown>): T => {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
};

/** The UI's three import calls, through the desk's channels (batches made like the worker's). */
async function importList(desk: Desk): Promise<{ list: ContactList; upload: string; rejects: string }> {
  const target: ImportTarget = {
    importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
    importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
    importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
  };
  const { list, engine } = await importThroughService(target, generate(800, 9).bytes);
  return { list, upload: engine.upload, rejects: engine.rejects };
}

describe('contacts channels through the desk', () => {
  it('imports, pages, edits, bulk-fixes, undoes, exports and deletes within the contract', async () => {
    const dataDir = dirs.make();
    const desk = await createDesk({
      dataDir,
      host: 'browser',
      version: '1',
      sandbox: 'off',
      secrets: new SessionSecretStore(),
    });
    desks.push(desk);
    const { list, upload, rejects } = await importList(desk);
    expect(
      value<{ lists: ContactList[] }>(await desk.handle('contacts:lists', {})).lists.map((l) => l.id),
    ).toEqual([list.id]);
    const page = value<{ total: number; rows: ContactRow[] }>(
      await desk.handle('contacts:rows', { listId: list.id, filter: 'bucket:invalid', offset: 0, limit: 10 }),
    );
    expect(page.total).toBe(list.counts.invalid);
    const edited = value<{ changed: ContactRow[] }>(
      await desk.handle('contacts:edit-cell', {
        listId: list.id,
        row: page.rows[0]!.row,
        column: 2,
        value: '+91 99999 54321',
      }),
    );
    expect(edited.changed[0]).toMatchObject({ bucket: 'valid', e164: '+919999954321', edited: true });
    value(await desk.handle('contacts:undo', { listId: list.id }));
    value(await desk.handle('contacts:bulk', { listId: list.id, action: 'exclude-invalid' }));
    value(await desk.handle('contacts:bulk', { listId: list.id, action: 'include-all' }));
    value(await desk.handle('contacts:undo', { listId: list.id }));
    value(
      await desk.handle('contacts:set-excluded', {
        listId: list.id,
        rows: [page.rows[0]!.row],
        excluded: false,
      }),
    );
    value(
      await desk.handle('contacts:bulk', {
        listId: list.id,
        action: 'apply-country',
        country: 'US',
        scope: 'invalid',
      }),
    );
    value(await desk.handle('contacts:undo', { listId: list.id }));
    expect(
      value(await desk.handle('contacts:locate', { listId: list.id, filter: 'all', row: page.rows[0]!.row })),
    ).toEqual({ index: page.rows[0]!.pos });
    expect(value(await desk.handle('contacts:get', { listId: list.id }))).toMatchObject({
      list: { counts: { excluded: list.counts.invalid - 1 } },
    });
    value(await desk.handle('contacts:bulk', { listId: list.id, action: 'include-all' }));
    const up = value<{ path: string }>(
      await desk.handle('contacts:export', {
        listId: list.id,
        kind: 'upload',
        path: join(dataDir, 'up.csv'),
      }),
    );
    expect(readFileSync(up.path, 'utf8')).toBe(upload);
    const down = value<{ downloadUrl: string }>(
      await desk.handle('contacts:export', { listId: list.id, kind: 'rejects', download: true }),
    );
    expect(down.downloadUrl).toMatch(/^\/downloads\/[A-Za-z0-9_-]{43}$/);
    expect(value(await desk.handle('contacts:delete', { listId: list.id }))).toEqual({ deleted: true });
    expect(value<{ lists: ContactList[] }>(await desk.handle('contacts:lists', {})).lists).toEqual([]);
    expect(rejects.startsWith('Row,Reasons,')).toBe(true);
  });

  it('answers bad requests with invalid_request naming the field, and unknown lists with not_found', async () => {
    const desk = await createDesk({
      dataDir: dirs.make(),
      host: 'browser',
      version: '1',
      sandbox: 'off',
      secrets: new SessionSecretStore(),
    });
    desks.push(desk);
    expect(
      await desk.handle('contacts:rows', { listId: 1, filter: 'everything', offset: 0, limit: 10 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'filter' },
    });
    expect(
      await desk.handle('contacts:edit-cell', { listId: 1, row: 2, column: 0, value: 'x' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found', field: 'listId' },
    });
    expect(
      await desk.handle('contacts:import-batch', { importId: 'abcdefgh', seq: 0, data: '{}' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found', field: 'importId' },
    });
    expect(
      (await cleanInMemory(new TextEncoder().encode('Mobile\n9876543210\n'), { country: 'IN' })).report.valid,
    ).toBe(1);
  });
});
