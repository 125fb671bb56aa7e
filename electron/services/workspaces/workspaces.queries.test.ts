import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../db/openDatabase.ts';
import { tempDirs } from '../db/testing.ts';
import { connectionTestQueries } from './connectionTests.queries.ts';
import { settingsQueries } from '../settings/settings.queries.ts';
import { workspaceQueries as q } from './workspaces.queries.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const open = () => openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
const base = { baseUrl: 'https://api.example.com/v0', isSandbox: false, secretStorage: 'keychain' as const };

describe('workspace queries', () => {
  it('lists the sandbox first, then by creation', () => {
    const db = open();
    q['workspaces.insert'].run(db, { id: 'b', name: 'Beta', ...base });
    q['workspaces.insert'].run(db, {
      id: 's',
      name: 'Sandbox',
      ...base,
      isSandbox: true,
      secretStorage: 'session',
    });
    q['workspaces.insert'].run(db, { id: 'a', name: 'Alpha', ...base });
    const { workspaces, activeId } = q['workspaces.list'].run(db, {});
    expect(workspaces.map((w) => w.id)).toEqual(['s', 'b', 'a']);
    expect(activeId).toBeNull();
    expect(q['workspaces.sandbox'].run(db, {})?.id).toBe('s');
    closeDatabase(db);
  });

  it('updates only the given fields and refuses a missing workspace', () => {
    const db = open();
    q['workspaces.insert'].run(db, { id: 'a', name: 'Alpha', ...base });
    const updated = q['workspaces.update'].run(db, { id: 'a', name: 'Alpha 2' });
    expect(updated).toMatchObject({ name: 'Alpha 2', baseUrl: base.baseUrl, secretStorage: 'keychain' });
    expect(() => q['workspaces.update'].run(db, { id: 'zz', name: 'x' })).toThrow(/no longer exists/);
    closeDatabase(db);
  });

  it('shows the latest connection test with each workspace', () => {
    const db = open();
    q['workspaces.insert'].run(db, { id: 'a', name: 'Alpha', ...base });
    const test = { workspaceId: 'a', baseUrl: base.baseUrl, serviceWorkspaceName: null };
    connectionTestQueries['connectionTests.record'].run(db, {
      ...test,
      at: 't1',
      ok: false,
      message: 'Invalid credentials',
      credits: null,
    });
    connectionTestQueries['connectionTests.record'].run(db, {
      ...test,
      at: 't2',
      ok: true,
      message: 'Connected',
      credits: 1250.5,
    });
    expect(q['workspaces.get'].run(db, { id: 'a' })?.lastTest).toEqual({
      at: 't2',
      ok: true,
      message: 'Connected',
      credits: 1250.5,
    });
    closeDatabase(db);
  });

  it('keeps a bounded log of connection tests per workspace', () => {
    const db = open();
    q['workspaces.insert'].run(db, { id: 'a', name: 'Alpha', ...base });
    for (let i = 0; i < 50; i++) {
      connectionTestQueries['connectionTests.record'].run(db, {
        workspaceId: 'a',
        baseUrl: 'u',
        at: String(i),
        ok: true,
        message: 'Connected',
        credits: i,
        serviceWorkspaceName: null,
      });
    }
    const recent = connectionTestQueries['connectionTests.recent'].run(db, { workspaceId: 'a', limit: 100 });
    expect(recent).toHaveLength(20);
    expect(recent[0]?.credits).toBe(49);
    closeDatabase(db);
  });

  it('on removing the active workspace activates the next one (the sandbox first)', () => {
    const db = open();
    q['workspaces.insert'].run(db, { id: 's', name: 'Sandbox', ...base, isSandbox: true });
    q['workspaces.insert'].run(db, { id: 'a', name: 'Alpha', ...base });
    q['workspaces.setActive'].run(db, { id: 'a' });
    expect(q['workspaces.remove'].run(db, { id: 'a' })).toEqual({ removed: true, activeId: 's' });
    expect(q['workspaces.remove'].run(db, { id: 'a' })).toEqual({ removed: false, activeId: 's' });
    expect(q['workspaces.remove'].run(db, { id: 's' })).toEqual({ removed: true, activeId: null });
    expect(() => q['workspaces.setActive'].run(db, { id: 'nope' })).toThrow(/no longer exists/);
    closeDatabase(db);
  });

  it('stores settings as JSON values', () => {
    const db = open();
    settingsQueries['settings.set'].run(db, { key: 'windowState', value: { width: 1200, maximized: false } });
    expect(settingsQueries['settings.get'].run(db, { key: 'windowState' })).toEqual({
      width: 1200,
      maximized: false,
    });
    expect(settingsQueries['settings.get'].run(db, { key: 'missing' })).toBeNull();
    closeDatabase(db);
  });
});
