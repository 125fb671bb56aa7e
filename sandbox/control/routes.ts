// The control API (not part of v0; same X-API-KEY): virtual clock, fault injection, bulk seeding of
// historical calls, workspace credits, and statistics for tests.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseIsoWithOffset } from '../../shared/domain/dates.ts';
import { callStatusSchema } from '../../shared/service/enums.ts';
import type { SandboxContext } from '../context.ts';
import { saveClockOffset } from '../context.ts';
import { faultSpecSchema } from '../http/faults.ts';
import type { FaultRegistry } from '../http/faults.ts';
import { invalidParameter, parseOr } from '../http/errors.ts';
import { formatNetworkProfile, networkProfileSchema, parseNetworkProfile } from '../http/network.ts';
import type { NetworkShaper } from '../http/network.ts';
import { seedCalls } from '../seed/seedCalls.ts';

export const maxSeedCalls = 1_000_000;
const isoDate = z
  .string()
  .refine((s) => parseIsoWithOffset(s) !== null, 'must be an ISO 8601 date-time with an offset');

const clockBody = z
  .object({
    advance_seconds: z
      .number()
      .min(0)
      .max(366 * 24 * 3600)
      .optional(),
    speed: z.number().min(0).max(100_000).optional(),
  })
  .strict();

const historyOverrideBody = z
  .object({
    call_id: z.string().min(1),
    fields: z.record(z.string(), z.unknown()).refine((f) => Object.keys(f).length > 0, 'must name a field'),
  })
  .strict();

/** The profile as the command line writes it (`{"profile": "rtt=80ms,…"}`) or as fields. */
const networkBody = z.union([
  z.object({ profile: z.string().min(1), reset_counters: z.boolean().optional() }).strict(),
  networkProfileSchema.extend({ reset_counters: z.boolean().optional() }).strict(),
  z.object({ reset_counters: z.literal(true) }).strict(),
]);

const seedBody = z
  .object({
    count: z.number().int().min(1).max(maxSeedCalls),
    agent_id: z.string().min(1).optional(),
    bulk_list_id: z.string().min(1).optional(),
    status: callStatusSchema.optional(),
    start_date: isoDate.optional(),
    end_date: isoDate.optional(),
  })
  .strict();

