// The launch outbox with a real SQLite file: a campaign (draft) gets one outbox entry; a second
// launch of it is refused whatever the path (enqueueLaunch, or a raw insert past it); a refused
// launch is sent again in the same row; the request is built the same for the app and the CLI.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDbClient } from '../db/client.ts';
import type { DbClient } from '../db/client.ts';
import { tempDirs } from '../db/testing.ts';
import { buildLaunchRequest, enqueueLaunch, outboxEntry } from './launchOutbox.ts';
import type { OutboxInput } from './launchOutbox.ts';
import type { LaunchRequest } from './launchRequest.ts';

const dirs = tempDirs('desk-outbox-');
let db: DbClient;
beforeAll(async () => {
  db = await openDbClient({ file: join(dirs.make(), 'desk.sqlite'), readLane: false });
});
afterAll(async () => {
  await db?.close();
  dirs.cleanup();
});

const request = (over: Partial<LaunchRequest> = {}): LaunchRequest =>
  buildLaunchRequest({
    agentId: 'agent-1',
    name: ' November reminders ',
    countryCode: '+91',
    numberSource: { numberPoolId: 'pool-1' },
    start: '01/12/2030, 09:00',
    end: '08/12/2030, 18:00',
    callConfig: { call_time: { timezone: 'Asia/Kolkata' } },
    concurrency: 50,
    callbackUrl: '  ',
    removeInvalid: true,
    transliterate: false,
    variablesMap: { callee_name: 'Name' },
    fileName: 'x.csv',
    ...over,
  });

let n = 0;
const input = (over: Partial<OutboxInput> = {}): OutboxInput => ({
  id: `launch-${++n}`,
  workspaceId: 'w1',
  request: request(),
  listId: null,
  draftId: 'draft-1',
  launchKey: null,
  uploadFile: '/tmp/upload.csv',
  valid: 60,
  invalid: 2,
  queued: false,
  at: new Date().toISOString(),
  ...over,
});

describe('building a launch', () => {
  it('trims the name, leaves an empty callback URL out and picks the flow by rows', () => {
    const r = request();
    expect(r.name).toBe('November reminders');
    expect('callbackUrl' in r).toBe(false);
    expect(outboxEntry(input({ valid: 60 }))).toMatchObject({
      flow: 'standard',
      step: 'save',
      state: 'pending',
    });
    expect(outboxEntry(input({ valid: 5_000, queued: true }))).toMatchObject({
      flow: 'large',
      step: 'upload',
      state: 'queued',
    });
    expect(() => request({ agentId: '' })).toThrow();
  });
});

describe('one launch per campaign', () => {
  it('refuses a second launch of a draft whose launch is under way or started, through enqueueLaunch and a raw insert', async () => {
    const first = await enqueueLaunch(db, input({ draftId: 'once' }));
    expect(first).toMatchObject({ draft_id: 'once', state: 'pending' });
    await expect(enqueueLaunch(db, input({ draftId: 'once' }))).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/already launched/),
    });
    await db.call('campaigns.patchLaunch', {
      id: first.id,
      patch: { state: 'started', service_list_id: 'S-1' },
      at: new Date().toISOString(),
    });
    await expect(enqueueLaunch(db, input({ draftId: 'once' }))).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('(id S-1)'),
    });
    // Past the check, the unique index still refuses a second outbox row for the draft.
    await expect(db.call('campaigns.insertLaunch', outboxEntry(input({ draftId: 'once' })))).rejects.toThrow(
      /UNIQUE/,
    );
    const rows = (await db.call('campaigns.launches', { workspaceId: 'w1' })).filter(
      (l) => l.draft_id === 'once',
    );
    expect(rows.map((l) => l.id)).toEqual([first.id]);
    // Launches without a draft (the CLI's) are not tied to one another.
    await enqueueLaunch(db, input({ draftId: null, launchKey: 'k1' }));
    await enqueueLaunch(db, input({ draftId: null, launchKey: 'k2' }));
  });

  it('sends a refused launch again in the same row (the same campaign), with the corrected request', async () => {
    const first = await enqueueLaunch(db, input({ draftId: 'refused' }));
    await db.call('campaigns.recordStep', {
      launchId: first.id,
      step: 'start',
      outcome: 'refused',
      at: new Date().toISOString(),
      message: 'Not enough credits',
      patch: { state: 'failed', service_list_id: 'S-2', message: 'Not enough credits' },
    });
    const again = await enqueueLaunch(
      db,
      input({ draftId: 'refused', request: request({ concurrency: 20 }), valid: 6_000 }),
    );
    expect(again).toMatchObject({
      id: first.id,
      state: 'pending',
      flow: 'large',
      step: 'upload',
      service_id: null,
      message: null,
    });
    expect(JSON.parse(again.settings)).toMatchObject({ concurrency: 20 });
    const steps = await db.call('campaigns.steps', { launchId: first.id });
    expect(steps.map((s) => `${s.step}:${s.outcome}`)).toEqual(['start:refused', 'upload:info']);
    // Sent again, it is under way: a third send is refused.
    await expect(enqueueLaunch(db, input({ draftId: 'refused' }))).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('never sends again a refused launch whose start had no clear answer (it may have started)', async () => {
    const first = await enqueueLaunch(db, input({ draftId: 'unclear' }));
    for (const [step, outcome] of [
      ['start', 'ambiguous'],
      ['verify-start', 'info'],
    ] as const)
      await db.call('campaigns.recordStep', {
        launchId: first.id,
        step,
        outcome,
        at: new Date().toISOString(),
        patch: { state: 'failed' },
      });
    await expect(enqueueLaunch(db, input({ draftId: 'unclear' }))).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/may have started/),
    });
  });
});
