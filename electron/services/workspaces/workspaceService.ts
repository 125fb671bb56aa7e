import { randomUUID } from 'node:crypto';
import type { RequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import type { ConnectionTest, Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { WorkspaceRecord } from './workspaces.queries.ts';
import type { DeskContext } from '../desk/context.ts';
import type { SecretKind, SecretStore } from '../secrets/secretStore.ts';
import { secretKinds } from '../secrets/secretStore.ts';
import { testConnection } from './testConnection.ts';
import { missingApiKeyMessage, readWorkspaceApiKey } from './workspaceApiKey.ts';

/** A base URL as stored: trimmed, without trailing slashes (paths are appended to it). */
export const normalizeBaseUrl = (url: string) => url.trim().replace(/\/+$/, '');

/** Where a key goes: scheme, host and port of a URL (null when it is not one). */
const originOfUrl = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** Whether a workspace moving from `from` to `to` would send its secrets to another server. */
const changesOrigin = (from: string, to: string): boolean => {
  if (from === to) return false;
  const a = originOfUrl(from);
  return a === null || a !== originOfUrl(to);
};

const newAddressNeedsKey = (baseUrl: string) =>
  `Enter the API key again for the new address ${originOfUrl(baseUrl) ?? baseUrl}: a stored key is only sent to the address it was entered for (the bearer token too, if the workspace uses one).`;

const sandboxManaged =
  'The built-in Sandbox workspace is managed by Campaign Desk: only its name can be changed.';

/**
 * The workspaces domain's logic. Secrets go to the keychain (or memory when the workspace is
 * session-only) before the row is written, and are removed if the row cannot be written, so no
 * workspace points at a missing key and no key outlives its workspace.
 */
export function createWorkspaceService(ctx: DeskContext) {
  const { db, secrets, events, logger } = ctx;

  const storeOf = (record: WorkspaceRecord): SecretStore => secrets.store(record.secretStorage);

  /** Whether a secret is there, without failing a whole list when the keychain is unreadable. */
  const has = async (record: WorkspaceRecord, kind: SecretKind): Promise<boolean> => {
    try {
      return (await storeOf(record).get(record.id, kind)) !== null;
    } catch (error) {
      logger.warn('secret not readable', { workspace: record.id, kind, reason: (error as Error).message });
      return false;
    }
  };

  const toWorkspace = async (record: WorkspaceRecord): Promise<Workspace> => ({
    id: record.id,
    name: record.name,
    baseUrl: record.baseUrl,
    isSandbox: record.isSandbox,
    hasApiKey: await has(record, 'apiKey'),
    hasBearerToken: await has(record, 'bearerToken'),
    secretStorage: record.secretStorage,
    createdAt: record.createdAt,
    lastTest: record.lastTest,
  });

  const getRecord = async (id: string): Promise<WorkspaceRecord> => {
    const record = await db.call('workspaces.get', { id });
    if (!record) throw new DeskFailure('not_found', 'This workspace no longer exists.', 'id');
    return record;
  };

  const changed = async () =>
    events.emit('workspaces:changed', { activeId: await db.call('workspaces.active', {}) });

  const requireWritable = (store: SecretStore) => {
    const status = store.status();
    if (!status.available)
      throw new DeskFailure('keychain_unavailable', status.message ?? 'No OS keychain is available.');
  };

  const deleteSecrets = async (store: SecretStore, id: string) => {
    for (const kind of secretKinds) await store.delete(id, kind);
  };

  return {
    async list(): Promise<ResponseOf<'workspaces:list'>> {
      const { workspaces, activeId } = await db.call('workspaces.list', {});
      return { workspaces: await Promise.all(workspaces.map(toWorkspace)), activeId };
    },

    async create(request: RequestOf<'workspaces:create'>): Promise<Workspace> {
      const storage = request.sessionOnly ? 'session' : 'keychain';
      const store = secrets.store(storage);
      requireWritable(store);
      const id = randomUUID();
      let record: WorkspaceRecord;
      try {
        await store.set(id, 'apiKey', request.apiKey);
        if (request.bearerToken) await store.set(id, 'bearerToken', request.bearerToken);
        record = await db.call('workspaces.insert', {
          id,
          name: request.name,
          baseUrl: normalizeBaseUrl(request.baseUrl),
          isSandbox: false,
          secretStorage: storage,
        });
      } catch (error) {
        await deleteSecrets(store, id).catch(() => undefined);
        throw error;
      }
      if ((await db.call('workspaces.active', {})) === null) await db.call('workspaces.setActive', { id });
      logger.info('workspace created', { workspace: id, storage });
      await changed();
      return toWorkspace(record);
    },

    async update(request: RequestOf<'workspaces:update'>): Promise<Workspace> {
      const current = await getRecord(request.id);
      const touchesSecrets = request.apiKey !== undefined || request.bearerToken !== undefined;
      if (current.isSandbox && (touchesSecrets || request.baseUrl !== undefined)) {
        throw new DeskFailure(
          'invalid_request',
          sandboxManaged,
          request.baseUrl !== undefined ? 'baseUrl' : 'apiKey',
        );
      }
      const store = storeOf(current);
      const baseUrl = request.baseUrl === undefined ? undefined : normalizeBaseUrl(request.baseUrl);
      const update = {
        id: current.id,
        ...(request.name === undefined ? {} : { name: request.name }),
        ...(baseUrl === undefined ? {} : { baseUrl }),
      };
      if (baseUrl !== undefined && changesOrigin(current.baseUrl, baseUrl)) {
        // Another server: the stored key (and bearer token) must never be sent there. The key must
        // come with the change; the old secrets go before the address changes and the new ones
        // come after, so no secret is ever stored beside an address it was not entered for.
        if (request.apiKey === undefined)
          throw new DeskFailure('invalid_request', newAddressNeedsKey(baseUrl), 'apiKey');
        requireWritable(store);
        const previous = {
          apiKey: await store.get(current.id, 'apiKey'),
          bearerToken: await store.get(current.id, 'bearerToken'),
        };
        await deleteSecrets(store, current.id);
        let record: WorkspaceRecord;
        try {
          record = await db.call('workspaces.update', update);
        } catch (error) {
          for (const kind of secretKinds) {
            const secret = previous[kind];
            if (secret !== null) await store.set(current.id, kind, secret).catch(() => undefined);
          }
          throw error;
        }
        await store.set(current.id, 'apiKey', request.apiKey);
        if (typeof request.bearerToken === 'string')
          await store.set(current.id, 'bearerToken', request.bearerToken);
        logger.info('workspace moved to another address; secrets replaced', { workspace: current.id });
        await changed();
        return toWorkspace(record);
      }
      if (touchesSecrets) requireWritable(store);
      const record = await db.call('workspaces.update', update);
      if (request.apiKey !== undefined) await store.set(current.id, 'apiKey', request.apiKey);
      if (request.bearerToken === null) await store.delete(current.id, 'bearerToken');
      else if (request.bearerToken !== undefined)
        await store.set(current.id, 'bearerToken', request.bearerToken);
      await changed();
      return toWorkspace(record);
    },

    async remove(request: RequestOf<'workspaces:remove'>): Promise<ResponseOf<'workspaces:remove'>> {
      const current = await db.call('workspaces.get', { id: request.id });
      if (!current) return { removed: false };
      if (current.isSandbox)
        throw new DeskFailure('invalid_request', 'The built-in Sandbox workspace cannot be removed.', 'id');
      // Secrets first: a failure here keeps the workspace (and says why) rather than orphaning a key.
      await deleteSecrets(storeOf(current), current.id);
      const { removed } = await db.call('workspaces.remove', { id: current.id });
      logger.info('workspace removed', { workspace: current.id });
      await changed();
      return { removed };
    },

    async setActive(
      request: RequestOf<'workspaces:set-active'>,
    ): Promise<ResponseOf<'workspaces:set-active'>> {
      const activeId = await db.call('workspaces.setActive', { id: request.id });
      await changed();
      return { activeId };
    },

    async test(request: RequestOf<'workspaces:test'>): Promise<ConnectionTest> {
      const timeoutMs = ctx.options.timings.connectionTestTimeoutMs;
      if ('draft' in request) {
        // Nothing is stored for a draft; the key only meets the log redactor (memory).
        ctx.redactor.add(request.draft.apiKey);
        return testConnection({
          ...request.draft,
          baseUrl: normalizeBaseUrl(request.draft.baseUrl),
          timeoutMs,
        });
      }
      const record = await getRecord(request.id);
      const apiKey = await readWorkspaceApiKey(secrets, record);
      const result: ConnectionTest = apiKey
        ? await testConnection({ baseUrl: record.baseUrl, apiKey, timeoutMs })
        : {
            ok: false,
            message: missingApiKeyMessage(record),
            credits: null,
            workspaceName: null,
          };
      await db.call('connectionTests.record', {
        workspaceId: record.id,
        baseUrl: record.baseUrl,
        at: new Date().toISOString(),
        ok: result.ok,
        message: result.message,
        credits: result.credits,
        serviceWorkspaceName: result.workspaceName,
      });
      await changed();
      return result;
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
