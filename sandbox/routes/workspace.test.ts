import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  workspaceInfoResponseSchema,
  workspaceNumbersResponseSchema,
} from '../../shared/service/workspace.ts';
import { startTestSandbox, testApiKey } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('workspace', () => {
  it('answers workspace info with credits, never echoing the whole key', async () => {
    const r = await t.api('/workspace');
    expect(r.status).toBe(200);
    const info = workspaceInfoResponseSchema.parse(r.body).workspace_info;
    expect(info.credits).toBe(25000);
    expect(info.locked_credits).toBe(0);
    expect(r.text).not.toContain(testApiKey);
    await t.control('/workspace', { method: 'POST', json: { credits: 12.5 } });
    expect(workspaceInfoResponseSchema.parse((await t.api('/workspace')).body).workspace_info.credits).toBe(
      12.5,
    );
  });

  it('lists caller numbers in two pools, with ids usable as from_number_id', async () => {
    const r = await t.api('/workspace/numbers');
    const nums = workspaceNumbersResponseSchema.parse(r.body).workspace_numbers;
    expect(nums.length).toBeGreaterThanOrEqual(4);
    expect(new Set(nums.map((n) => n.number_pool_id)).size).toBe(2);
    for (const n of nums) expect(n.number).toMatch(/^\+[1-9]\d{7,14}$/);
    const page = workspaceNumbersResponseSchema.parse(
      (await t.api('/workspace/numbers?limit=2&offset=1')).body,
    );
    expect(page.workspace_numbers.map((n) => n.id)).toEqual(nums.slice(1, 3).map((n) => n.id));
    expect((await t.api('/workspace/numbers?limit=abc')).status).toBe(400);
    expect((await t.api('/workspace/numbers?limit=101')).status).toBe(400);
  });
});
