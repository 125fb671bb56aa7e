import type { FastifyInstance } from 'fastify';
import { parseIsoWithOffset } from '../../shared/domain/dates.ts';
import { callStatuses } from '../../shared/service/enums.ts';
import { historyDefaultEndDate, historyDefaultStartDate } from '../../shared/service/history.ts';
import { transcriptTurns } from '../../shared/service/callDetails.ts';
import type { SandboxContext } from '../context.ts';
import { toWireCallRecord } from '../domain/callRecord.ts';
import { invalidParameter, notFound } from '../http/errors.ts';
import type { HistoryFilter } from '../store/index.ts';
import { formatTotal, shapeTurns } from '../variants.ts';
import type { StoredTurn } from '../variants.ts';

export const historyMaxLimit = 1000;
const historyDefaultLimit = 10;

type Query = Record<string, string | string[] | undefined>;

function single(q: Query, name: string): string | undefined {
  const v = q[name];
  if (Array.isArray(v)) throw invalidParameter(`${name} is given more than once`);
  return v;
}

function nonNegativeInt(q: Query, name: string, fallback: number): number {
  const v = single(q, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw invalidParameter(`${name} must be a non-negative integer, got "${v}"`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw invalidParameter(`${name} is too large, got ${v}`);
  return n;
}

function date(q: Query, name: string): number | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  const ms = parseIsoWithOffset(v);
  if (ms === null) {
    throw invalidParameter(
      `${name} must be an ISO 8601 date-time with a timezone offset, such as 2026-09-25T00:00:00+05:30; got "${v}"`,
    );
  }
  return ms;
}

const defaultStartMs = parseIsoWithOffset(historyDefaultStartDate) as number;
const defaultEndMs = parseIsoWithOffset(historyDefaultEndDate) as number;

/**
 * The query of `GET /calling/history`, with the seed's 400s. A date left out takes the service's
 * declared fixed default (one stale day), each on its own, as the service does.
 */
export function parseHistoryQuery(q: Query): HistoryFilter {
  const limit = nonNegativeInt(q, 'limit', historyDefaultLimit);
  if (limit > historyMaxLimit)
    throw invalidParameter(`limit must be at most ${historyMaxLimit}, got ${limit}`);
  const offset = nonNegativeInt(q, 'offset', 0);
  const givenStart = date(q, 'start_date');
  const givenEnd = date(q, 'end_date');
  const startMs = givenStart ?? defaultStartMs;
  const endMs = givenEnd ?? defaultEndMs;
  if (endMs < startMs) {
    const defaulted =
      givenEnd === undefined
        ? ` (end_date was not given, so it is the default ${historyDefaultEndDate})`
        : givenStart === undefined
          ? ` (start_date was not given, so it is the default ${historyDefaultStartDate})`
          : '';
    throw invalidParameter(`end_date must not be before start_date${defaulted}`);
  }
  const status = single(q, 'status');
  if (status !== undefined && !(callStatuses as readonly string[]).includes(status)) {
    throw invalidParameter(`status must be one of ${callStatuses.join(', ')}; got "${status}"`);
  }
  const agentId = single(q, 'agent_id');
  const bulkListId = single(q, 'bulk_list_id');
  return {
    limit,
    offset,
    startMs,
    endMs,
    ...(status ? { status } : {}),
    ...(agentId ? { agentId } : {}),
    ...(bulkListId ? { bulkListId } : {}),
  };
}

/** `GET /calling/history` and `GET /calling/call-details`. */
export function registerHistoryRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/v0/calling/history', async (req) => {
    const filter = parseHistoryQuery(req.query as Query);
    const { rows, total } = ctx.store.calls.history(filter);
    const base = ctx.baseUrl();
    return {
      calls: rows.map((r) => {
        const record = toWireCallRecord(r, base, ctx.variants);
        const override = ctx.historyOverrides.get(r.id);
        return override ? { ...record, ...override } : record;
      }),
      limit: filter.limit,
      offset: filter.offset,
      count: rows.length,
      total: formatTotal(total, ctx.variants),
    };
  });

  app.get('/v0/calling/call-details', async (req) => {
    const q = req.query as Query;
    const id = single(q, 'id');
    if (!id) throw invalidParameter('id is required (the call id)');
    const sendAnalysis = (single(q, 'send_analysis') ?? 'false').toLowerCase() === 'true';
    const c = ctx.store.calls.get(id);
    if (!c) throw notFound(`Call ${id} not found`);
    const fromNumbers = JSON.parse(c.from_numbers) as string[];
    const analysis = c.analysis
      ? (JSON.parse(c.analysis) as {
          platform_analysis?: Record<string, unknown>;
          client_analysis?: Record<string, unknown>;
        })
      : {};
    const record = toWireCallRecord(c, ctx.baseUrl());
    return {
      status: 'success',
      data: {
        id: c.id,
        call_direction: c.call_direction,
        call_status: c.status,
        call_sub_status: c.sub_status,
        from_number: fromNumbers[0] ?? null,
        to_number: c.to_number,
        callee_name: c.callee_name,
        agent_id: c.agent_id,
        initiation_time: new Date(c.call_attempt_time ?? c.created_at).toISOString(),
        recording_url: record.audio_recording,
        transcription_url: shapeTurns(transcriptTurns(c.transcript) as StoredTurn[], ctx.variants),
        custom_args_values: JSON.parse(c.custom_args_values) as Record<string, unknown>,
        bulk_list_id: c.bulk_list_id,
        call_duration: c.call_duration ?? 0,
        call_cost: c.call_cost ?? 0,
        retry_count: Math.max(0, c.attempt_count - 1),
        ...(sendAnalysis
          ? {
              platform_analysis: analysis.platform_analysis ?? null,
              client_analysis: analysis.client_analysis ?? null,
            }
          : {}),
      },
    };
  });
}
