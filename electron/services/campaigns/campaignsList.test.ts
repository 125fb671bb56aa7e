import { describe, expect, it } from 'vitest';
import type { StoredLaunch } from './launches.queries.ts';
import { canTerminate, mergeCampaigns } from './campaignsList.ts';

const launch = (over: Partial<StoredLaunch>): StoredLaunch => ({
  id: 'l1',
  workspace_id: 'w',
  launch_key: null,
  list_id: 1,
  name: 'November',
  agent_id: 'a',
  flow: 'standard',
  state: 'started',
  step: 'start',
  settings: '{}',
  upload_file: 'f',
  bulk_list_id: null,
  service_list_id: null,
  service_id: null,
  valid: 60,
  invalid: 0,
  service_invalid: null,
  rejects_url: null,
  message: null,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  draft_id: 'd1',
  terminated_at: null,
  predicted_refused: null,
  arrived: null,
  ...over,
});

describe('the campaigns list', () => {
  it('shows a campaign once: the local launch and the service record merged by service id (either flow)', () => {
    const rows = mergeCampaigns(
      [
        launch({ id: 'std', service_list_id: 'S1', service_id: 'S1', name: 'Standard' }),
        launch({ id: 'lg', flow: 'large', bulk_list_id: 'B1', service_id: 'B1', name: 'Large' }),
        launch({ id: 'q', state: 'queued', name: 'Queued' }),
      ],
      [
        { id: 'S1', bulk_list_id: 'S1', name: 'S1.csv', campaign_status: 'ongoing', total_count: 60 },
        { id: 'B1', name: 'B1.csv', campaign_status: 'scheduled' },
        { id: 'B1', name: 'B1.csv', campaign_status: 'scheduled' },
        { id: 'X9', bulk_list_id: 'X9', name: 'Elsewhere', campaign_status: 'completed' },
      ],
    );
    expect(rows.map((r) => [r.name, r.launchId, r.serviceId, r.status])).toEqual([
      ['Queued', 'q', null, 'queued'],
      ['Standard', 'std', 'S1', 'ongoing'],
      ['Large', 'lg', 'B1', 'scheduled'],
      ['Elsewhere', null, 'X9', 'completed'],
    ]);
  });

  it('offers Terminate only for a started, not finished campaign', () => {
    expect(canTerminate('ongoing', launch({ service_id: 'S1' }))).toBe(true);
    expect(canTerminate('scheduled', null)).toBe(true);
    // Never started on the service, or over.
    expect(canTerminate('draft', launch({}))).toBe(false);
    expect(canTerminate('failed', null)).toBe(false);
    expect(canTerminate('completed', launch({}))).toBe(false);
    // A local launch that never started: refused, queued, sending, undecided.
    for (const state of ['failed', 'queued', 'pending', 'waiting', 'needs-decision'] as const)
      expect(canTerminate(null, launch({ state, service_id: 'S1' })), state).toBe(false);
    expect(canTerminate('ongoing', launch({ state: 'failed' }))).toBe(false);
    // Started here, not listed yet: by its own state and id.
    expect(canTerminate(null, launch({ service_id: 'S1' }))).toBe(true);
    // Terminated already.
    expect(canTerminate('ongoing', launch({ terminated_at: '2026-11-02T00:00:00Z' }))).toBe(false);
    const [row] = mergeCampaigns([launch({ terminated_at: '2026-11-02T00:00:00Z' })], []);
    expect(row).toMatchObject({ status: 'terminated', canTerminate: false });
  });

  it("carries each campaign's start (the local request's, in its zone; else the service's), to tell repeated names apart", () => {
    const settings = JSON.stringify({
      agentId: 'a',
      name: 'November',
      countryCode: '+91',
      numberSource: { numberPoolId: 'p' },
      start: '01/12/2026, 09:00',
      end: '08/12/2026, 18:00',
      callConfig: { call_time: { timezone: 'Asia/Kolkata' } },
      removeInvalid: true,
      transliterate: false,
      variablesMap: {},
      fileName: 'November.csv',
    });
    const rows = mergeCampaigns(
      [launch({ id: 'l', settings }), launch({ id: 'old', settings: 'not json' })],
      [{ id: 'X', name: 'November', campaign_start_time: '2026-11-20T03:30:00Z' }],
    );
    expect(rows.map((r) => [r.launchId, r.startsAt, r.timezone])).toEqual([
      ['l', '2026-12-01T03:30:00.000Z', 'Asia/Kolkata'],
      ['old', null, null],
      [null, '2026-11-20T03:30:00.000Z', null],
    ]);
  });
});
