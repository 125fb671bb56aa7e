// Call lifecycles over real HTTP on the virtual clock: retries to the second, daily windows, DND,
// completed calls (transcript, cost, recording and its 24 h expiry), the campaign window end,
// credits, terminate, determinism and restarts. Outcomes are forced through POST /_sandbox/dialer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instantToZoned } from '../../shared/domain/dates.ts';
import { callDetailsResponseSchema } from '../../shared/service/callDetails.ts';
import { terminalCallStatuses } from '../../shared/service/enums.ts';
import { startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';
import { channels, parseWav, sampleRate } from './audio.ts';
import { callCost } from './outcomes.ts';
import {
  advanceTo,
  dayAt,
  historyOf,
  loanCall,
  seeded,
  setDialer,
  startSmallCampaign,
} from './testSupport.ts';
import type { Seeded } from './testSupport.ts';

let t: TestSandbox;
let s: Seeded;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 3 });
  s = await seeded(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  await setDialer(t, { shares: null, workspace_slots: 100 });
});

const terminal = new Set<string>(terminalCallStatuses);
const row = (id: string) => {
  const r = t.sb.context.store.calls.get(id);
  if (!r) throw new Error(`no call ${id}`);
  return r;
};
const details = async (id: string) =>
  callDetailsResponseSchema.parse((await t.api(`/calling/call-details?id=${id}&send_analysis=true`)).body)
    .data;
const credits = async () =>
  (await t.api<{ workspace_info: { credits: number } }>('/workspace')).body.workspace_info.credits;

const call = (extra: Record<string, unknown> = {}) => loanCall(t, s, extra);

describe('retries follow call_config', () => {
  it('retries an unanswered call after retry_not_picked minutes, retry_count times, then fails', async () => {
    await setDialer(t, { shares: { no_answer: 1 } });
    const c = await call({ call_config: { call_retry_config: { retry_count: 2, retry_not_picked: 7 } } });
    expect(c.status).toBe('ongoing');
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(row(c.id)).toMatchObject({ status: 'ongoing', attempt_count: attempt });
      await t.advance(46); // no answer rings 30–45 s
      const r = row(c.id);
      if (attempt < 3) {
        expect(await details(c.id)).toMatchObject({
          call_status: 'retry',
          call_sub_status: 'RETRY_SCHEDULED',
          retry_count: attempt - 1,
        });
        const next = r.next_attempt_at ?? 0;
        expect(next - r.updated_at).toBe(7 * 60_000);
        await advanceTo(t, next - 1000);
        expect(row(c.id).status).toBe('retry');
        await t.advance(1);
        expect(row(c.id).call_attempt_time).toBe(next);
      } else {
        expect(await details(c.id)).toMatchObject({
          call_status: 'failed',
          call_sub_status: 'RETRY_LIMIT_REACHED',
          retry_count: 2,
          call_duration: 0,
        });
        expect(r.next_attempt_at).toBeNull();
      }
    }
    await t.advance(3600);
    expect(row(c.id)).toMatchObject({ status: 'failed', attempt_count: 3 });
  });

  it('uses retry_busy for a busy line, and fails at once with retry_count 0', async () => {
    await setDialer(t, { shares: { busy: 1 } });
    const busy = await call({ call_config: { call_retry_config: { retry_count: 1, retry_busy: 3 } } });
    await t.advance(7); // busy rings 2–6 s
    const r = row(busy.id);
    expect(r.status).toBe('retry');
    expect((r.next_attempt_at ?? 0) - r.updated_at).toBe(3 * 60_000);
    await t.advance(3 * 60 + 7);
    expect(await details(busy.id)).toMatchObject({
      call_status: 'failed',
      call_sub_status: 'RETRY_LIMIT_REACHED',
    });
    expect(row(busy.id).attempt_count).toBe(2);

    await setDialer(t, { shares: { no_answer: 1 } });
    const once = await call({ call_config: { call_retry_config: { retry_count: 0 } } });
    await t.advance(46);
    expect(await details(once.id)).toMatchObject({
      call_status: 'failed',
      call_sub_status: 'USER_DID_NOT_JOIN',
    });
    expect(row(once.id).attempt_count).toBe(1);
  });
});

