// Who would be called again: the contacts (by E.164) of a list or of a file that are also in other
// campaigns of the workspace queued, running or run in the last 7 days (launchSummary.ts says which
// count). One implementation for the app (Duplicate, the builder, the confirmation) and the CLI.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Overlaps } from '../../../shared/ipc/channels/campaigns.ts';
import type { DbClient } from '../db/client.ts';
import type { NumberSet } from './overlaps.queries.ts';
import { recentOrRunning } from './launchSummary.ts';

/**
 * The numbers of an upload file: its first column (Mobile Number, E.164: never quoted), header
 * left out. Null when the file is gone (a launch whose folder was removed counts no contact).
 */
export async function uploadFileNumbers(path: string): Promise<string[] | null> {
  const numbers: string[] = [];
  try {
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    let header = true;
    for await (const line of lines) {
      if (header) {
        header = false;
        continue;
      }
      const comma = line.indexOf(',');
      const first = (comma < 0 ? line : line.slice(0, comma)).replace(/^"|"$/g, '');
      if (first.startsWith('+')) numbers.push(first);
    }
  } catch {
    return null;
  }
  return numbers;
}

export interface OverlapsQuery {
  workspaceId: string;
  /** The contacts about to be called: a stored list, or a file's numbers (the CLI). */
  source: NumberSet;
  /** This campaign's own launch (its draft) is not an overlap. */
  draftId?: string | null;
  /** Nor is this launch (the CLI's own attempt being resumed). */
  launchId?: string | null;
  nowMs: number;
}

/**
 * Contacts of `source` in other launches of the workspace running or run in the last 7 days, in all
 * and per campaign (those with at least one). A launch of a list counts the numbers it sent (valid,
 * not excluded, less the rows the service refused for it); a launch from a file (the CLI) its
 * upload file's.
 */
export async function overlapsOf(db: DbClient, q: OverlapsQuery): Promise<Overlaps> {
  const others = (await db.call('campaigns.launches', { workspaceId: q.workspaceId })).filter(
    (l) => (!q.draftId || l.draft_id !== q.draftId) && l.id !== q.launchId && recentOrRunning(l, q.nowMs),
  );
  const sets: Array<{ launch: (typeof others)[number]; set: NumberSet }> = [];
  for (const l of others) {
    if (l.list_id !== null) sets.push({ launch: l, set: { listId: l.list_id, refusedBy: l.bulk_list_id } });
    else {
      const numbers = await uploadFileNumbers(l.upload_file);
      if (numbers) sets.push({ launch: l, set: { numbers } });
    }
  }
  const { total, byLaunch } = await db.call('campaigns.overlaps', {
    source: q.source,
    launches: sets.map((s) => ({ id: s.launch.id, set: s.set })),
  });
  const contactsOf = new Map(byLaunch.map((b) => [b.id, b.contacts]));
  return {
    contacts: total,
    campaigns: sets
      .map(({ launch: l }) => ({
        launchId: l.id,
        name: l.name,
        serviceId: l.service_id,
        state: l.state,
        contacts: contactsOf.get(l.id) ?? 0,
      }))
      .filter((c) => c.contacts > 0),
  };
}
