import { useId, useState } from 'react';
import { emptyFilterColumns } from '../../../shared/ipc/channels/contacts.ts';
import type { ContactFilter, ContactList, EmptyColumnFilter } from '../../../shared/ipc/channels/contacts.ts';
import { rowsServiceWillDrop } from '../../../shared/domain/serviceRefusals.ts';
import { Button } from '../components/Button.tsx';
import { toast } from '../components/toastStore.ts';
import { desk } from '../desk/desk.ts';
import { useContacts } from '../shared-contactList/contactsStore.ts';
import { formatCount } from '../components/format.ts';
import { useListAgent } from './listAgentStore.ts';

const rows = (n: number) => `${formatCount(n)} ${n === 1 ? 'row' : 'rows'}`;

/**
 * Rows whose mapped variable is empty, for the agent chosen for the list: the service refuses each
 * of them ("<Column> is empty (needed for <variable>)"). Counted per variable and in all (each row
 * once), each figure filters the grid, a variable can be marked optional (its empty cells are sent
 * as "-" and block nothing), and the rows leave the upload in one click (Undo puts them back).
 * `filters`: the figures filter the contacts grid (Contacts); off in the campaign builder.
 */
export function EmptyVariables({ list, filters = true }: { list: ContactList; filters?: boolean }) {
  const id = useId();
  const lint = useListAgent((s) => (s.listId === list.id ? s.lint : null));
  const agentId = useListAgent((s) => (s.listId === list.id ? s.agentId : null));
  const refresh = useListAgent((s) => s.refresh);
  const setOptional = useListAgent((s) => s.setOptional);
  const mappingBusy = useListAgent((s) => s.busy);
  const filter = useContacts((s) => s.filter);
  const setFilter = useContacts((s) => s.setFilter);
  const [busy, setBusy] = useState<'exclude' | 'undo' | null>(null);
  const [undoable, setUndoable] = useState(false);

  if (!agentId || !lint) return null;
  const drop = rowsServiceWillDrop(lint);
  const show = (to: string, label: string, total: number) => {
    const f = to as ContactFilter;
    if (filter === f) setFilter('all');
    else setFilter(f, { filter: f, label, total });
  };
  const afterChange = (changed: ContactList) => {
    if (useContacts.getState().list?.id === changed.id) useContacts.getState().applyList(changed);
    void refresh();
  };
  const exclude = async () => {
    if (!lint.refusalFilter) return;
    setBusy('exclude');
    const columns = emptyFilterColumns(lint.refusalFilter as EmptyColumnFilter);
    const result = await desk().contacts.bulk({ listId: list.id, action: 'exclude-empty', columns });
    setBusy(null);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    afterChange(result.value.list);
    if (result.value.cancelled) toast.info('Cancelled: the list is as it was before.');
    else {
      setUndoable(true);
      toast.success(`Excluded ${rows(result.value.affected)} with an empty variable`);
    }
  };
  const undo = async () => {
    setBusy('undo');
    const result = await desk().contacts.undo({ listId: list.id });
    setBusy(null);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    setUndoable(false);
    afterChange(result.value.list);
    toast.success(`Undone: ${result.value.undone}`);
  };

  return (
    <div className="lint-group" data-testid="empty-variables" aria-labelledby={`${id}-title`} role="group">
      <p id={`${id}-title`} className="lint-title">
        Empty variables (the service refuses these rows)
      </p>
      {lint.emptyColumns.length === 0 ? (
        <p className="lint-ok">Every mapped variable has a value in all {rows(lint.uploadRows)} to upload.</p>
      ) : (
        <ul className="lint-list">
          {lint.emptyColumns.map((e) => (
            <li key={e.variable} className="inline-controls" data-variable={e.variable}>
              {filters ? (
                <button
                  type="button"
                  className="summary-link lint-item lint-problem"
                  aria-pressed={filter === e.filter}
                  onClick={() => show(e.filter, `Empty ${e.column}`, e.emptyRows)}
                >
                  Variable missing: {e.variable} ({e.column}){' '}
                  <span className="reason-number" data-empty-variable={e.variable}>
                    {formatCount(e.emptyRows)}
                  </span>
                </button>
              ) : (
                <span className="lint-item lint-problem">
                  Variable missing: {e.variable} ({e.column}){' '}
                  <span data-empty-variable={e.variable}>{formatCount(e.emptyRows)}</span>
                </span>
              )}
              <label>
                <input
                  type="checkbox"
                  checked={e.optional}
                  disabled={mappingBusy}
                  onChange={(ev) => void setOptional(e.variable, ev.target.checked)}
                />{' '}
                Optional (send "-" when empty)
              </label>
            </li>
          ))}
        </ul>
      )}
      <p data-testid="service-will-refuse">
        {drop > 0 ? (
          filters && lint.refusalFilter ? (
            <button
              type="button"
              className="summary-link"
              aria-pressed={filter === lint.refusalFilter}
              onClick={() => show(lint.refusalFilter as string, 'Rows the service will refuse', drop)}
            >
              The service will refuse <strong data-count="service-refusals">{formatCount(drop)}</strong>{' '}
              {drop === 1 ? 'row' : 'rows'} of the upload
            </button>
          ) : (
            <>
              The service will refuse <strong data-count="service-refusals">{formatCount(drop)}</strong>{' '}
              {drop === 1 ? 'row' : 'rows'} of the upload
            </>
          )
        ) : (
          <>
            The service will refuse <strong data-count="service-refusals">0</strong> rows of the upload.
          </>
        )}
      </p>
      <div className="action-row">
        <Button
          busy={busy === 'exclude'}
          disabled={busy !== null || drop === 0}
          onClick={() => void exclude()}
        >
          {`Exclude ${rows(drop)} with an empty variable`}
        </Button>
        {undoable ? (
          <Button busy={busy === 'undo'} disabled={busy !== null} onClick={() => void undo()}>
            Undo the exclusion
          </Button>
        ) : null}
      </div>
    </div>
  );
}