describe('the daily call window', () => {
  it('keeps a call queued until its window opens, then dials at the opening (or skips a DND number)', async () => {
    const tz = 'Asia/Kolkata';
    const now = t.sb.context.clock.nowMs();
    const hhmm = (ms: number) => {
      const z = instantToZoned(ms, tz);
      return `${String(z.hour).padStart(2, '0')}:${String(z.minute).padStart(2, '0')}`;
    };
    const open = Math.ceil((now + 2 * 3600_000) / 60_000) * 60_000;
    const callTime = { call_start_time: hhmm(open), call_end_time: hhmm(open + 3600_000), timezone: tz };
    await setDialer(t, { shares: { answered: 1 } });
    const c = await call({ call_config: { call_time: callTime } });
    expect(c.status).toBe('registered');
    expect(row(c.id)).toMatchObject({ sub_status: 'QUEUED', next_attempt_at: open });
    await advanceTo(t, open - 1000);
    expect(row(c.id).status).toBe('registered');
    await t.advance(1);
    expect(row(c.id)).toMatchObject({ status: 'ongoing', call_attempt_time: open, attempt_count: 1 });

    // Past the window: the next one is tomorrow's; that dial finds the number on a DND list.
    await advanceTo(t, open + 3600_000 + 60_000);
    await setDialer(t, { shares: { dnd: 1 } });
    const late = await call({ call_config: { call_time: callTime } });
    expect(late.status).toBe('registered');
    await advanceTo(t, open + 24 * 3600_000 - 1000);
    expect(row(late.id).status).toBe('registered');
    await t.advance(1);
    expect(row(late.id)).toMatchObject({
      status: 'cancelled',
      sub_status: 'DND_SKIPPED',
      attempt_count: 0,
      call_attempt_time: null,
    });
  });
});

describe('a completed call', () => {
  it('gets a transcript, duration, cost (charged), analysis and a WAV recording that expires 24 h after the call', async () => {
    await setDialer(t, { shares: { answered: 1 } });
    const before = await credits();
    const c = await call();
    await t.advance(210); // ≤ 15 s ringing + ≤ 180 s talk + 12 s of post-call processing
    const d = await details(c.id);
    expect(d).toMatchObject({ call_status: 'completed', call_sub_status: 'ACCEPTED', retry_count: 0 });
    const r = row(c.id);
    const turns = JSON.parse(r.transcript ?? '[]') as Array<Record<string, string>>;
    expect(turns[0]).toEqual({ bot: 'Hello Asha Rao, this is Priya calling from Sahayak Finance.' });
    expect(turns.some((turn) => (turn.bot ?? '').includes('25,000'))).toBe(true);
    expect(d.transcription_url).toEqual(turns);
    expect(d.call_duration).toBeGreaterThan(0);
    expect(d.call_cost).toBe(callCost({ connected: true, talkSeconds: d.call_duration ?? 0 }));
    expect(await credits()).toBeCloseTo(before - (d.call_cost ?? 0), 4);
    expect(d.platform_analysis).toMatchObject({
      summary: expect.stringContaining('Asha'),
      sentiment: expect.any(String),
    });
    expect(d.client_analysis).toMatchObject({ preferred_language: 'Hindi' });

    const url = d.recording_url ?? '';
    expect(url).toMatch(new RegExp(`^${t.sb.baseUrl}/recordings/[0-9a-f]{32}\\.wav$`));
    const res = await fetch(url); // public, like a storage URL
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const wav = parseWav(new Uint8Array(await res.arrayBuffer()));
    expect(wav).toMatchObject({ format: 1, channels: 2, sampleRate, bitsPerSample: 8 });
    // As long as the call, to the sample.
    expect(wav.data.length).toBe(Math.round((d.call_duration ?? 0) * sampleRate) * channels);

    const endedAt = t.sb.context.store.recordings.forCall(c.id)[0]?.created_at ?? 0;
    // The call ended after ringing (≤ 15 s) and talking, on a whole virtual second.
    const held = endedAt - (r.call_attempt_time ?? 0);
    expect(endedAt % 1000).toBe(0);
    expect(held).toBeGreaterThanOrEqual((d.call_duration ?? 0) * 1000);
    expect(held).toBeLessThanOrEqual((d.call_duration ?? 0) * 1000 + 16_000);
    await advanceTo(t, endedAt + 24 * 3600_000 - 1000);
    expect((await fetch(url)).status).toBe(200);
    await t.advance(1);
    const gone = await fetch(url);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ error: { code: 'recording_expired', message: expect.any(String) } });
  });
});