export function registerControlRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  faults: FaultRegistry,
  network: NetworkShaper,
): void {
  const fail = (m: string) => invalidParameter(m);
  const clockState = () => ({ now: ctx.clock.now().toISOString(), speed: ctx.clock.speed() });

  app.get('/_sandbox/clock', async () => clockState());

  app.post('/_sandbox/clock', async (req) => {
    const body = parseOr(clockBody, req.body ?? {}, fail);
    if (body.speed !== undefined) ctx.clock.setSpeed(body.speed);
    if (body.advance_seconds !== undefined) ctx.clock.advance(body.advance_seconds);
    saveClockOffset(ctx);
    return clockState();
  });

  app.get('/_sandbox/faults', async () => ({ faults: faults.list() }));

  app.post('/_sandbox/faults', async (req) => {
    const body = req.body as unknown;
    const specs =
      typeof body === 'object' && body !== null && 'faults' in body
        ? parseOr(z.object({ faults: z.array(faultSpecSchema).min(1) }).strict(), body, fail).faults
        : [parseOr(faultSpecSchema, body ?? {}, fail)];
    const added = specs.map((s) => faults.add(s));
    return { faults: added.map(({ pattern: _p, ...f }) => f) };
  });

  app.delete('/_sandbox/faults', async (req) => {
    const id = (req.query as Record<string, string | undefined>).id;
    if (id !== undefined && !/^\d+$/.test(id)) throw fail('id must be a fault id');
    return { removed: faults.clear(id === undefined ? undefined : Number(id)) };
  });

  const networkState = () => {
    const p = network.profile();
    return { profile: p, profile_text: p ? formatNetworkProfile(p) : null, counters: network.stats() };
  };

  app.get('/_sandbox/network', async () => networkState());

  app.post('/_sandbox/network', async (req) => {
    const body = parseOr(networkBody, req.body ?? {}, fail);
    if ('profile' in body) {
      try {
        network.set(parseNetworkProfile(body.profile));
      } catch (e) {
        throw fail((e as Error).message);
      }
    } else if ('rtt_ms' in body) {
      const { reset_counters: _r, ...profile } = body;
      network.set(profile);
    }
    if (body.reset_counters) network.resetCounters();
    return networkState();
  });

  app.delete('/_sandbox/network', async () => {
    network.set(null);
    network.resetCounters();
    return networkState();
  });

  app.post('/_sandbox/seed-calls', async (req) => {
    const body = parseOr(seedBody, req.body ?? {}, fail);
    if (body.agent_id && !ctx.store.agents.get(body.agent_id))
      throw fail(`agent_id ${body.agent_id} is not an agent of this workspace`);
    const startMs = body.start_date ? (parseIsoWithOffset(body.start_date) ?? undefined) : undefined;
    const endMs = body.end_date ? (parseIsoWithOffset(body.end_date) ?? undefined) : undefined;
    if (startMs !== undefined && endMs !== undefined && endMs < startMs)
      throw fail('end_date must not be before start_date');
    const r = seedCalls(ctx, {
      count: body.count,
      ...(body.agent_id ? { agentId: body.agent_id } : {}),
      ...(body.bulk_list_id ? { bulkListId: body.bulk_list_id } : {}),
      ...(body.status ? { status: body.status } : {}),
      ...(startMs !== undefined ? { startMs } : {}),
      ...(endMs !== undefined ? { endMs } : {}),
    });
    return { created: r.created, took_ms: r.tookMs };
  });

  // A malformed record on demand: the call's fields replaced as given (any JSON) in the history
  // answer only; nothing is stored. DELETE (?call_id=) serves the call as stored again.
  app.post('/_sandbox/history-overrides', async (req) => {
    const body = parseOr(historyOverrideBody, req.body ?? {}, fail);
    if (!ctx.store.calls.get(body.call_id))
      throw fail(`call_id ${body.call_id} is not a call of this workspace`);
    ctx.historyOverrides.set(body.call_id, body.fields);
    return { overrides: ctx.historyOverrides.size };
  });

  app.delete('/_sandbox/history-overrides', async (req) => {
    const id = (req.query as Record<string, string | undefined>).call_id;
    if (id === undefined) ctx.historyOverrides.clear();
    else ctx.historyOverrides.delete(id);
    return { overrides: ctx.historyOverrides.size };
  });

  app.post('/_sandbox/workspace', async (req) => {
    const body = parseOr(z.object({ credits: z.number().min(0) }).strict(), req.body ?? {}, fail);
    ctx.store.workspace.setCredits(body.credits);
    return { credits: ctx.store.workspace.get().credits };
  });

  // What the service received: every list (upload-csv or save) with the numbers of its valid rows,
  // in file order (tests check that nothing held back by the client arrived).
  app.get('/_sandbox/received', async () => ({
    lists: ctx.store.bulkLists.list(10_000, 0).rows.map((l) => ({
      id: l.id,
      flow: l.flow,
      campaign_name: l.campaign_name,
      numbers: ctx.store.bulkLists.validRows(l.id).map((r) => r.mobile_number),
    })),
  }));

  app.get('/_sandbox/stats', async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const limit =
      q.deliveries_limit !== undefined && /^\d+$/.test(q.deliveries_limit)
        ? Number(q.deliveries_limit)
        : 1000;
    return {
      clock: clockState(),
      credits: ctx.store.workspace.get().credits,
      starts: ctx.store.starts.perList(),
      start_attempts: ctx.store.starts.all().map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
      calls_by_status: ctx.store.calls.statusCounts(),
      webhook_delivery_count: ctx.store.deliveries.count(),
      webhook_deliveries: ctx.store.deliveries.recent(limit).map((d) => ({
        ...d,
        request_headers: JSON.parse(d.request_headers) as Record<string, string>,
        payload: JSON.parse(d.payload) as unknown,
        scheduled_at: d.scheduled_at === null ? null : new Date(d.scheduled_at).toISOString(),
        attempted_at: d.attempted_at === null ? null : new Date(d.attempted_at).toISOString(),
        created_at: new Date(d.created_at).toISOString(),
      })),
      faults: faults.list(),
    };
  });
}
