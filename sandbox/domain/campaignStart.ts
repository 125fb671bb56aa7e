// Starting a campaign (make-call-async, /campaign/start, /campaign/v2/start): every check, then one
// call per valid row (status `registered`, sub-status `IN_DB`) in one transaction. Refusals carry a
// reason code for the start log the control API reports.
import type { CallConfig } from '../../shared/service/callConfig.ts';
import { resolveCallConfig } from '../../shared/domain/callConfig.ts';
import { campaignTimeToInstant } from '../../shared/domain/dates.ts';
import { substitutePlaceholders } from '../../shared/domain/template.ts';
import type { SandboxContext } from '../context.ts';
import { HttpError, detail } from '../http/errors.ts';
import type { BulkListRow, NewCall } from '../store/types.ts';
import { promptTextOf } from './agents.ts';
import { currentStatus, isProcessed } from './bulkListLifecycle.ts';

/** Credits a call is expected to cost (the balance check's estimate per valid row). */
export const creditsPerCall = 1;

export type StartEndpoint = 'make-call-async' | 'campaign/start' | 'campaign/v2/start';

export class StartRefusal extends HttpError {
  readonly reason: string;
  constructor(status: number, reason: string, message: string) {
    super(status, detail(message));
    this.reason = reason;
  }
}

export interface StartInput {
  endpoint: StartEndpoint;
  list: BulkListRow;
  agentId: string;
  fromNumbers?: string[];
  numberPoolId?: string;
  callConfig?: CallConfig;
  campaignStartTime?: string;
  campaignEndTime?: string;
  concurrencyPercentage?: number;
  callbackUrl?: string;
  emailCompletionUserIds?: string[];
}

/** HTTP statuses of the refusals, per endpoint (documented in sandbox/README.md). */
const statuses: Record<StartEndpoint, { notReady: number; alreadyStarted: number }> = {
  'make-call-async': { notReady: 409, alreadyStarted: 409 },
  'campaign/start': { notReady: 400, alreadyStarted: 400 },
  'campaign/v2/start': { notReady: 400, alreadyStarted: 400 },
};

export function mergeCallConfig(base: CallConfig | null, override: CallConfig | undefined): CallConfig {
  if (!override) return base ?? {};
  return {
    ...base,
    ...override,
    call_retry_config: { ...base?.call_retry_config, ...override.call_retry_config },
    call_time: { ...base?.call_time, ...override.call_time },
  };
}

