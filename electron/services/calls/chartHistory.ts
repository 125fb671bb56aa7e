// A seeded call history for the charts' test and bench: calls of several campaigns, each launched
// here with its own timezone (one with none), every status × sub-status pair of the interface, a
// share never dialled, attempt times across a DST change, numbers called more than once.
import { callStatuses, callSubStatuses } from '../../../shared/service/enums.ts';
import { callColumns } from '../sync/callRow.ts';
import type { Db } from '../db/define.ts';
import { upsertCalls } from './store/upsertCalls.ts';

export interface ChartCampaign {
  bulkListId: string;
  /** The launch's `call_time.timezone`, or null: no launch record here. */
  zone: string | null;
}

export const CHART_CAMPAIGNS: readonly ChartCampaign[] = [
  { bulkListId: 'bl-kolkata', zone: 'Asia/Kolkata' },
  { bulkListId: 'bl-new-york', zone: 'America/New_York' },
  { bulkListId: 'bl-kathmandu', zone: 'Asia/Kathmandu' },
  { bulkListId: 'bl-unlaunched', zone: null },
];

/** Deterministic PRNG (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes the launch records (timezones) and `count` calls for workspace `w1`. */
export function seedChartHistory(db: Db, count: number, seed = 24): void {
  const insertLaunch = db.prepare(
    `INSERT INTO campaign_launches (id, workspace_id, name, agent_id, flow, state, step, settings, upload_file,
       bulk_list_id, created_at, updated_at)
     VALUES (?, 'w1', ?, 'agent-1', 'large', 'started', 'make-call-async', ?, 'u.csv', ?, 'n', 'n')`,
  );
  for (const c of CHART_CAMPAIGNS)
    if (c.zone)
      insertLaunch.run(
        `launch-${c.bulkListId}`,
        c.bulkListId,
        JSON.stringify({ callConfig: { call_time: { timezone: c.zone } } }),
        c.bulkListId,
      );
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const from = Date.UTC(2026, 9, 1); // 1 Oct – 30 Nov 2026: New York leaves DST on 1 Nov
  const span = 60 * 86_400_000;
  const batch = 5_000;
  for (let start = 0; start < count; start += batch) {
    const byCampaign = new Map<string, ReturnType<typeof callColumns>[]>();
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const campaign = CHART_CAMPAIGNS[i % CHART_CAMPAIGNS.length]!;
      const created = from + Math.floor(random() * span);
      const dialled = random() > 0.12;
      const status = pick(callStatuses);
      const row = callColumns({
        id: `chart-${i}`,
        to_number: `+9190000${String(Math.floor(random() * 40_000)).padStart(5, '0')}`,
        status,
        sub_status: random() < 0.05 ? null : pick(callSubStatuses),
        created_at: new Date(created).toISOString(),
        call_attempt_time: dialled
          ? new Date(created + Math.floor(random() * 6 * 3_600_000)).toISOString()
          : null,
        call_duration: dialled ? Math.floor(random() * 300) : 0,
        call_cost: dialled ? Math.round(random() * 500) / 100 : 0,
        voicemail_detected: random() < 0.1,
      });
      const list = byCampaign.get(campaign.bulkListId) ?? [];
      list.push(row);
      byCampaign.set(campaign.bulkListId, list);
    }
    for (const [bulkListId, rows] of byCampaign)
      upsertCalls(db, { workspaceId: 'w1', bulkListId, rows, nowIso: '2026-12-01T00:00:00.000Z' });
  }
}
