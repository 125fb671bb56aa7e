import { historyResponseSchema } from '../../shared/service/history.ts';
import type { CallRecord } from '../../shared/service/history.ts';
import type { SandboxService } from '../fixtures.ts';

const origin = (sandbox: SandboxService) => sandbox.baseUrl.replace(/\/v0$/, '');

/** Calls the sandbox's control API (`/_sandbox/...`) and returns its JSON answer; fails on an error status. */
export async function sandboxControl(
  sandbox: SandboxService,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${origin(sandbox)}/_sandbox${path}`, {
    method,
    headers: {
      'X-API-KEY': sandbox.apiKey,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /_sandbox${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** Every call the service's history has in [from, to) (optionally of one bulk list), read page by page. */
export async function sandboxHistory(
  sandbox: SandboxService,
  from: Date,
  to: Date,
  bulkListId?: string,
): Promise<CallRecord[]> {
  const calls: CallRecord[] = [];
  for (let offset = 0; ; offset += 1000) {
    const query = new URLSearchParams({
      start_date: from.toISOString(),
      end_date: to.toISOString(),
      limit: '1000',
      offset: String(offset),
      ...(bulkListId ? { bulk_list_id: bulkListId } : {}),
    });
    const response = await fetch(`${sandbox.baseUrl}/calling/history?${query}`, {
      headers: { 'X-API-KEY': sandbox.apiKey },
    });
    if (!response.ok) throw new Error(`history answered ${response.status}: ${await response.text()}`);
    const page = historyResponseSchema.parse(await response.json());
    calls.push(...page.calls);
    if (page.calls.length < 1000) return calls;
  }
}

/**
 * Seeds `count` calls spread over the last `hours` (ending a minute ago; recordings of calls under
 * 24 h old are still live) and returns them as the service's history lists them.
 */
export async function seedRecentCalls(
  sandbox: SandboxService,
  count: number,
  hours: number,
  bulkListId?: string,
): Promise<CallRecord[]> {
  const now = Date.now();
  await sandboxControl(sandbox, 'POST', '/seed-calls', {
    count,
    start_date: new Date(now - hours * 3600_000).toISOString(),
    end_date: new Date(now - 60_000).toISOString(),
    ...(bulkListId ? { bulk_list_id: bulkListId } : {}),
  });
  return sandboxHistory(sandbox, new Date(now - (hours + 1) * 3600_000), new Date(now), bulkListId);
}
