import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  campaignStartRequestSchema,
  campaignStartV2RequestSchema,
  hasExactlyOneNumberSource,
  makeCallAsyncRequestSchema,
  terminateRequestSchema,
} from '../../shared/service/campaign.ts';
import { e164Pattern } from '../../shared/service/common.ts';
import { terminalCallStatuses } from '../../shared/service/enums.ts';
import type { SandboxContext } from '../context.ts';
import { currentStatus } from '../domain/bulkListLifecycle.ts';
import { StartRefusal, recordRefusal, startCampaign } from '../domain/campaignStart.ts';
import type { StartEndpoint, StartInput } from '../domain/campaignStart.ts';
import { detailError, parseOr } from '../http/errors.ts';
import type { BulkListRow } from '../store/types.ts';
import { pageParams } from './paging.ts';

const detailRoute = { config: { errorShape: 'detail' as const } };
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The list id a start request names, if it names one (for the start log). */
function namedList(body: unknown, key: 'bulk_list_id' | 'list_id'): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const v = (body as Record<string, unknown>)[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

type StartOptions = Omit<StartInput, 'list' | 'endpoint'>;

function attemptStart(ctx: SandboxContext, endpoint: StartEndpoint, listId: string, input: StartOptions) {
  const list = ctx.store.bulkLists.get(listId);
  if (!list) {
    const e = new StartRefusal(404, 'not_found', `Bulk list ${listId} not found`);
    recordRefusal(ctx, listId, endpoint, e, e.reason);
    throw e;
  }
  try {
    return startCampaign(ctx, { ...input, endpoint, list });
  } catch (e) {
    if (e instanceof StartRefusal) recordRefusal(ctx, listId, endpoint, e, e.reason);
    throw e;
  }
}

/** Refuse a body before any list check, logging it against the list it names. */
function refuse(
  ctx: SandboxContext,
  endpoint: StartEndpoint,
  listId: string | null,
  status: number,
  reason: string,
  message: string,
): never {
  const e = new StartRefusal(status, reason, message);
  if (listId) recordRefusal(ctx, listId, endpoint, e, reason);
  throw e;
}

/** `POST /campaign/start` and `/campaign/v2/start`: the same steps, each with its own body. */
function standardStart<T extends { list_id: string }>(
  ctx: SandboxContext,
  endpoint: StartEndpoint,
  schema: z.ZodType<T>,
  options: (body: T) => StartOptions,
) {
  return async (req: FastifyRequest) => {
    const listId = namedList(req.body, 'list_id');
    const body = parseOr(schema, req.body ?? {}, (m) =>
      refuse(ctx, endpoint, listId, 400, 'invalid_body', m),
    );
    const r = attemptStart(ctx, endpoint, body.list_id, options(body));
    return { status: 'campaign registered successfully!', has_ongoing_calls: r.hasOngoingCalls };
  };
}

function campaignStatus(list: BulkListRow, counts: Record<string, number>, now: number): string {
  if (list.started_at === null)
    return list.outcome === 'failed' && currentStatus(list, now) === 'failed' ? 'failed' : 'draft';
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const terminal = Object.entries(counts)
    .filter(([s]) => (terminalCallStatuses as readonly string[]).includes(s))
    .reduce((a, [, n]) => a + n, 0);
  if (total > 0 && terminal === total) return 'completed';
  const untouched = counts.registered ?? 0;
  return untouched === total ? 'scheduled' : 'ongoing';
}

/** make-call-async, the standard starts, the campaign listing, and terminate. */
export function registerCampaignRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v0/campaign/make-call-async', detailRoute, async (req) => {
    const endpoint = 'make-call-async';
    const listId = namedList(req.body, 'bulk_list_id');
    if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
      refuse(ctx, endpoint, null, 422, 'invalid_body', 'The body must be a JSON object');
    }
    if (!hasExactlyOneNumberSource(req.body as Record<string, unknown>)) {
      refuse(
        ctx,
        endpoint,
        listId,
        422,
        'number_source',
        'Give exactly one of from_numbers or number_pool_id (not both, not neither)',
      );
    }
    const body = parseOr(makeCallAsyncRequestSchema, req.body, (m) => {
      if (listId)
        recordRefusal(ctx, listId, endpoint, new StartRefusal(422, 'invalid_body', m), 'invalid_body');
      return detailError(422, m);
    });
    attemptStart(ctx, endpoint, body.bulk_list_id, {
      agentId: body.agent_id,
      ...(body.from_numbers ? { fromNumbers: body.from_numbers } : {}),
      ...(body.number_pool_id ? { numberPoolId: body.number_pool_id } : {}),
      ...(body.call_config ? { callConfig: body.call_config } : {}),
      ...(body.campaign_start_time ? { campaignStartTime: body.campaign_start_time } : {}),
      ...(body.campaign_end_time ? { campaignEndTime: body.campaign_end_time } : {}),
      ...(body.concurrency_percentage !== undefined
        ? { concurrencyPercentage: body.concurrency_percentage }
        : {}),
      ...(body.callback_url ? { callbackUrl: body.callback_url } : {}),
      ...(body.email_completion_user_ids ? { emailCompletionUserIds: body.email_completion_user_ids } : {}),
    });
    return { message: 'Campaign calls scheduled', bulk_list_id: body.bulk_list_id, status: 'scheduled' };
  });

  app.post(
    '/v0/campaign/start',
    detailRoute,
    standardStart(ctx, 'campaign/start', campaignStartRequestSchema, (body) => ({
      agentId: body.agent_id,
      fromNumbers: body.from_numbers,
    })),
  );

  app.post(
    '/v0/campaign/v2/start',
    detailRoute,
    standardStart(ctx, 'campaign/v2/start', campaignStartV2RequestSchema, (body) => ({
      agentId: body.agent_id,
      numberPoolId: body.number_pool_id,
      ...(body.callback_url ? { callbackUrl: body.callback_url } : {}),
      ...(body.email_completion_user_ids ? { emailCompletionUserIds: body.email_completion_user_ids } : {}),
    })),
  );

  app.get('/v0/campaign/all', detailRoute, async (req) => {
    const { limit, offset } = pageParams(req.query, (m) => detailError(400, m), { limit: 10, max: 100 });
    const callCount =
      String((req.query as Record<string, unknown>).call_count ?? 'true').toLowerCase() !== 'false';
    const { rows, total } = ctx.store.bulkLists.list(limit, offset);
    const now = ctx.clock.nowMs();
    return {
      campaigns: rows.map((l) => {
        const counts = ctx.store.calls.statusCountsForList(l.id);
        const totalCalls = Object.values(counts).reduce((a, b) => a + b, 0);
        return {
          id: l.id,
          bulk_list_id: l.id,
          name: l.campaign_name,
          agent_id: l.agent_id,
          campaign_status: campaignStatus(l, counts, now),
          campaign_start_time: iso(l.start_at),
          campaign_end_time: iso(l.end_at),
          created_at: iso(l.created_at),
          updated_at: iso(l.updated_at),
          ...(callCount
            ? {
                registered_count: counts.registered ?? 0,
                completed_count: counts.completed ?? 0,
                total_count: totalCalls,
              }
            : {}),
        };
      }),
      pagination: { limit, offset, total },
    };
  });

  const terminate = (match: Parameters<typeof ctx.store.calls.terminate>[0], bulkListId?: string) => {
    const now = ctx.clock.nowMs();
    const ids = ctx.store.calls.terminate(match, 'USER_TERMINATED', now);
    if (ids.length === 0)
      throw detailError(400, 'No calls to terminate: only registered or retry calls can be terminated');
    if (bulkListId) ctx.store.bulkLists.update(bulkListId, { terminated_at: now }, now);
    ctx.events.emit('calls-terminated', { callIds: ids });
    return { message: 'Calls terminated successfully!', terminated_count: ids.length };
  };
  const checkNumbers = (numbers: string[] | undefined) => {
    for (const n of numbers ?? []) {
      if (!e164Pattern.test(n)) throw detailError(400, `mobile_numbers: ${n} is not an E.164 number`);
    }
  };

  app.patch('/v0/campaign/terminate', detailRoute, async (req) => {
    const body = parseOr(terminateRequestSchema, req.body ?? {}, (m) => detailError(400, m));
    if (!body.agent_id && !body.call_ids && !body.campaign_id && !body.mobile_numbers) {
      throw detailError(400, 'Give at least one of agent_id, call_ids, campaign_id or mobile_numbers');
    }
    checkNumbers(body.mobile_numbers);
    return terminate(
      {
        ...(body.call_ids ? { callIds: body.call_ids } : {}),
        ...(body.agent_id ? { agentId: body.agent_id } : {}),
        ...(body.campaign_id ? { bulkListId: body.campaign_id } : {}),
        ...(body.mobile_numbers ? { mobileNumbers: body.mobile_numbers } : {}),
      },
      body.campaign_id,
    );
  });

  app.patch('/v0/campaign/terminate/calls', detailRoute, async (req) => {
    const body = parseOr(z.object({ call_ids: z.array(z.string()).min(1).max(100) }), req.body ?? {}, (m) =>
      detailError(400, m),
    );
    return terminate({ callIds: body.call_ids });
  });

  app.patch('/v0/campaign/terminate/numbers', detailRoute, async (req) => {
    const body = parseOr(
      z.object({ mobile_numbers: z.array(z.string()).min(1).max(100) }),
      req.body ?? {},
      (m) => detailError(400, m),
    );
    checkNumbers(body.mobile_numbers);
    return terminate({ mobileNumbers: body.mobile_numbers });
  });
}
