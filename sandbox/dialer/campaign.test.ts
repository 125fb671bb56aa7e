// The large-campaign lifecycle over real HTTP: upload-csv → upload status → balance → make-call-async
// → advance the virtual clock → every call terminal, dialled only inside its windows, retries per
// call_config, concurrency per concurrency_percentage, credits charged as billed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToZoned } from '../../shared/domain/dates.ts';
import { terminalCallStatuses } from '../../shared/service/enums.ts';
import { uploadStatusResponseSchema } from '../../shared/service/upload.ts';
import { startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';
import { loanCsv, uploadForm } from '../testing/fixtures.ts';
import { callCost } from './outcomes.ts';
import { advanceTo, campaignTime, dayAt, historyOf, seeded } from './testSupport.ts';
import type { Seeded } from './testSupport.ts';

let t: TestSandbox;
let s: Seeded;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 11 });
  s = await seeded(t);
});
afterAll(() => t.close());

const tz = 'Asia/Kolkata';
const minutesOfDay = (ms: number) => {
  const z = instantToZoned(ms, tz);
  return z.hour * 60 + z.minute;
};

interface Attempt {
  dialledAt: number;
  endedAt?: number;
  outcome?: string;
  status?: string;
}

describe('a 6,000-row campaign on the virtual clock', () => {
  it('runs to terminal states inside its windows, with retries, concurrency and billing per call_config', async () => {
    const rows = 6000;
    const retry = { retry_count: 2, retry_busy: 20, retry_not_picked: 45, retry_failed: 10 };
    const callConfig = {
      max_call_length: 240,
      call_retry_config: retry,
      call_time: { call_start_time: '09:00', call_end_time: '11:00', timezone: tz, scheduled_at: null },
    };
    // The window opens tomorrow at 10:00 (mid daily window) and closes in 4 days at 23:00.
    const windowStart = dayAt(t, 1, 10);
    const windowEnd = dayAt(t, 4, 23);

    // Watch the dialer from inside (every dial and every attempt's outcome), as a test probe.
    const attempts = new Map<string, Attempt[]>();
    let ongoingNow = 0;
    let maxOngoing = 0;
    const stopWatching = [
      t.sb.context.events.on('call-updated', (e) => {
        if (e.status === 'ongoing') {
          const list = attempts.get(e.callId) ?? [];
          list.push({ dialledAt: t.sb.context.clock.nowMs() });
          attempts.set(e.callId, list);
          ongoingNow++;
          maxOngoing = Math.max(maxOngoing, ongoingNow);
        } else if (attempts.get(e.callId)?.at(-1)?.endedAt === undefined && attempts.has(e.callId)) {
          const last = attempts.get(e.callId)?.at(-1);
          if (last) {
            last.endedAt = t.sb.context.clock.nowMs();
            last.status = e.status;
          }
          ongoingNow--;
        }
      }),
      t.sb.context.events.on('call-event', (e) => {
        if (e.eventType !== 'call_completed') return;
        const last = attempts.get(e.callId)?.at(-1);
        if (last) last.outcome = String(e.attemptSubStatus);
      }),
    ];

    const up = await t.api<{ bulk_list_id: string; status: string }>('/campaign/upload-csv', {
      method: 'POST',
      body: uploadForm(loanCsv(rows), {
        agent_id: s.agentId,
        call_config: JSON.stringify(callConfig),
        campaign_start_time: campaignTime(windowStart),
        campaign_end_time: campaignTime(windowEnd),
      }),
    });
    expect(up.status, up.text).toBe(200);
    const id = up.body.bulk_list_id;
    let status = '';
    for (let i = 0; i < 20 && status !== 'completed'; i++) {
      await t.advance(1);
      status = uploadStatusResponseSchema.parse((await t.api(`/campaign/upload-status/${id}`)).body).status;
    }
    expect(status).toBe('completed');
    const balance = await t.api<{ sufficient_balance: boolean }>(`/campaign/check-balance/${id}`, {
      method: 'POST',
    });
    expect(balance.body.sufficient_balance).toBe(true);
    const creditsBefore = (await t.api<{ workspace_info: { credits: number } }>('/workspace')).body
      .workspace_info.credits;

    const start = await t.api('/campaign/make-call-async', {
      method: 'POST',
      json: { bulk_list_id: id, agent_id: s.agentId, number_pool_id: s.poolId, concurrency_percentage: 40 },
    });
    expect(start.status, start.text).toBe(200);

    // Before the window opens nothing is dialled.
    await advanceTo(t, windowStart - 60_000);
    expect(attempts.size).toBe(0);

    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let at = windowStart; at <= windowEnd + 3600_000; at += 6 * 3600_000) await advanceTo(t, at);
    const realMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    for (const stop of stopWatching) stop();
    console.log(
      `6,000-row campaign: 4 virtual days in ${Math.round(realMs)} ms of real time, ${Math.round(cpuMs)} ms of CPU`,
    );
    // The sandbox runs in this process: its CPU time is the simulation's cost, which other
    // processes on a loaded CI machine cannot inflate the way they inflate wall-clock time.
    expect(cpuMs).toBeLessThan(20_000); // typically 1–3 s

    const calls = await historyOf(t, id);
    expect(calls).toHaveLength(rows);

    // Every call is terminal; the daily and campaign windows were respected at every dial.
    const terminal = new Set<string>(terminalCallStatuses);
    expect(calls.filter((c) => !terminal.has(c.status))).toEqual([]);
    const dials = [...attempts.values()].flat();
    expect(dials.length).toBeGreaterThan(rows);
    for (const a of dials) {
      expect(a.dialledAt).toBeGreaterThanOrEqual(windowStart);
      expect(a.dialledAt).toBeLessThan(windowEnd);
      const m = minutesOfDay(a.dialledAt);
      expect(m >= 9 * 60 && m < 11 * 60, `dialled at ${new Date(a.dialledAt).toISOString()}`).toBe(true);
    }
    // The 2-hour daily window cannot hold the campaign: it ran over more than one day.
    const days = new Set(dials.map((a) => instantToZoned(a.dialledAt, tz).day));
    expect(days.size).toBeGreaterThan(1);

    // concurrency_percentage 40 of 100 workspace slots: never more than 40 at once, and it got there.
    expect(maxOngoing).toBe(40);

    // Retries: at most 1 + retry_count attempts; each retry waits at least its delay (minutes).
    const delayOf: Record<string, number> = {
      USER_DID_NOT_JOIN: retry.retry_not_picked,
      NOT_ABLE_TO_CALL: retry.retry_busy,
      FAILED: retry.retry_failed,
    };
    let exactGaps = 0;
    let gaps = 0;
    for (const list of attempts.values()) {
      expect(list.length).toBeLessThanOrEqual(1 + retry.retry_count);
      for (let i = 1; i < list.length; i++) {
        const prev = list[i - 1] as Attempt;
        const delay = delayOf[prev.outcome ?? ''];
        expect(delay, `retried after ${prev.outcome}`).toBeDefined();
        expect(prev.status).toBe('retry');
        const gap = (list[i] as Attempt).dialledAt - (prev.endedAt ?? 0);
        expect(gap).toBeGreaterThanOrEqual((delay ?? 0) * 60_000);
        gaps++;
        if (gap === (delay ?? 0) * 60_000) exactGaps++;
      }
    }
    expect(gaps).toBeGreaterThan(500);
    // Retries due while the window is open and a slot is free go out exactly on time.
    expect(exactGaps).toBeGreaterThan(50);

    // Outcomes: the seed's sub-statuses, in plausible shares.
    const by = (status: string, sub: string) =>
      calls.filter((c) => c.status === status && c.sub_status === sub);
    for (const sub of [
      'ACCEPTED',
      'USER_LEFT',
      'USER_BECAME_IDLE',
      'MAX_CALL_DURATION',
      'VOICEMAIL_DETECTED',
    ])
      expect(by('completed', sub).length, sub).toBeGreaterThan(20);
    const dnd = by('cancelled', 'DND_SKIPPED');
    expect(dnd.length / rows).toBeGreaterThan(0.02);
    expect(dnd.length / rows).toBeLessThan(0.045);
    const exhausted = by('failed', 'RETRY_LIMIT_REACHED');
    expect(exhausted.length).toBeGreaterThan(50);
    const completed = calls.filter((c) => c.status === 'completed');
    expect(completed.length / rows).toBeGreaterThan(0.85);
    expect(calls.filter((c) => c.sub_status === 'CAMPAIGN_TIME_EXCEEDED')).toEqual([]);

    // Exhausted calls were tried 1 + retry_count times, never connecting; DND calls never dialled.
    for (const c of exhausted) {
      const list = attempts.get(c.id) ?? [];
      expect(list).toHaveLength(3);
      expect(list.every((a) => a.outcome && a.outcome in delayOf)).toBe(true);
      expect(c.call_duration).toBe(0);
      expect(c.transcript).toBeNull();
      expect(c.audio_recording).toBeNull();
    }
    for (const c of dnd) expect(attempts.has(c.id)).toBe(false);

    // Completed calls: transcript about the row, duration within max_call_length, cost as billed.
    let spent = 0;
    for (const c of completed) {
      expect(c.call_duration).toBeGreaterThan(0);
      expect(c.call_duration).toBeLessThanOrEqual(240);
      if (c.sub_status === 'MAX_CALL_DURATION') expect(c.call_duration).toBe(240);
      expect(c.voicemail_detected).toBe(c.sub_status === 'VOICEMAIL_DETECTED');
      expect(c.call_cost).toBe(callCost({ connected: true, talkSeconds: c.call_duration }));
      expect(c.credits_processed).toBe(true);
      spent += c.call_cost;
      const turns = JSON.parse(c.transcript ?? 'null') as Array<Record<string, string>>;
      expect(turns[0]).toEqual({ bot: expect.stringContaining(c.name) });
      expect(c.from_numbers).toHaveLength(1);
    }
    const creditsAfter = (await t.api<{ workspace_info: { credits: number } }>('/workspace')).body
      .workspace_info.credits;
    expect(creditsBefore - creditsAfter).toBeCloseTo(spent, 2);

    // Recordings were made for every completed call (and have long expired: 410, not 404).
    expect(completed.every((c) => c.audio_recording !== null)).toBe(true);
    expect(new Set(completed.map((c) => c.audio_recording)).size).toBe(completed.length);
    const rec = await fetch(completed[0]?.audio_recording ?? '');
    expect(rec.status).toBe(410);
    expect(await rec.json()).toMatchObject({ error: { code: 'recording_expired' } });

    // The campaign listing agrees.
    const all = await t.api<{
      campaigns: Array<{ id: string; campaign_status: string; total_count: number }>;
    }>('/campaign/all?limit=100');
    expect(all.body.campaigns.find((c) => c.id === id)).toMatchObject({
      campaign_status: 'completed',
      total_count: rows,
    });
  });
});
