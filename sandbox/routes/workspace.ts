import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { invalidParameter } from '../http/errors.ts';
import { pageParams } from './paging.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** `GET /workspace` (credits) and `GET /workspace/numbers` (caller numbers with their pool). */
export function registerWorkspaceRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/v0/workspace', async () => {
    const w = ctx.store.workspace.get();
    const key = ctx.options.apiKey;
    return {
      workspace_info: {
        id: w.id,
        name: w.name,
        created_at: iso(w.created_at),
        credits: w.credits,
        locked_credits: w.locked_credits,
        // The real service echoes the key; the sandbox shows only its last characters.
        api_key: `****${key.slice(-4)}`,
      },
    };
  });

  app.get('/v0/workspace/numbers', async (req) => {
    const { limit, offset } = pageParams(req.query, (m) => invalidParameter(m), { limit: 20, max: 100 });
    const rows = ctx.store.numbers.list(limit, offset);
    const counts = ctx.store.numbers.callCounts();
    return {
      workspace_numbers: rows.map((n) => {
        const agent = n.agent_id ? ctx.store.agents.get(n.agent_id) : undefined;
        return {
          id: n.id,
          number: n.number,
          created_at: iso(n.created_at),
          call_count: counts.get(n.number) ?? 0,
          agent: agent ? { id: agent.id, agent_display_name: agent.display_name } : null,
          is_inbound_enabled: false,
          is_test_number: false,
          tags: [],
          is_spam: n.is_spam === 1,
          spam_message: null,
          provider: n.provider,
          display_name: n.display_name,
          owner: 'sandbox@campaign-desk.local',
          is_custom_number: false,
          telephony_id: n.id.replace(/-/g, '').slice(0, 24),
          number_pool_id: n.number_pool_id,
        };
      }),
    };
  });
}
