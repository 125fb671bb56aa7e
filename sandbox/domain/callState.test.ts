import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTime, placeCall, startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';
import { updateCall } from './callState.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('updateCall', () => {
  it('persists the change and emits call-updated only when the status moves', async () => {
    const ctx = t.sb.context;
    const created: string[][] = [];
    ctx.events.on('calls-created', (e) => created.push(e.callIds));
    const { id } = await placeCall(t);
    expect(created).toEqual([[id]]);
    const seen: Array<{ status: string; subStatus: string | null }> = [];
    ctx.events.on('call-updated', (e) => seen.push({ status: e.status, subStatus: e.subStatus }));
    updateCall(ctx, id, { call_duration: 12.5 });
    const done = updateCall(ctx, id, { status: 'completed', sub_status: 'ACCEPTED', call_cost: 1 });
    expect(done).toMatchObject({ status: 'completed', call_duration: 12.5, call_cost: 1 });
    expect(seen).toEqual([{ status: 'completed', subStatus: 'ACCEPTED' }]);
    expect(updateCall(ctx, 'nope', { status: 'failed' })).toBeUndefined();
    const hist = await t.api<{ calls: Array<{ id: string; status: string }> }>(`/calling/history?${allTime}`);
    expect(hist.body.calls.find((c) => c.id === id)?.status).toBe('completed');
  });
});