describe('campaign calls', () => {
  const cfg = {
    call_retry_config: { retry_count: 2, retry_not_picked: 30, retry_busy: 30, retry_failed: 30 },
    call_time: { call_start_time: '09:00', call_end_time: '18:00', timezone: 'Asia/Kolkata' },
  };

  it('cancels what is still waiting at the campaign window end as CAMPAIGN_TIME_EXCEEDED', async () => {
    const start = dayAt(t, 2, 9);
    const end = start + 2 * 60_000;
    const id = await startSmallCampaign(t, s, { rows: 500, startAt: start, endAt: end, callConfig: cfg });
    await advanceTo(t, end + 10 * 60_000);
    const calls = await historyOf(t, id);
    expect(calls).toHaveLength(500);
    expect(calls.filter((c) => !terminal.has(c.status))).toEqual([]);
    for (const c of calls) if (c.call_attempt_time) expect(Date.parse(c.call_attempt_time)).toBeLessThan(end);
    const exceeded = calls.filter((c) => c.sub_status === 'CAMPAIGN_TIME_EXCEEDED');
    expect(exceeded.every((c) => c.status === 'cancelled')).toBe(true);
    // Never dialled (no slot before the end), and dialled but waiting for a retry at the end.
    expect(exceeded.filter((c) => c.call_attempt_time === null).length).toBeGreaterThan(50);
    expect(exceeded.filter((c) => c.call_attempt_time !== null).length).toBeGreaterThan(10);
    expect(calls.filter((c) => c.status === 'completed').length).toBeGreaterThan(100);
  });

  it('waits while the workspace has no credits and resumes when it has', async () => {
    const start = dayAt(t, 4, 9);
    const id = await startSmallCampaign(t, s, {
      rows: 20,
      startAt: start,
      endAt: start + 86400_000,
      callConfig: cfg,
    });
    const saved = await credits();
    await t.control('/workspace', { method: 'POST', json: { credits: 0 } });
    await advanceTo(t, start + 5 * 60_000);
    expect((await historyOf(t, id)).every((c) => c.status === 'registered')).toBe(true);
    await t.control('/workspace', { method: 'POST', json: { credits: saved } });
    await t.advance(61);
    expect((await historyOf(t, id)).some((c) => c.status !== 'registered')).toBe(true);
    await advanceTo(t, start + 3 * 3600_000);
    expect((await historyOf(t, id)).every((c) => terminal.has(c.status))).toBe(true);
  });

  it('never dials a terminated call', async () => {
    await setDialer(t, { workspace_slots: 2 });
    const start = dayAt(t, 6, 9);
    const id = await startSmallCampaign(t, s, {
      rows: 40,
      startAt: start,
      endAt: start + 86400_000,
      callConfig: cfg,
    });
    await advanceTo(t, start + 3 * 60_000);
    const term = await t.api<{ terminated_count: number }>('/campaign/terminate', {
      method: 'PATCH',
      json: { campaign_id: id },
    });
    expect(term.status).toBe(200);
    const before = await historyOf(t, id);
    const cancelled = before.filter((c) => c.sub_status === 'USER_TERMINATED').map((c) => c.id);
    expect(cancelled.length).toBe(term.body.terminated_count);
    expect(cancelled.length).toBeGreaterThan(20);
    await advanceTo(t, start + 86400_000);
    const after = await historyOf(t, id);
    for (const c of after.filter((x) => cancelled.includes(x.id)))
      expect(c).toMatchObject({ status: 'cancelled', sub_status: 'USER_TERMINATED' });
    expect(after.every((c) => terminal.has(c.status))).toBe(true);
    const dialledAfter = after.filter(
      (c) => c.call_attempt_time !== null && Date.parse(c.call_attempt_time) > start + 3 * 60_000,
    );
    expect(dialledAfter.filter((c) => cancelled.includes(c.id))).toEqual([]);
  });
});

