// A launched campaign's results page and the follow-up list made from them (calls:campaign-results,
// calls:follow-up-list): both need the campaign to have been launched from a contact list here.
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { toContactList } from '../contacts/listView.ts';
import type { DbClient } from '../db/client.ts';

const notLaunchedHere = (bulkListId: string) =>
  new DeskFailure('not_found', `Campaign ${bulkListId} was not launched from a contact list here.`);

export async function campaignResults(
  db: DbClient,
  a: { workspaceId: string; bulkListId: string; outcomes?: string[]; offset: number; limit: number },
) {
  const r = await db.call('calls.campaignResults', a);
  if (!r) throw notLaunchedHere(a.bulkListId);
  return { bulkListId: a.bulkListId, ...r };
}

/** A new contact list of the rows with the chosen outcomes; none is kept when no row has them. */
export async function followUpList(
  db: DbClient,
  a: { workspaceId: string; bulkListId: string; outcomes: string[]; name: string },
) {
  const r = await db.call('calls.followUpList', { ...a, now: new Date().toISOString() });
  if (!r) throw notLaunchedHere(a.bulkListId);
  if (r.rows === 0) {
    await db.call('contacts.removeList', { listId: r.list.id });
    throw new DeskFailure('invalid_request', 'No contact has the chosen outcomes: no list was made.');
  }
  return { list: toContactList(r.list), rows: r.rows };
}
