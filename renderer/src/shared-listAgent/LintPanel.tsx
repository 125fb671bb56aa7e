import { useId } from 'react';
import type { ContactFilter, ContactList } from '../../../shared/ipc/channels/contacts.ts';
import { useContacts } from '../shared-contactList/contactsStore.ts';
import { formatCount } from '../components/format.ts';
import { useListAgent } from './listAgentStore.ts';

/**
 * What would go wrong with this mapping, counted in SQLite by the back end: placeholders without a
 * column, mapped columns empty in some rows to upload (a click shows them in the grid), and columns
 * the prompt never uses (they are not uploaded).
 */
export function LintPanel({ list }: { list: ContactList }) {
  const id = useId();
  const lint = useListAgent((s) => s.lint);
  const filter = useContacts((s) => s.filter);
  const setFilter = useContacts((s) => s.setFilter);

  if (!lint) return <p className="muted">Checking the list against the prompt…</p>;
  const clean = lint.unmapped.length === 0 && lint.emptyColumns.length === 0;

  return (
    <section className="lint-panel" aria-labelledby={`${id}-title`} data-testid="agent-lint">
      <h4 id={`${id}-title`} className="subsection-title">
        Variable check
      </h4>
      {clean ? (
        <p className="lint-ok">
          Every variable has a column with a value in all {formatCount(lint.uploadRows)} rows to upload.
        </p>
      ) : null}
      {lint.unmapped.length > 0 ? (
        <div className="lint-group">
          <p className="lint-title">Placeholders with no column</p>
          <ul className="lint-list">
            {lint.unmapped.map((v) => (
              <li key={v} className="lint-item lint-problem">
                <span className="mono">{v}</span>: every call would have no value for it.
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {lint.emptyColumns.length > 0 ? (
        <div className="lint-group">
          <p className="lint-title">Columns empty in some rows to upload</p>
          <ul className="lint-list">
            {lint.emptyColumns.map((e) => {
              const to = e.filter as ContactFilter;
              const label = `Empty ${e.column}`;
              return (
                <li key={e.variable}>
                  <button
                    type="button"
                    className="summary-link lint-item lint-problem"
                    aria-pressed={filter === to}
                    data-column={e.column}
                    onClick={() =>
                      filter === to
                        ? setFilter('all')
                        : setFilter(to, { filter: to, label, total: e.emptyRows })
                    }
                  >
                    <span>
                      {e.column} is empty in {formatCount(e.emptyRows)} {e.emptyRows === 1 ? 'row' : 'rows'} (
                      <span className="mono">{e.variable}</span>) —{' '}
                      {filter === to ? 'show all rows' : 'show them'}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {lint.unusedColumns.length > 0 ? (
        <div className="lint-group">
          <p className="lint-title">Columns the prompt never uses (not uploaded)</p>
          <p className="muted" data-testid="lint-unused">
            {lint.unusedColumns.join(', ')}
          </p>
        </div>
      ) : null}
      <p className="field-hint">
        Counted over the {formatCount(lint.uploadRows)} rows the upload would carry now (valid, not excluded)
        of {formatCount(list.counts.rows)}.
      </p>
    </section>
  );
}