describe('determinism and restarts', () => {
  const cfg = {
    call_retry_config: { retry_count: 1, retry_not_picked: 5, retry_busy: 5, retry_failed: 5 },
    call_time: { call_start_time: '09:00', call_end_time: '18:00', timezone: 'Asia/Kolkata' },
  };

  async function run(seed: number) {
    const x = await startTestSandbox({ seed });
    try {
      const sx = await seeded(x);
      const start = dayAt(x, 1, 9);
      const id = await startSmallCampaign(x, sx, {
        rows: 150,
        startAt: start,
        endAt: start + 86400_000,
        callConfig: cfg,
      });
      for (let i = 0; i < 8; i++) await advanceTo(x, start + i * 15 * 60_000);
      return (await historyOf(x, id))
        .map((c) => [
          c.id,
          c.status,
          c.sub_status,
          c.call_duration,
          c.call_cost,
          c.transcript,
          c.call_attempt_time,
        ])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    } finally {
      await x.close();
    }
  }

  it('tells the same story for the same seed and the same clock advances, another for another seed', async () => {
    const a = await run(21);
    const b = await run(21);
    const c = await run(22);
    expect(a).toEqual(b);
    expect(a.every((r) => terminal.has(String(r[1])))).toBe(true);
    const outcomes = (x: typeof a) => x.map((r) => `${r[1]}/${r[2]}/${r[3]}`).join();
    expect(outcomes(c)).not.toEqual(outcomes(a));
  });

  it('picks ongoing and queued calls up again after a restart with --data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialer-restart-'));
    try {
      const first = await startTestSandbox({ seed: 5, dataDir: dir });
      const sf = await seeded(first);
      const start = dayAt(first, 1, 9);
      const id = await startSmallCampaign(first, sf, {
        rows: 200,
        startAt: start,
        endAt: start + 86400_000,
        callConfig: cfg,
      });
      await advanceTo(first, start + 20_000);
      const mid = await historyOf(first, id);
      const ongoingAtStop = mid.filter((c) => c.status === 'ongoing').map((c) => c.id);
      expect(ongoingAtStop.length).toBe(100);
      expect(mid.filter((c) => c.status === 'registered').length).toBeGreaterThan(0);
      await first.close();

      const second = await startTestSandbox({ seed: 5, dataDir: dir });
      const state = await second.control<{ ongoing: number; queued: number }>('/dialer');
      expect(state.body.ongoing).toBe(100);
      expect(state.body.queued).toBeGreaterThan(0);
      await advanceTo(second, start + 6 * 3600_000);
      const end = await historyOf(second, id);
      expect(end.filter((c) => !terminal.has(c.status))).toEqual([]);
      const wasOngoing = end.filter((c) => ongoingAtStop.includes(c.id));
      expect(wasOngoing.some((c) => c.status === 'completed')).toBe(true);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
