// Helpers for the dialer's and webhooks' integration tests (real sandbox over HTTP on port 0).
import { formatCampaignTime, instantToZoned, zonedToInstant } from '../../shared/domain/dates.ts';
import { historyResponseSchema } from '../../shared/service/history.ts';
import { allTime, placeCall } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';
import { loanCsv, uploadForm } from '../testing/fixtures.ts';

export interface Seeded {
  agentId: string;
  poolId: string;
  numberId: string;
}

export async function seeded(t: TestSandbox): Promise<Seeded> {
  const agents = await t.api<{ data: { agents: Array<{ id: string; agent_display_name: string }> } }>(
    '/agent/all',
  );
  const agentId = agents.body.data.agents.find((a) => a.agent_display_name === 'Loan Repayment Reminder')?.id;
  const nums = await t.api<{ workspace_numbers: Array<{ id: string; number_pool_id: string }> }>(
    '/workspace/numbers',
  );
  const first = nums.body.workspace_numbers[0];
  if (!agentId || !first) throw new Error('the sandbox has no seeded agent or number');
  return { agentId, poolId: first.number_pool_id, numberId: first.id };
}

/** An individual call to Asha Rao with the loan agent's values; `extra` overrides the body. */
export function loanCall(
  t: TestSandbox,
  s: Seeded,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; status: string }> {
  return placeCall(t, {
    name: 'Asha Rao',
    mobile_number: '+919812345678',
    agent_id: s.agentId,
    number_pool_id: s.poolId,
    custom_args_values: { loan_amount: '25,000', due_date: '15/12/2026', language: 'Hindi', city: 'Pune' },
    ...extra,
  });
}

/** An instant `days` after the sandbox's today, at HH:MM in `tz`. */
export function dayAt(t: TestSandbox, days: number, hour: number, minute = 0, tz = 'Asia/Kolkata'): number {
  const z = instantToZoned(t.sb.context.clock.nowMs(), tz);
  const d = new Date(Date.UTC(z.year, z.month - 1, z.day + days));
  return zonedToInstant(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour, minute },
    tz,
  );
}

export function campaignTime(ms: number, tz = 'Asia/Kolkata'): string {
  return formatCampaignTime(instantToZoned(ms, tz));
}

/** Advance the virtual clock to `ms` (no-op when already there). */
export async function advanceTo(t: TestSandbox, ms: number): Promise<void> {
  const now = t.sb.context.clock.nowMs();
  if (ms > now) await t.advance((ms - now) / 1000);
}

/** A history record as the sandbox serves it (the shared schema is looser: it reads any service). */
export interface SandboxCall {
  id: string;
  to_number: string;
  name: string;
  status: string;
  sub_status: string | null;
  transcript: string | null;
  audio_recording: string | null;
  created_at: string;
  call_duration: number;
  call_attempt_time: string | null;
  call_cost: number;
  credits_processed: boolean;
  from_numbers: string[];
  voicemail_detected: boolean;
}

/** Every call matching a history query (pages of 1,000), each checked against the wire schema. */
export async function historyOf(t: TestSandbox, bulkListId: string): Promise<SandboxCall[]> {
  const all: SandboxCall[] = [];
  for (let offset = 0; ; offset += 1000) {
    const r = await t.api(
      `/calling/history?${allTime}&bulk_list_id=${bulkListId}&limit=1000&offset=${offset}`,
    );
    if (r.status !== 200) throw new Error(`history: ${r.text}`);
    const page = historyResponseSchema.parse(r.body);
    all.push(...(page.calls as SandboxCall[]));
    if (all.length >= Number(page.total) || page.calls.length === 0) return all;
  }
}

/** A standard-flow list (`/campaign/save`), started with `/campaign/v2/start`. Returns its id. */
export async function startSmallCampaign(
  t: TestSandbox,
  s: Seeded,
  o: {
    rows: number;
    startAt: number;
    endAt: number;
    callConfig: Record<string, unknown>;
    callbackUrl?: string;
  },
): Promise<string> {
  const save = await t.api<{ list_id: string }>('/campaign/save', {
    method: 'POST',
    body: uploadForm(loanCsv(o.rows), {
      agent_id: s.agentId,
      campaign_name: `Small ${o.rows}`,
      call_config: JSON.stringify(o.callConfig),
      campaign_start_time: campaignTime(o.startAt),
      campaign_end_time: campaignTime(o.endAt),
    }),
  });
  if (save.status !== 200) throw new Error(`save: ${save.text}`);
  const start = await t.api('/campaign/v2/start', {
    method: 'POST',
    json: {
      agent_id: s.agentId,
      list_id: save.body.list_id,
      number_pool_id: s.poolId,
      ...(o.callbackUrl ? { callback_url: o.callbackUrl } : {}),
    },
  });
  if (start.status !== 200) throw new Error(`start: ${start.text}`);
  return save.body.list_id;
}

export async function setDialer(
  t: TestSandbox,
  body: { shares?: Record<string, number> | null; workspace_slots?: number },
): Promise<void> {
  const r = await t.control('/dialer', { method: 'POST', json: body });
  if (r.status !== 200) throw new Error(`dialer control: ${r.text}`);
}
