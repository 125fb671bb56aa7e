// The sync bench's scale run, the Calls page over every synced call (issue 28: "usable at a
// million"): each read as the page makes it (calls.list: a window of rows and the filter's total;
// calls.facets: the filter's choices with their counts), p50/p95 against the page's goal (≤ 50 ms).
import type { DbClient } from '../../electron/services/db/client.ts';
import { CALL_SORT_KEYS } from '../../shared/ipc/channels/calls.ts';
import type { CallFilter } from '../../shared/ipc/channels/calls.ts';
import { goal, pct, round } from './goals.ts';
import { SCALE_CAMPAIGN } from './syncScaleViews.ts';

/** Milliseconds of `n` reads, sorted. */
export async function timeReads(n: number, f: (i: number) => Promise<unknown>): Promise<number[]> {
  const l: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f(i);
    l.push(performance.now() - t0);
  }
  return l.sort((a, b) => a - b);
}

const figure = (name: string, l: number[]) => ({
  p50_ms: round(pct(l, 0.5)),
  p95: goal(name, pct(l, 0.95), 50, 'ms'),
});

export async function callsPageReads(db: DbClient, workspaceId: string, n: number, total: number) {
  const list = (
    filter: CallFilter,
    offset = 0,
    sort?: { by: (typeof CALL_SORT_KEYS)[number]; dir: 'asc' | 'desc' },
  ) => db.call('calls.list', { workspaceId, filter, ...(sort ? { sort } : {}), offset, limit: 50 });
  // As it opens (newest first) and scrolled (its first ten windows of 50).
  const pages = await timeReads(n, (i) => list({}, (i % 10) * 50));
  // Sorted by each other column, each direction in turn (the first window).
  const sorts = CALL_SORT_KEYS.filter((k) => k !== 'created_at');
  const sorted = await timeReads(n, (i) =>
    list({}, 0, { by: sorts[i % sorts.length]!, dir: i % 2 === 0 ? 'desc' : 'asc' }),
  );
  // Filtered: the window and the filter's total (a status, a campaign, an outcome); an agent apart
  // (no index or aggregate holds a call's agent: each read counts every call's row).
  const filters: CallFilter[] = [
    { statuses: ['completed'] },
    { bulkListId: SCALE_CAMPAIGN },
    { outcomes: ['voicemail', 'no_answer'] },
  ];
  const filtered = await timeReads(n, (i) => list(filters[i % filters.length]!));
  // The filter's choices and their counts (agents, statuses, sub-statuses), read as the page opens.
  let agent: string | undefined;
  const facets = await timeReads(3, async () => {
    agent = (await db.call('calls.facets', { workspaceId })).agents[0]?.id;
  });
  const byAgent = agent ? await timeReads(3, () => list({ agentId: agent })) : [];
  // Scrolled far: windows at 10 %, 50 %, 90 % and the very end of all calls, newest first.
  const deep = [0.1, 0.5, 0.9, 1].map((f) => Math.max(0, Math.min(total - 50, Math.floor(total * f))));
  const far = await timeReads(n, (i) => list({}, deep[i % deep.length]!));
  const farSorted = await timeReads(Math.min(n, 20), (i) =>
    list({}, deep[i % deep.length]!, { by: sorts[i % sorts.length]!, dir: 'desc' }),
  );
  return {
    calls_page_p95: goal(
      'scale: Calls page p95 (newest first, first 10 windows)',
      pct(pages, 0.95),
      50,
      'ms',
    ),
    calls_page_sorted_by_another_column: figure(
      'scale: Calls page sorted by another column, first window',
      sorted,
    ),
    calls_page_filtered_with_total: figure(
      'scale: Calls page filtered (status, campaign, outcome)',
      filtered,
    ),
    calls_page_filtered_by_agent: figure('scale: Calls page filtered by an agent', byAgent),
    calls_page_facets: figure('scale: Calls page filter choices with counts (calls.facets)', facets),
    calls_page_scrolled_far: {
      offsets: deep,
      ...figure('scale: Calls page scrolled far (10–100 % of all calls)', far),
    },
    calls_page_scrolled_far_sorted: figure(
      'scale: Calls page scrolled far, sorted by another column',
      farSorted,
    ),
  };
}
