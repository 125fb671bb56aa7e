import { useEffect, useState } from 'react';
import { REASON_TEXT } from '../../../../shared/domain/suppression.ts';
import type { SuppressionReason } from '../../../../shared/domain/suppression.ts';
import type { ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import { desk } from '../../desk/desk.ts';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { formatCount } from '../../components/format.ts';

export const SUPPRESSED_LABEL = 'Do not call (held back)';

/**
 * The list's rows held back by the do-not-call list (issue `suppressed`), per reason; pressing it
 * shows them in the grid. Counted by the back end, again whenever the do-not-call list changes
 * (the grid refetches then too).
 */
export function SuppressedSummary({ list }: { list: ContactList }) {
  const [check, setCheck] = useState<{
    total: number;
    byReason: Partial<Record<SuppressionReason, number>>;
  } | null>(null);
  const filter = useContacts((s) => s.filter);
  const setFilter = useContacts((s) => s.setFilter);
  const revision = list.updatedAt;
  useEffect(() => {
    let live = true;
    const load = async () => {
      const r = await desk().suppression.listCheck({ listId: list.id });
      if (live && r.ok) setCheck(r.value);
    };
    void load();
    const off = desk().on('suppression:changed', () => {
      void load();
      // The grid's rows carry the chip: its window is read again.
      useContacts.setState((s) => ({ version: s.version + 1 }));
    });
    return () => {
      live = false;
      off();
    };
  }, [list.id, revision]);
  if (!check) return null;
  const reasons = Object.entries(check.byReason) as Array<[SuppressionReason, number]>;
  return (
    <div className="summary-suppressed" data-testid="summary-suppressed">
      <button
        type="button"
        className="summary-link"
        aria-pressed={filter === 'suppressed'}
        onClick={() =>
          filter === 'suppressed'
            ? setFilter('all')
            : setFilter('suppressed', { filter: 'suppressed', label: SUPPRESSED_LABEL, total: check.total })
        }
      >
        <span className="summary-number" data-count="suppressed">
          {formatCount(check.total)}
        </span>{' '}
        <span className="summary-label">held back: on the do-not-call list (never uploaded)</span>
      </button>
      {reasons.length > 0 ? (
        <ul className="reason-list" aria-label="Held back by reason">
          {reasons.map(([reason, n]) => (
            <li key={reason} data-reason={reason}>
              {REASON_TEXT[reason]}: {formatCount(n)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
