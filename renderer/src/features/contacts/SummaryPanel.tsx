import type { ReactNode } from 'react';
import { ISSUE_CODES } from '../../../../shared/domain/contacts/issues.ts';
import type { ContactFilter, ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import { useContacts } from './contactsStore.ts';
import { formatCount, ISSUE_LABELS } from './formatNumbers.ts';

const percent = (n: number, total: number) => (total > 0 ? (n / total) * 100 : 0);

/** A figure that shows its rows in the grid (pressed while that filter is on; again = all rows). */
function FilterButton({ to, children, label }: { to: ContactFilter; children: ReactNode; label: string }) {
  const setFilter = useContacts((s) => s.setFilter);
  const filter = useContacts((s) => s.filter);
  return (
    <button
      type="button"
      className="summary-link"
      aria-pressed={filter === to}
      aria-label={label}
      onClick={() => setFilter(filter === to ? 'all' : to)}
    >
      {children}
    </button>
  );
}

/** Valid / invalid (by reason) / duplicates / excluded, as numbers and a small bar chart; each filters the grid. */
export function SummaryPanel({ list }: { list: ContactList }) {
  const { counts } = list;
  const bars: Array<{ key: string; label: string; n: number; filter: ContactFilter }> = [
    { key: 'valid', label: 'Valid', n: counts.valid, filter: 'bucket:valid' },
    { key: 'invalid', label: 'Invalid', n: counts.invalid, filter: 'bucket:invalid' },
    { key: 'duplicate', label: 'Duplicates', n: counts.duplicates, filter: 'bucket:duplicate' },
  ];
  const reasons = ISSUE_CODES.filter((c) => c !== 'duplicate').map((code) => ({
    code,
    n: counts.issues[code],
    filter: `issue:${code}` as ContactFilter,
  }));
  const maxReason = Math.max(1, ...reasons.map((r) => r.n));

  return (
    <section className="panel summary" aria-labelledby="summary-title">
      <h3 id="summary-title" className="subsection-title">
        Summary
      </h3>
      <div className="summary-tiles" data-testid="summary">
        {bars.map((b) => (
          <FilterButton key={b.key} to={b.filter} label={`${b.label}: ${formatCount(b.n)} rows (show them)`}>
            <span className={`summary-swatch swatch-${b.key}`} aria-hidden="true" />
            <span className="summary-number" data-count={b.key}>
              {formatCount(b.n)}
            </span>
            <span className="summary-label">{b.label}</span>
          </FilterButton>
        ))}
        <FilterButton to="excluded" label={`Excluded: ${formatCount(counts.excluded)} rows (show them)`}>
          <span className="summary-swatch swatch-excluded" aria-hidden="true" />
          <span className="summary-number" data-count="excluded">
            {formatCount(counts.excluded)}
          </span>
          <span className="summary-label">Excluded</span>
        </FilterButton>
      </div>
      <div
        className="summary-bar"
        role="img"
        aria-label={`${formatCount(counts.valid)} valid, ${formatCount(counts.invalid)} invalid, ${formatCount(counts.duplicates)} duplicates`}
      >
        {bars.map((b) =>
          b.n > 0 ? (
            <span
              key={b.key}
              className={`summary-bar-part swatch-${b.key}`}
              style={{ width: `${percent(b.n, counts.rows)}%` }}
            />
          ) : null,
        )}
      </div>
      <p className="muted summary-export-line">
        Export now: <strong data-count="upload">{formatCount(counts.upload)}</strong> rows to upload,{' '}
        <strong data-count="rejects">{formatCount(counts.rejects)}</strong> rejected rows
        {counts.edited > 0 ? ` · ${formatCount(counts.edited)} edited` : ''}.
      </p>
      <h4 className="subsection-title">Invalid by reason</h4>
      <ul className="reason-list">
        {reasons.map((r) => (
          <li key={r.code}>
            <FilterButton
              to={r.filter}
              label={`${ISSUE_LABELS[r.code]}: ${formatCount(r.n)} rows (show them)`}
            >
              <span className="reason-label">{ISSUE_LABELS[r.code]}</span>
              <span className="reason-bar" aria-hidden="true">
                <span style={{ width: `${percent(r.n, maxReason)}%` }} />
              </span>
              <span className="reason-number" data-issue={r.code}>
                {formatCount(r.n)}
              </span>
            </FilterButton>
          </li>
        ))}
      </ul>
    </section>
  );
}
