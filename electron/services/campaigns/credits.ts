// The workspace's credits as the service reports them (`GET /workspace`), with when it said so.
// The plan used to read only the credits of the last Settings → "Test connection", so a workspace
// never tested there showed "Not reported" while online; now the service is asked for every plan
// (a short timeout), and its last answer is kept, with its age, for when it does not answer.
import type { ApiClient } from '../api/index.ts';
import { isApiError } from '../api/index.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import { explainApiError } from './explainError.ts';
import type { CreditsReading } from './plan.ts';

/** Credits of the workspace's service now; throws the client's ApiError when it does not answer. */
export async function serviceCredits(client: ApiClient): Promise<number> {
  return (await client.getWorkspaceInfo()).credits;
}

export function createCreditsReader() {
  const last = new Map<string, { credits: number; at: string }>();
  return {
    /** Ask the service; on failure the last answer (here or from "Test connection") with why. */
    async read(record: WorkspaceRecord, client: () => Promise<ApiClient>): Promise<CreditsReading> {
      try {
        const credits = await serviceCredits(await client());
        const at = new Date().toISOString();
        last.set(record.id, { credits, at });
        return { available: credits, checkedAt: at, source: 'service', reason: null };
      } catch (e) {
        const reason = isApiError(e) ? explainApiError(e) : e instanceof Error ? e.message : String(e);
        const kept =
          last.get(record.id) ??
          (record.lastTest?.credits != null
            ? { credits: record.lastTest.credits, at: record.lastTest.at }
            : null);
        return kept
          ? { available: kept.credits, checkedAt: kept.at, source: 'cached', reason }
          : { available: null, checkedAt: null, source: null, reason };
      }
    },
  };
}
