// Contacts shared between a list (or an upload file) and other launches' contacts.
import { txQuery } from '../db/define.ts';
import { ensureNumbers } from '../contacts/rowStore.ts';

/**
 * Whose contacts: a stored list's (the rows it sends: valid, not excluded, and, for a launched list,
 * not refused by the service for that launch's `refusedBy` bulk list) or an upload file's numbers.
 */
export type NumberSet = { listId: number; refusedBy?: string | null } | { numbers: readonly string[] };

/**
 * A subquery of a set's numbers (column e164, stored as the digits' integer: `+919876543210` is
 * 919876543210, 15 digits at most, exact in a double) and its parameters.
 */
const numberSetSql = (set: NumberSet): [string, Array<number | string>] =>
  'listId' in set
    ? [
        `SELECT n.e164 FROM contact_numbers n
           JOIN contacts c ON c.list_id = n.list_id AND c.row = n.row
         WHERE n.list_id = ? AND c.bucket = 0 AND c.excluded = 0
           AND NOT EXISTS (SELECT 1 FROM contact_refusals r
                           WHERE r.list_id = n.list_id AND r.row = n.row AND r.bulk_list_id = ?)`,
        [set.listId, set.refusedBy ?? ''],
      ]
    : [
        'SELECT value AS e164 FROM json_each(?)',
        [JSON.stringify(set.numbers.flatMap((n) => (/^\+\d{1,15}$/.test(n) ? [Number(n.slice(1))] : [])))],
      ];
export const campaignOverlapQueries = {
  /**
   * Contacts (distinct E.164) of a list or a file that are also in other launches' contacts, per
   * launch and in all. A side is a stored list (its number index) or the numbers of an upload file
   * (the CLI's launches). The launches are chosen by the caller (running or recent); their lists may
   * be gone (then none).
   */
  'campaigns.overlaps': txQuery(
    (db, a: { source: NumberSet; launches: Array<{ id: string; set: NumberSet }> }) => {
      // A list just imported may still owe its number index (migration 0100): build it first.
      for (const set of [a.source, ...a.launches.map((l) => l.set)])
        if ('listId' in set) ensureNumbers(db, set.listId);
      const [source, sourceArgs] = numberSetSql(a.source);
      const count = (sets: NumberSet[]): number => {
        if (sets.length === 0) return 0;
        const parts = sets.map(numberSetSql);
        return (
          (db
            .prepare(
              `SELECT count(DISTINCT s.e164) FROM (${source}) s
               WHERE s.e164 IN (${parts.map(([sql]) => sql).join(' UNION ')})`,
            )
            .pluck()
            .get(...sourceArgs, ...parts.flatMap(([, args]) => args)) as number | undefined) ?? 0
        );
      };
      const byLaunch = a.launches.map((l) => ({ id: l.id, contacts: count([l.set]) }));
      return { total: count(a.launches.map((l) => l.set)), byLaunch };
    },
  ),
};