export function startCampaign(
  ctx: SandboxContext,
  input: StartInput,
): { callCount: number; hasOngoingCalls: boolean } {
  const { store } = ctx;
  const now = ctx.clock.nowMs();
  const list = input.list;
  const codes = statuses[input.endpoint];

  const wanted = input.endpoint === 'make-call-async' ? 'large' : 'standard';
  if (list.flow !== wanted) {
    throw new StartRefusal(
      400,
      'wrong_flow',
      wanted === 'large'
        ? `Bulk list ${list.id} was saved with campaign/save: start it with campaign/start or campaign/v2/start (make-call-async starts lists uploaded with upload-csv, 5,000 rows or more)`
        : `Bulk list ${list.id} was uploaded with upload-csv: start it with make-call-async (campaign/start starts lists saved with campaign/save)`,
    );
  }
  if (input.agentId !== list.agent_id) {
    throw new StartRefusal(
      400,
      'agent_mismatch',
      `agent_id ${input.agentId} is not the agent list ${list.id} was uploaded for`,
    );
  }
  if (!isProcessed(list, now)) {
    throw new StartRefusal(
      codes.notReady,
      'not_ready',
      `Bulk list ${list.id} is not ready to start: upload processing is still ${currentStatus(list, now)}. Poll the upload status until it is completed.`,
    );
  }
  if (list.started_at !== null) {
    throw new StartRefusal(
      codes.alreadyStarted,
      'already_started',
      `Bulk list ${list.id} was already started at ${new Date(list.started_at).toISOString()}; a list starts once`,
    );
  }
  if (list.outcome === 'failed') {
    throw new StartRefusal(
      codes.notReady,
      'upload_failed',
      `Bulk list ${list.id} cannot start: its upload failed (${list.outcome_message ?? 'invalid rows'})`,
    );
  }

  let callerNumbers: string[] = [];
  if (input.fromNumbers) {
    for (const n of input.fromNumbers) {
      const found = store.numbers.resolve(n);
      if (!found)
        throw new StartRefusal(
          400,
          'unknown_number',
          `from_numbers: ${n} is not a number id or number of this workspace`,
        );
      callerNumbers.push(found.number);
    }
  } else if (input.numberPoolId) {
    if (!store.numbers.poolExists(input.numberPoolId)) {
      throw new StartRefusal(
        400,
        'unknown_pool',
        `number_pool_id ${input.numberPoolId} is not a number pool of this workspace`,
      );
    }
    callerNumbers = store.numbers.inPool(input.numberPoolId).map((n) => n.number);
  }

  const callConfig = mergeCallConfig(
    list.call_config ? (JSON.parse(list.call_config) as CallConfig) : null,
    input.callConfig,
  );
  const tz = resolveCallConfig(callConfig).timezone;
  let windowStart = list.start_at;
  let windowEnd = list.end_at;
  if (input.campaignStartTime) {
    const r = campaignTimeToInstant(input.campaignStartTime, tz);
    if (!r.ok) throw new StartRefusal(400, 'bad_window', `campaign_start_time: ${r.message}`);
    windowStart = r.value;
  }
  if (input.campaignEndTime) {
    const r = campaignTimeToInstant(input.campaignEndTime, tz);
    if (!r.ok) throw new StartRefusal(400, 'bad_window', `campaign_end_time: ${r.message}`);
    windowEnd = r.value;
  }
  if (windowStart !== null && windowEnd !== null && windowEnd <= windowStart) {
    throw new StartRefusal(400, 'bad_window', 'campaign_end_time must be after campaign_start_time');
  }
  if (windowEnd !== null && windowEnd <= now) {
    throw new StartRefusal(400, 'bad_window', 'campaign_end_time is already past');
  }

  const required = list.valid_rows * creditsPerCall;
  const available = store.workspace.get().credits;
  if (available < required) {
    throw new StartRefusal(
      402,
      'insufficient_credits',
      `Insufficient credits: this campaign needs ${required}, the workspace has ${available}`,
    );
  }

  const agent = store.agents.get(list.agent_id);
  const version = agent ? store.agents.activeVersion(agent) : undefined;
  const prompt = version ? promptTextOf(version) : '';
  const rows = store.bulkLists.validRows(list.id);
  const ids: string[] = [];
  const firstAttempt = Math.max(now, windowStart ?? now);
  const calls = rows.map((r): NewCall => {
    const id = ctx.rng.uuid();
    ids.push(id);
    const values = JSON.parse(r.custom_args_values) as Record<string, string>;
    return {
      id,
      source: 'campaign',
      created_at: now,
      to_number: r.mobile_number ?? '',
      name: r.callee_name,
      callee_name: r.callee_name,
      status: 'registered',
      sub_status: 'IN_DB',
      agent_id: list.agent_id,
      agent_name: agent?.display_name ?? null,
      agent_version_id: version?.id ?? null,
      version_slug: version?.slug ?? null,
      orchestration_mode: agent?.orchestration_mode ?? 'single_node',
      from_numbers: JSON.stringify(callerNumbers),
      number_pool_id: input.numberPoolId ?? null,
      bulk_list_id: list.id,
      row_number: r.row_number,
      next_attempt_at: firstAttempt,
      custom_args_values: r.custom_args_values,
      prompt_text: substitutePlaceholders(prompt, values).text,
      callback_url: input.callbackUrl ?? null,
      call_config: JSON.stringify(callConfig),
      window_start_at: windowStart,
      window_end_at: windowEnd,
      concurrency_percentage: input.concurrencyPercentage ?? null,
    };
  });
  const hasOngoingCalls = store.calls.countOngoing() > 0;
  ctx.db.transaction(() => {
    store.calls.insertMany(calls, now);
    store.bulkLists.update(
      list.id,
      {
        status: 'scheduled',
        started_at: now,
        from_numbers: input.fromNumbers ? JSON.stringify(input.fromNumbers) : null,
        number_pool_id: input.numberPoolId ?? null,
        concurrency_percentage: input.concurrencyPercentage ?? null,
        callback_url: input.callbackUrl ?? null,
        email_completion_user_ids: input.emailCompletionUserIds
          ? JSON.stringify(input.emailCompletionUserIds)
          : null,
        call_config: JSON.stringify(callConfig),
        start_at: windowStart,
        end_at: windowEnd,
      },
      now,
    );
    store.starts.record({
      bulk_list_id: list.id,
      endpoint: input.endpoint,
      outcome: 'accepted',
      reason: null,
      status_code: 200,
      at: now,
    });
  })();
  ctx.events.emit('campaign-started', { bulkListId: list.id, agentId: list.agent_id, callCount: ids.length });
  ctx.events.emit('calls-created', { callIds: ids, bulkListId: list.id });
  return { callCount: ids.length, hasOngoingCalls };
}

/** Log a refused start (any refusal that names a list). */
export function recordRefusal(
  ctx: SandboxContext,
  bulkListId: string,
  endpoint: StartEndpoint,
  e: HttpError,
  reason: string,
): void {
  ctx.store.starts.record({
    bulk_list_id: bulkListId,
    endpoint,
    outcome: 'refused',
    reason,
    status_code: e.status,
    at: ctx.clock.nowMs(),
  });
}
