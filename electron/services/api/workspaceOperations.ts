// The workspace's and its agents' operations of the calling service: the workspace (credits),
// its caller numbers, agents (list, detail, normalised view) and their event subscriptions.
import type { z } from 'zod';
import {
  agentByIdResponseSchema,
  agentListResponseSchema,
  agentUpdateResponseSchema,
  normalizeAgent,
} from '../../../shared/service/agent.ts';
import type {
  AgentDetail,
  AgentListItem,
  AgentView,
  EditEventSubscriptionsRequest,
} from '../../../shared/service/agent.ts';
import {
  workspaceInfoResponseSchema,
  workspaceNumbersResponseSchema,
} from '../../../shared/service/workspace.ts';
import type { WorkspaceInfo, WorkspaceNumber } from '../../../shared/service/workspace.ts';
import { enc } from './requestChecks.ts';
import type { CallOptions, PageOptions } from './requestChecks.ts';
import type { Transport } from './transport.ts';

export function workspaceOperations(request: Transport) {
  return {
    /** `GET /workspace`: the first health check ("Test connection"); 401 → `Invalid credentials`. */
    async getWorkspaceInfo(opts: CallOptions = {}): Promise<Omit<WorkspaceInfo, 'api_key'>> {
      const res = await request({
        operation: 'getWorkspaceInfo',
        method: 'GET',
        path: '/workspace',
        schema: workspaceInfoResponseSchema,
        idempotent: true,
        ...opts,
      });
      // The service echoes the key; it never leaves the client.
      const { api_key: _dropped, ...info } = res.workspace_info;
      return info;
    },

    /** `GET /workspace/numbers`: caller numbers; `id` is the from_number_id, with its number_pool_id. */
    async listWorkspaceNumbers(opts: PageOptions = {}): Promise<WorkspaceNumber[]> {
      const res = await request({
        operation: 'listWorkspaceNumbers',
        method: 'GET',
        path: '/workspace/numbers',
        query: { limit: opts.limit, offset: opts.offset },
        schema: workspaceNumbersResponseSchema,
        idempotent: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      return res.workspace_numbers;
    },

    /** `GET /agent/all` (no prompt text; use getAgent for that). */
    async listAgents(opts: PageOptions = {}): Promise<AgentListItem[]> {
      return request({
        operation: 'listAgents',
        method: 'GET',
        path: '/agent/all',
        query: { limit: opts.limit, offset: opts.offset },
        schema: agentListResponseSchema,
        idempotent: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    },

    /** `GET /agent/{id}` as received (unknown fields kept), from any documented envelope. */
    async getAgentDetail(agentId: string, opts: CallOptions = {}): Promise<AgentDetail> {
      return request({
        operation: 'getAgent',
        method: 'GET',
        path: `/agent/${enc(agentId)}`,
        schema: agentByIdResponseSchema,
        idempotent: true,
        ...opts,
      });
    },

    /** `GET /agent/{id}`, normalised from either documented shape: prompt text, variables, versions. */
    async getAgent(agentId: string, opts: CallOptions = {}): Promise<AgentView> {
      const detail = await request({
        operation: 'getAgent',
        method: 'GET',
        path: `/agent/${enc(agentId)}`,
        schema: agentByIdResponseSchema,
        idempotent: true,
        ...opts,
      });
      return normalizeAgent(detail);
    },

    /** `PATCH /agent/v1` edit_event_subscriptions (X-API-KEY; the bearer token too when one is stored). */
    async editEventSubscriptions(
      req: Omit<EditEventSubscriptionsRequest, 'operation'>,
      opts: CallOptions = {},
    ): Promise<z.infer<typeof agentUpdateResponseSchema>> {
      return request({
        operation: 'editEventSubscriptions',
        method: 'PATCH',
        path: '/agent/v1',
        json: {
          operation: 'edit_event_subscriptions',
          agent_id: req.agent_id,
          event_subscriptions: req.event_subscriptions,
        },
        schema: agentUpdateResponseSchema,
        idempotent: false,
        bearer: true,
        ...opts,
      });
    },
  };
}
