import type { FastifyInstance } from 'fastify';
import {
  isWithinCallWindow,
  nextCallWindowOpening,
  resolveCallConfig,
} from '../../shared/domain/callConfig.ts';
import { isoWithoutOffset, parseIsoDateTime } from '../../shared/domain/dates.ts';
import { substitutePlaceholders } from '../../shared/domain/template.ts';
import { individualCallRequestSchema, numberSourceProblem } from '../../shared/service/individualCall.ts';
import type { IndividualCallRequest } from '../../shared/service/individualCall.ts';
import type { SandboxContext } from '../context.ts';
import { promptTextOf } from '../domain/agents.ts';
import { checkE164 } from '../domain/phone.ts';
import { formatCalleeName } from '../domain/smartFormatter.ts';
import { invalidParameter, parseOr } from '../http/errors.ts';

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/**
 * `POST /calling/v2/outbound/individual` (and the deprecated v1 path, whose rule is exactly one of
 * from_number_id / from_number). Every refusal is `{ error: { code: 'invalid_parameter', … } }`
 * with 400, except an unknown agent (404). An empty balance does not refuse: the call stays queued
 * (`registered`) until credits come back, as the docs say.
 */
export function registerIndividualCallRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v0/calling/v2/outbound/individual', async (req) => placeCall(ctx, req.body, 'v2'));
  app.post('/v0/calling/outbound/individual', async (req) => placeCall(ctx, req.body, 'v1'));
}

function placeCall(ctx: SandboxContext, raw: unknown, api: 'v1' | 'v2') {
  const { store } = ctx;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalidParameter('The body must be a JSON object');
  const body: IndividualCallRequest = parseOr(individualCallRequestSchema, raw, (m) => invalidParameter(m));

  const problem = numberSourceProblem(body);
  if (problem) throw invalidParameter(problem);
  if (
    api === 'v1' &&
    (body.number_pool_id !== undefined ||
      (body.from_number_id === undefined) === (body.from_number === undefined))
  ) {
    throw invalidParameter(
      'give exactly one of from_number_id or from_number (the v2 path also takes number_pool_id)',
    );
  }
  const phoneProblem = checkE164(body.mobile_number);
  if (phoneProblem) throw invalidParameter(`mobile_number ${phoneProblem}`);

  const agent = store.agents.get(body.agent_id);
  if (!agent) throw invalidParameter(`agent_id ${body.agent_id} is not an agent of this workspace`);
  const version = body.version_id ? store.agents.version(body.version_id) : store.agents.activeVersion(agent);
  if (!version || version.agent_id !== agent.id) {
    throw invalidParameter(`version_id ${body.version_id ?? ''} is not a version of agent ${agent.id}`);
  }

  // Caller numbers: workspace number ids, workspace numbers, or a pool's numbers.
  const callerNumbers: string[] = [];
  for (const id of list(body.from_number_id)) {
    const n = store.numbers.byId(id);
    if (!n) throw invalidParameter(`from_number_id ${id} is not a number id of this workspace`);
    callerNumbers.push(n.number);
  }
  for (const num of list(body.from_number)) {
    const n = store.numbers.byNumber(num);
    if (!n) throw invalidParameter(`from_number ${num} is not a number of this workspace`);
    callerNumbers.push(n.number);
  }
  if (body.number_pool_id !== undefined) {
    if (!store.numbers.poolExists(body.number_pool_id)) {
      throw invalidParameter(`number_pool_id ${body.number_pool_id} is not a number pool of this workspace`);
    }
    if (callerNumbers.length === 0)
      callerNumbers.push(...store.numbers.inPool(body.number_pool_id).map((n) => n.number));
  }

  // callee_name: the value given in custom_args_values, else `name`; smart_formatter normalises it
  // and keeps the original as original_callee_name.
  const given = Object.fromEntries(
    Object.entries(body.custom_args_values ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]),
  );
  const original = given.callee_name && given.callee_name !== '' ? given.callee_name : body.name;
  const calleeName = formatCalleeName(original, body.smart_formatter);
  const values: Record<string, string> = {
    ...given,
    callee_name: calleeName,
    mobile_number: body.mobile_number,
  };
  if (body.smart_formatter) values.original_callee_name = original;

  const now = ctx.clock.nowMs();
  const cfg = resolveCallConfig(body.call_config);
  const window = { callStartTime: cfg.callStartTime, callEndTime: cfg.callEndTime, timezone: cfg.timezone };
  const scheduledAt = cfg.scheduledAt ? parseIsoDateTime(cfg.scheduledAt) : null;
  const notBefore = scheduledAt === null ? now : Math.max(now, scheduledAt);
  // Without a call_time the call dials at once; with one it waits for the window. Without credits
  // it waits too (the dialer places it once the balance is positive again).
  const hasCredits = store.workspace.get().credits > 0;
  const dialNow =
    hasCredits &&
    notBefore === now &&
    (body.call_config?.call_time === undefined || isWithinCallWindow(now, window));
  const nextAttempt =
    body.call_config?.call_time === undefined ? notBefore : nextCallWindowOpening(notBefore, window);

  const id = ctx.rng.uuid();
  store.calls.insert({
    id,
    source: 'individual',
    created_at: now,
    to_number: body.mobile_number,
    name: calleeName,
    callee_name: calleeName,
    status: dialNow ? 'ongoing' : 'registered',
    sub_status: dialNow ? 'ACCEPTED' : 'QUEUED',
    agent_id: agent.id,
    agent_name: agent.display_name,
    agent_version_id: version.id,
    version_slug: version.slug,
    orchestration_mode: agent.orchestration_mode,
    call_attempt_time: dialNow ? now : null,
    attempt_count: dialNow ? 1 : 0,
    next_attempt_at: dialNow ? null : nextAttempt,
    from_numbers: JSON.stringify(callerNumbers),
    from_number_id: body.from_number_id === undefined ? null : JSON.stringify(body.from_number_id),
    number_pool_id: body.number_pool_id ?? null,
    custom_args_values: JSON.stringify(values),
    prompt_text: substitutePlaceholders(promptTextOf(version), values).text,
    callback_url: body.callback_url ?? null,
    callback_args: body.callback_args ? JSON.stringify(body.callback_args) : null,
    call_config: body.call_config ? JSON.stringify(body.call_config) : null,
    voice_id: body.voice_id ?? null,
    call_category: body.call_category ?? null,
    parent_call_id: body.parent_call_id ?? null,
  });
  ctx.events.emit('calls-created', { callIds: [id], bulkListId: null });
  return {
    status: 'success',
    data: {
      call_id: id,
      call_direction: 'outbound',
      call_status: dialNow ? 'ongoing' : 'registered',
      initiated_at: isoWithoutOffset(now),
      agent_id: agent.id,
      custom_args_values: values,
    },
    message: dialNow
      ? 'Call initiated successfully'
      : hasCredits
        ? 'Call queued: it will be placed when its calling window opens'
        : 'Call queued: the workspace has no credits left; it will be placed once credits are added',
  };
}
