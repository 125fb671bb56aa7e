// The dialer engine: on the virtual clock, calls move registered/retry → ongoing → completed,
// retry, failed or cancelled, honouring the campaign window, the daily call window, retries and
// their delays, max call length, and concurrency. Work is driven by ONE clock timer set at the next
// instant anything is due (a call ends, a queued call may dial, a post-call step, a campaign window
// end), so a big clock jump costs work per event, never per second; each wake writes in one
// transaction. Queues live in memory (min-heaps by due time), loaded from the calls_due index at
// start and on `calls-created`; the database stays the source of truth (every change is a guarded
// UPDATE, so a call terminated meanwhile is simply skipped).
import { retryDelayUnitSeconds } from '../../shared/domain/callConfig.ts';
import type { ResolvedCallConfig } from '../../shared/domain/callConfig.ts';
import type { SandboxContext } from '../context.ts';
import { MinHeap } from '../heap.ts';
import { createRng } from '../rng.ts';
import type { CallRow } from '../store/types.ts';
import { analyse } from './analysis.ts';
import { callEventQueue } from './callEvents.ts';
import { callLookups, stringValues } from './callLookups.ts';
import { dialerStatements } from './dialerStatements.ts';
import type {
  Campaign,
  Emit,
  Finished,
  IndividualEntry,
  Ongoing,
  PostKind,
  PostStep,
  QueueEntry,
  Shares,
} from './engineState.ts';
import { attemptRng, attemptShares, callCost, planAttempt } from './outcomes.ts';
import type { AttemptKind, AttemptPlan } from './outcomes.ts';
import { postCallSteps } from './postCallSteps.ts';
import { buildTranscript } from './transcript.ts';
import { createDialGate, scheduledAtMs } from './windows.ts';
import type { DialGate } from './windows.ts';

/** Calls the workspace can hold at once; a campaign gets `concurrency_percentage` of them. */
export const defaultWorkspaceSlots = 100;
/** Post-call steps, seconds after the call ends. */
export const postCallDelays = { recording: 3, platform: 8, client: 10, all: 12 } as const;
/** How often a dialer stalled on an empty balance looks again (virtual seconds). */
const creditsPollSeconds = 60;

export interface DialerState {
  ongoing: number;
  queued: number;
  postSteps: number;
  campaigns: Array<{ bulk_list_id: string; slots: number; ongoing: number; queued: number }>;
  workspace_slots: number;
  shares: Record<string, number>;
}

export interface DialerEngine {
  stop(): void;
  state(): DialerState;
  /** Replace the outcome shares (percent weights per attempt kind); missing kinds get 0. */
  setShares(shares: Partial<Record<AttemptKind, number>>): void;
  resetShares(): void;
  setWorkspaceSlots(n: number): void;
}

