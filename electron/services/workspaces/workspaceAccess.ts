// The active workspace and an API client for it (key, and bearer token when one is stored, read
// from the secret store here in the back end), and service failures in the words of "Test connection".
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { ErrorCode } from '../../../shared/ipc/result.ts';
import { createApiClient } from '../api/index.ts';
import type { ApiClient, ApiError } from '../api/index.ts';
import type { WorkspaceRecord } from './workspaces.queries.ts';
import type { DeskContext } from '../desk/context.ts';
import { describeFailure, originOf } from './testConnection.ts';
import { missingApiKeyMessage, readWorkspaceApiKey } from './workspaceApiKey.ts';

/** The active workspace, or null when there is none. */
export async function activeWorkspace(ctx: DeskContext): Promise<WorkspaceRecord | null> {
  const id = await ctx.db.call('workspaces.active', {});
  return id === null ? null : await ctx.db.call('workspaces.get', { id });
}

export async function requireActiveWorkspace(ctx: DeskContext): Promise<WorkspaceRecord> {
  const record = await activeWorkspace(ctx);
  if (!record) throw new DeskFailure('not_found', 'No active workspace: add one in Settings → Workspaces.');
  return record;
}

export const hasBearerToken = async (ctx: DeskContext, record: WorkspaceRecord): Promise<boolean> =>
  (await ctx.secrets.store(record.secretStorage).get(record.id, 'bearerToken')) !== null;

/** A client for the workspace; throws `unauthorized` (in words) when no key is stored. */
export async function workspaceClient(
  ctx: DeskContext,
  record: WorkspaceRecord,
  options: { timeoutMs: number; maxRetries?: number },
): Promise<ApiClient> {
  const apiKey = await readWorkspaceApiKey(ctx.secrets, record);
  if (!apiKey) throw new DeskFailure('unauthorized', missingApiKeyMessage(record));
  const store = ctx.secrets.store(record.secretStorage);
  return createApiClient({
    baseUrl: record.baseUrl,
    apiKey: async () => apiKey,
    bearerToken: () => store.get(record.id, 'bearerToken'),
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries ?? 1,
  });
}

/** The service could not be reached at all (the edit or refresh can wait for the connection). */
export const isOffline = (error: ApiError): boolean =>
  error.kind === 'unreachable' || error.kind === 'timeout';

const codeOf = (error: ApiError): ErrorCode =>
  error.kind === 'unauthorized' || error.kind === 'unreachable' || error.kind === 'timeout'
    ? error.kind
    : 'service_error';

/** An ApiError of an agent operation as a DeskFailure in plain words. */
export function agentServiceFailure(
  error: ApiError,
  record: Pick<WorkspaceRecord, 'baseUrl'>,
  timeoutMs: number,
): DeskFailure {
  const host = originOf(record.baseUrl);
  const message =
    error.kind === 'not_found'
      ? `Not found: ${host} has no agent listing under this base URL. Check that the base URL is the service root, ending in /v0.`
      : describeFailure(error, host, timeoutMs);
  return new DeskFailure(codeOf(error), message);
}
