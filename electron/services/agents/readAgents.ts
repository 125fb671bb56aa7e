// Reading a workspace's agents from the service: every page of GET /agent/all (limit/offset), then
// each agent by id. Used by the library sync and by `campaign-desk agents`.
import { normalizeAgent } from '../../../shared/service/agent.ts';
import type { AgentListItem } from '../../../shared/service/agent.ts';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import type { SyncedAgentInput } from './agents.queries.ts';
import { syncedInput } from './agentView.ts';

/** Agents per page of the listing (the service allows up to 100). */
export const AGENT_PAGE_SIZE = 50;
/** A listing longer than this many pages is not followed further (a service ignoring offset). */
const MAX_PAGES = 400;
/** Agents read by id at once. */
const DETAIL_CONCURRENCY = 4;

export async function readAllAgents(
  client: ApiClient,
  options: { signal?: AbortSignal; onListed?: (total: number) => void; onRead?: (done: number) => void } = {},
): Promise<SyncedAgentInput[]> {
  const { signal } = options;
  const items: AgentListItem[] = [];
  const seen = new Set<string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const rows = await client.listAgents({
      limit: AGENT_PAGE_SIZE,
      offset: page * AGENT_PAGE_SIZE,
      ...(signal ? { signal } : {}),
    });
    const fresh = rows.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    items.push(...fresh);
    // A short page is the last; a page of nothing new means the service ignores offset.
    if (rows.length < AGENT_PAGE_SIZE || fresh.length === 0) break;
  }
  options.onListed?.(items.length);
  const out = new Array<SyncedAgentInput | null>(items.length).fill(null);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const item = items[i] as AgentListItem;
      try {
        const detail = await client.getAgentDetail(item.id, signal ? { signal } : {});
        out[i] = syncedInput(detail, normalizeAgent(detail), item, i);
      } catch (error) {
        // Deleted between the listing and now: it is simply not there any more.
        if (!(isApiError(error) && error.kind === 'not_found')) throw error;
      }
      options.onRead?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, items.length) }, worker));
  return out.filter((a): a is SyncedAgentInput => a !== null);
}