export function createDialerEngine(ctx: SandboxContext): DialerEngine {
  const { db, clock } = ctx;
  const seed = ctx.options.seed;
  let shares: Shares = attemptShares;
  let workspaceSlots = defaultWorkspaceSlots;
  let stopped = false;

  // ---------------------------------------------------------------- statements
  const {
    selCall,
    selDialable,
    selOngoing,
    selListDialable,
    updDial,
    updSkip,
    updFinish,
    updFrom,
    updAnalysis,
    selListExpired,
    updListExpired,
    selCredits,
    updCredits,
  } = dialerStatements(db);

  // ---------------------------------------------------------------- state
  const campaigns = new Map<string, Campaign>();
  const individual = new MinHeap<IndividualEntry>();
  const ongoing = new MinHeap<Ongoing>();
  const post = new MinHeap<PostStep>();
  let ongoingCount = 0;
  let stalledOnCredits = false;
  let timerAt: number | null = null;
  let cancelTimer: (() => void) | null = null;
  let sameInstantWakes = 0;
  let lastWakeAt = Number.NaN;

  const { parseConfig, cfgOf, factsOf, callerOf, introFor } = callLookups(ctx);
  const { callEvent, updated } = callEventQueue(ctx);
  const runPostStep = postCallSteps(ctx, updAnalysis, callEvent);

  // ---------------------------------------------------------------- campaigns and queues
  function campaignFor(row: CallRow): Campaign {
    const id = row.bulk_list_id as string;
    let c = campaigns.get(id);
    if (c) return c;
    // Every call of a campaign carries the campaign's merged call_config, window and share.
    const cfg = cfgOf(row.call_config);
    const scheduled = scheduledAtMs(cfg.scheduledAt);
    const starts = [row.window_start_at, scheduled].filter((v): v is number => v !== null);
    const pct = row.concurrency_percentage;
    c = {
      id,
      cfg,
      gate: createDialGate({
        notBefore: starts.length > 0 ? Math.max(...starts) : null,
        endsAt: row.window_end_at,
        daily: { callStartTime: cfg.callStartTime, callEndTime: cfg.callEndTime, timezone: cfg.timezone },
      }),
      pct,
      slots: slotsFor(pct),
      ongoing: 0,
      queue: new MinHeap<QueueEntry>(),
      swept: false,
    };
    campaigns.set(id, c);
    return c;
  }

  function slotsFor(pct: number | null): number {
    if (pct === null) return workspaceSlots;
    return Math.max(1, Math.round((pct / 100) * workspaceSlots));
  }

  /** An individual call keeps to its own daily window only when its call_config has a call_time. */
  function individualGate(row: CallRow, cfg: ResolvedCallConfig): DialGate {
    const own = parseConfig(row.call_config);
    return createDialGate({
      notBefore: null,
      endsAt: null,
      daily:
        own?.call_time !== undefined
          ? { callStartTime: cfg.callStartTime, callEndTime: cfg.callEndTime, timezone: cfg.timezone }
          : null,
    });
  }

  function enqueue(row: Pick<CallRow, 'rowid' | 'id' | 'next_attempt_at'>, full: CallRow | null): void {
    const at = row.next_attempt_at ?? clock.nowMs();
    const r = full ?? selCall.get(row.id);
    if (!r) return;
    if (r.bulk_list_id !== null) {
      campaignFor(r).queue.push({ at, seq: r.rowid, id: r.id });
    } else {
      const gate = individualGate(r, cfgOf(r.call_config));
      individual.push({ at: gate.nextDialTime(at) ?? at, seq: r.rowid, id: r.id, gate });
    }
  }

  // ---------------------------------------------------------------- transitions
  function startOngoing(
    row: CallRow,
    campaign: Campaign | null,
    attempt: number,
    plan: AttemptPlan,
    startedAt: number,
  ) {
    const cfg = campaign?.cfg ?? cfgOf(row.call_config);
    const from = (JSON.parse(row.from_numbers) as string[])[0] ?? null;
    const facts = factsOf(row, attempt, plan, from);
    // Slots free on whole virtual seconds, so events landing in the same second share one wake.
    const o: Ongoing = {
      at: Math.ceil((startedAt + plan.holdMs) / 1000) * 1000,
      seq: row.rowid,
      row,
      campaign,
      cfg,
      attempt,
      plan,
      facts,
    };
    ongoing.push(o);
    ongoingCount++;
    if (campaign) campaign.ongoing++;
    return o;
  }

  /** Dial one queued call now. Returns false when it was no longer dialable. */
  function dial(id: string, campaign: Campaign | null, now: number, out: Emit[]): boolean {
    const row = selCall.get(id);
    if (!row || (row.status !== 'registered' && row.status !== 'retry')) return false;
    const attempt = row.attempt_count + 1;
    const cfg = campaign?.cfg ?? cfgOf(row.call_config);
    const plan = planAttempt(attemptRng(seed, id, attempt), cfg, { allowDnd: attempt === 1, shares });
    if (plan.kind === 'dnd') {
      if (updSkip.run('DND_SKIPPED', now, id).changes === 0) return false;
      updated(out, id, 'cancelled', 'DND_SKIPPED');
      return true;
    }
    const fromJson = callerOf(row).json;
    if (updDial.run(attempt, now, fromJson, now, id).changes === 0) return false;
    const live: CallRow = {
      ...row,
      status: 'ongoing',
      sub_status: 'ACCEPTED',
      attempt_count: attempt,
      call_attempt_time: now,
      next_attempt_at: null,
      from_numbers: fromJson,
      updated_at: now,
    };
    const o = startOngoing(live, campaign, attempt, plan, now);
    updated(out, id, 'ongoing', 'ACCEPTED');
    callEvent(out, 'call_started', live, o.facts, now);
    return true;
  }

  function finish(o: Ongoing, out: Emit[], credits: { spent: number }): void {
    const { row, plan, cfg, attempt } = o;
    const endedAt = o.at;
    ongoingCount--;
    if (o.campaign) o.campaign.ongoing--;
    const facts = o.facts;
    if (plan.connected) {
      const values = stringValues(row.custom_args_values);
      const input = {
        intro: introFor(row.agent_id, values),
        prompt: row.prompt_text ?? '',
        values,
      };
      const talk = createRng(`${seed}:talk:${row.id}:${attempt}`);
      const turns = buildTranscript(talk, input, plan);
      const analysis = analyse(talk, input, plan);
      const cost = callCost(plan);
      const transcript = JSON.stringify(turns);
      if (
        updFinish.run(
          'completed',
          plan.subStatus,
          plan.talkSeconds,
          cost,
          transcript,
          plan.voicemail ? 1 : 0,
          null,
          endedAt,
          row.id,
        ).changes === 0
      )
        return;
      credits.spent += cost;
      Object.assign(facts, {
        status: 'completed',
        subStatus: plan.subStatus,
        callDuration: plan.talkSeconds,
        callCost: cost,
        voicemailDetected: plan.voicemail,
        transcript: turns,
      });
      updated(out, row.id, 'completed', plan.subStatus);
      callEvent(out, 'call_completed', row, facts, endedAt, plan.subStatus);
      const done: Finished = { row, attempt, plan, turns, endedAt, facts, analysis };
      (Object.keys(postCallDelays) as PostKind[]).forEach((kind, k) =>
        post.push({ at: endedAt + postCallDelays[kind] * 1000, seq: row.rowid * 4 + k, kind, call: done }),
      );
      return;
    }
    // Not connected: retry after the configured delay while attempts remain, else failed.
    const retriesLeft = 1 + cfg.retryCount - attempt;
    let status: string;
    let subStatus: string;
    let nextAt: number | null = null;
    if (retriesLeft > 0 && plan.retryDelayMinutes !== null && o.campaign?.swept) {
      // The campaign window closed while this attempt rang: no retry can happen any more.
      status = 'cancelled';
      subStatus = 'CAMPAIGN_TIME_EXCEEDED';
    } else if (retriesLeft > 0 && plan.retryDelayMinutes !== null) {
      status = 'retry';
      subStatus = 'RETRY_SCHEDULED';
      nextAt = endedAt + plan.retryDelayMinutes * retryDelayUnitSeconds * 1000;
    } else {
      status = 'failed';
      subStatus = cfg.retryCount > 0 ? 'RETRY_LIMIT_REACHED' : plan.subStatus;
    }
    if (updFinish.run(status, subStatus, 0, 0, null, 0, nextAt, endedAt, row.id).changes === 0) return;
    Object.assign(facts, { status, subStatus, callDuration: 0, callCost: 0 });
    updated(out, row.id, status, subStatus);
    callEvent(out, 'call_completed', row, facts, endedAt, plan.subStatus);
    if (nextAt !== null)
      enqueue({ rowid: row.rowid, id: row.id, next_attempt_at: nextAt }, { ...row, status });
    else callEvent(out, 'all_processing_completed', row, facts, endedAt);
  }

  /** Campaign calls still waiting at the window end will never be dialled. */
  function sweep(c: Campaign, now: number, out: Emit[]): void {
    c.swept = true;
    c.queue.clear();
    const ids = selListExpired.all(c.id);
    if (ids.length === 0) return;
    updListExpired.run(now, c.id);
    for (const { id } of ids) updated(out, id, 'cancelled', 'CAMPAIGN_TIME_EXCEEDED');
  }

  function dialDue(now: number, out: Emit[]): void {
    const credits = selCredits.get()?.credits ?? 0;
    stalledOnCredits =
      credits <= 0 && (individual.size > 0 || [...campaigns.values()].some((c) => c.queue.size > 0));
    if (credits <= 0) return;
    let progress = true;
    while (progress && ongoingCount < workspaceSlots) {
      progress = false;
      for (const c of campaigns.values()) {
        if (ongoingCount >= workspaceSlots) break;
        if (c.swept || c.ongoing >= c.slots) continue;
        const head = c.queue.peek();
        if (!head || head.at > now) continue;
        if (c.gate.nextDialTime(now) !== now) continue; // window closed (or over)
        c.queue.pop();
        dial(head.id, c, now, out);
        progress = true;
      }
      const head = individual.peek();
      if (head && head.at <= now && ongoingCount < workspaceSlots) {
        individual.pop();
        const t = head.gate.nextDialTime(now);
        if (t !== null && t > now) individual.push({ ...head, at: t });
        else dial(head.id, null, now, out);
        progress = true;
      }
    }
  }

  // ---------------------------------------------------------------- the wake loop
  /** Everything due at `now`, in one transaction (events go out after it commits). */
  const step = db.transaction((now: number, out: Emit[]) => {
    const credits = { spent: 0 };
    for (let o = ongoing.peek(); o && o.at <= now; o = ongoing.peek())
      finish(ongoing.pop() as Ongoing, out, credits);
    if (credits.spent > 0) updCredits.run(credits.spent);
    for (let s = post.peek(); s && s.at <= now; s = post.peek()) runPostStep(post.pop() as PostStep, out);
    for (const c of campaigns.values()) {
      const end = c.gate.spec.endsAt;
      if (!c.swept && end !== null && now >= end) sweep(c, now, out);
    }
    dialDue(now, out);
  });

  function wake(): void {
    timerAt = null;
    cancelTimer = null;
    if (stopped || !db.open) return;
    const now = clock.nowMs();
    sameInstantWakes = now === lastWakeAt ? sameInstantWakes + 1 : 0;
    lastWakeAt = now;
    const out: Emit[] = [];
    step(now, out);
    for (const e of out) e();
    scheduleNext(now);
  }

  function requestWake(at: number): void {
    if (stopped) return;
    if (timerAt !== null && timerAt <= at) return;
    cancelTimer?.();
    timerAt = at;
    cancelTimer = clock.schedule(at, wake);
  }

  function scheduleNext(now: number): void {
    // A campaign with nothing queued and nothing ongoing is done (only its ongoing calls can queue more).
    for (const [id, c] of campaigns) if (c.queue.size === 0 && c.ongoing === 0) campaigns.delete(id);
    let next = Number.POSITIVE_INFINITY;
    const consider = (t: number | null | undefined) => {
      if (t !== null && t !== undefined && t < next) next = t;
    };
    consider(ongoing.peek()?.at);
    consider(post.peek()?.at);
    const free = ongoingCount < workspaceSlots && !stalledOnCredits;
    for (const c of campaigns.values()) {
      if (c.swept || c.queue.size === 0) continue;
      consider(c.gate.spec.endsAt);
      const head = c.queue.peek();
      if (free && head && c.ongoing < c.slots) consider(c.gate.nextDialTime(Math.max(now, head.at)));
    }
    if (free) consider(individual.peek()?.at);
    if (stalledOnCredits) consider(now + creditsPollSeconds * 1000);
    if (!Number.isFinite(next)) return;
    // Never spin on one instant (a bug would otherwise hang the clock).
    if (next <= now && sameInstantWakes > 1000) next = now + 1000;
    requestWake(Math.max(next, now));
  }

  // ---------------------------------------------------------------- inputs
  /** Calls already ongoing (the individual route puts a call through at once; or a restart). */
  function adoptOngoing(row: CallRow): Ongoing {
    const attempt = Math.max(1, row.attempt_count);
    const campaign = row.bulk_list_id !== null ? campaignFor(row) : null;
    const cfg = campaign?.cfg ?? cfgOf(row.call_config);
    const plan = planAttempt(attemptRng(seed, row.id, attempt), cfg, { allowDnd: false, shares });
    const caller = callerOf(row);
    const live = caller.changed ? { ...row, from_numbers: caller.json } : row;
    if (caller.changed) updFrom.run(caller.json, row.id);
    return startOngoing(live, campaign, attempt, plan, row.call_attempt_time ?? clock.nowMs());
  }

  function load(): void {
    for (const row of selOngoing.all()) adoptOngoing(row);
    for (const row of selDialable.all()) enqueue(row, row);
    scheduleNext(clock.nowMs());
  }

  function onCallsCreated(e: { callIds: string[]; bulkListId: string | null }): void {
    if (stopped || !db.open) return;
    const out: Emit[] = [];
    if (e.bulkListId !== null) {
      const rows = selListDialable.all(e.bulkListId);
      const first = rows[0] ? selCall.get(rows[0].id) : undefined;
      const c = first ? campaignFor(first) : undefined;
      if (c)
        for (const r of rows)
          c.queue.push({ at: r.next_attempt_at ?? clock.nowMs(), seq: r.rowid, id: r.id });
    } else {
      for (const id of e.callIds) {
        const row = selCall.get(id);
        if (!row || row.source === 'seeded') continue;
        if (row.status === 'ongoing') {
          // The route put it through at once: subscribers hear of it at once too.
          const o = adoptOngoing(row);
          callEvent(out, 'call_started', row, o.facts, row.call_attempt_time ?? clock.nowMs());
        } else if (row.status === 'registered' || row.status === 'retry') {
          enqueue(row, row);
        }
      }
    }
    for (const emit of out) emit();
    scheduleNext(clock.nowMs());
  }

  const unsubscribe = [ctx.events.on('calls-created', onCallsCreated)];
  load();

  return {
    stop() {
      stopped = true;
      cancelTimer?.();
      cancelTimer = null;
      timerAt = null;
      for (const u of unsubscribe) u();
    },
    state() {
      let queued = individual.size;
      for (const c of campaigns.values()) queued += c.queue.size;
      return {
        ongoing: ongoingCount,
        queued,
        postSteps: post.size,
        campaigns: [...campaigns.values()].map((c) => ({
          bulk_list_id: c.id,
          slots: c.slots,
          ongoing: c.ongoing,
          queued: c.queue.size,
        })),
        workspace_slots: workspaceSlots,
        shares: Object.fromEntries(shares),
      };
    },
    setShares(next) {
      const table = attemptShares.map(([k]) => [k, Math.max(0, next[k] ?? 0)] as const);
      if (!table.some(([, w]) => w > 0)) throw new RangeError('at least one share must be positive');
      shares = table;
    },
    resetShares() {
      shares = attemptShares;
    },
    setWorkspaceSlots(n) {
      if (!Number.isInteger(n) || n < 1) throw new RangeError('workspace slots must be a positive integer');
      workspaceSlots = n;
      for (const c of campaigns.values()) c.slots = slotsFor(c.pct);
      scheduleNext(clock.nowMs());
    },
  };
}
