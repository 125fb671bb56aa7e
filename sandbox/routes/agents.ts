import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { editEventSubscriptionsRequestSchema } from '../../shared/service/agent.ts';
import { unauthorizedBody } from '../../shared/service/errors.ts';
import type { SandboxContext } from '../context.ts';
import { toAgentDetail, toAgentListItem } from '../domain/agents.ts';
import { bearerOf, sameSecret } from '../http/auth.ts';
import { invalidParameter, notFound, parseOr } from '../http/errors.ts';
import { pageParams } from './paging.ts';

/** `GET /agent/all`, `GET /agent/{id}`, `PATCH /agent/v1` (edit_event_subscriptions). */
export function registerAgentRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/v0/agent/all', async (req) => {
    const { limit, offset } = pageParams(req.query, (m) => invalidParameter(m), { limit: 20, max: 100 });
    const { rows } = store.agents.list(limit, offset);
    return {
      status: 'success',
      data: { agents: rows.map((a) => toAgentListItem(a, store.agents.callCount(a.id))) },
    };
  });

  app.get<{ Params: { id: string } }>('/v0/agent/:id', async (req) => {
    const a = store.agents.get(req.params.id);
    if (!a) throw notFound(`Agent ${req.params.id} not found`);
    return { agents: toAgentDetail(a, store.agents, store.agents.callCount(a.id)) };
  });

  app.patch('/v0/agent/v1', async (req, reply) => {
    // X-API-KEY authenticates it (checked for every operation), as the webhook setup and
    // edit-assistant docs show. A bearer token is checked only when the sandbox runs with one
    // (--bearer), for workspaces that need it (the seed sends one).
    const expected = ctx.options.bearerToken;
    if (expected !== null) {
      const bearer = bearerOf(req.headers.authorization);
      if (!bearer || !sameSecret(bearer, expected)) return reply.code(401).send(unauthorizedBody);
    }
    const op = parseOr(z.looseObject({ operation: z.string() }), req.body ?? {}, (m) => invalidParameter(m));
    if (op.operation !== 'edit_event_subscriptions') {
      throw invalidParameter(
        `operation "${op.operation}" is not supported by the sandbox (only edit_event_subscriptions)`,
      );
    }
    // event_type is an array (seed, Resources); the single string of old docs is refused.
    const parsed = parseOr(editEventSubscriptionsRequestSchema, req.body, (m) => invalidParameter(m));
    const agent = store.agents.get(parsed.agent_id);
    if (!agent) throw notFound(`Agent ${parsed.agent_id} not found`);
    const subscriptions = parsed.event_subscriptions.map((s) => ({
      event_type: [...new Set(s.event_type)],
      callback_url: s.callback_url,
      headers: s.headers ?? {},
      method_type: s.method_type ?? 'POST',
    }));
    store.agents.setSubscriptions(agent.id, JSON.stringify(subscriptions), ctx.clock.nowMs());
    ctx.events.emit('subscriptions-changed', { agentId: agent.id });
    return { message: 'Agent updated successfully!', agent_id: agent.id };
  });
}
