import type { AgentSummary } from '../../../shared/ipc/channels/agents.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { ErrorCode } from '../../../shared/ipc/result.ts';
import { createApiClient, isApiError } from '../api/index.ts';
import type { ApiError } from '../api/index.ts';
import type { DeskContext } from '../desk/context.ts';
import { describeFailure, originOf } from '../workspaces/testConnection.ts';
import { missingApiKeyMessage, readWorkspaceApiKey } from '../workspaces/workspaceApiKey.ts';
import { declaredVariables, mappableVariables } from './agentVariables.ts';

/** Agents fetched by id at once when the list rows carry no variables. */
const DETAIL_CONCURRENCY = 4;

const codeOf = (error: ApiError): ErrorCode =>
  error.kind === 'unauthorized' || error.kind === 'unreachable' || error.kind === 'timeout'
    ? error.kind
    : 'service_error';

/**
 * The active workspace's agents with the variables a contact list must supply: the declared custom
 * variables of the list row, else those of the agent by id (declared, then the prompt's `@{{var}}`
 * placeholders). Archived agents are left out. Service failures become DeskFailures in the same
 * words as "Test connection".
 */
export async function listAgents(ctx: DeskContext): Promise<AgentSummary[]> {
  const activeId = await ctx.db.call('workspaces.active', {});
  const record = activeId === null ? null : await ctx.db.call('workspaces.get', { id: activeId });
  if (!record) throw new DeskFailure('not_found', 'No active workspace: add one in Settings → Workspaces.');
  const apiKey = await readWorkspaceApiKey(ctx.secrets, record);
  if (!apiKey) throw new DeskFailure('unauthorized', missingApiKeyMessage(record));

  const timeoutMs = ctx.options.timings.connectionTestTimeoutMs;
  const client = createApiClient({
    baseUrl: record.baseUrl,
    apiKey: async () => apiKey,
    timeoutMs,
    maxRetries: 1,
  });
  try {
    const rows = (await client.listAgents()).filter((row) => row.is_archived !== true);
    return await mapLimited(rows, DETAIL_CONCURRENCY, async (row) => {
      const declared = declaredVariables(row);
      const variables = declared.length > 0 ? declared : (await client.getAgent(row.id)).variables;
      return {
        id: row.id,
        name: row.agent_display_name ?? row.id,
        archived: false,
        isLocalDraft: false,
        language: null,
        versions: 0,
        activeVersionId: row.active_agent_version_id ?? null,
        variables: mappableVariables(variables),
        updatedAt: new Date().toISOString(),
        hasSubscriptionsDraft: false,
      };
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const host = originOf(record.baseUrl);
    const message =
      error.kind === 'not_found'
        ? `Not found: ${host} has no agent listing under this base URL. Check that the base URL is the service root, ending in /v0.`
        : describeFailure(error, host, timeoutMs);
    throw new DeskFailure(codeOf(error), message);
  }
}

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
