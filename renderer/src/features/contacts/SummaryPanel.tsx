import type { ReactNode } from 'react';
import { useId } from 'react';
import { ISSUE, ISSUE_CODES, WARNINGS } from '../../../../shared/domain/contacts/issues.ts';
import type { IssueCode } from '../../../../shared/domain/contacts/issues.ts';
import type { ContactFilter, ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import { Notice } from '../../components/Notice.tsx';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { EmptyVariables } from '../../shared-listAgent/EmptyVariables.tsx';
import { SuppressedSummary } from './SuppressedSummary.tsx';
import { formatCount } from '../../components/format.ts';
import { ISSUE_LABELS } from './labels.ts';

const percent = (n: number, total: number) => (total > 0 ? (n / total) * 100 : 0);

/** Codes that only warn (a landline-only number, a formula cell): the row stays valid. */
const isWarning = (code: IssueCode): boolean => code !== 'duplicate' && (ISSUE[code] & WARNINGS) !== 0;
const WARNING_CODES = ISSUE_CODES.filter(isWarning);

/**
 * A figure that shows its rows in the grid (pressed while that filter is on; again = all rows).
 * Its name is its visible text (WCAG 2.5.3: voice users say what they see); what it does is its
 * description.
 */
function FilterButton({ to, children, hintId }: { to: ContactFilter; children: ReactNode; hintId: string }) {
  const setFilter = useContacts((s) => s.setFilter);
  const filter = useContacts((s) => s.filter);
  return (
    <button
      type="button"
      className="summary-link"
      aria-pressed={filter === to}
      aria-describedby={hintId}
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
  // Warnings do not make a row invalid: they get a list of their own.
  const reasons = ISSUE_CODES.filter((c) => c !== 'duplicate' && !isWarning(c)).map((code) => ({
    code,
    n: counts.issues[code],
    filter: `issue:${code}` as ContactFilter,
  }));
  const maxReason = Math.max(1, ...reasons.map((r) => r.n));
  const hintId = useId();
  const share = (n: number) => `${percent(n, counts.rows).toFixed(1)}%`;

  return (
    <section className="panel summary" aria-labelledby="summary-title">
      <h3 id="summary-title" className="subsection-title">
        Summary
      </h3>
      <p id={hintId} className="visually-hidden">
        Shows these rows in the grid; press again for all rows.
      </p>
      {list.detected.encodingUncertain ? (
        // Before any export or launch: names read with a wrong encoding would be uploaded garbled.
        <Notice tone="warning" title="Encoding uncertain: check the names before uploading" role="status">
          <p data-testid="summary-encoding-uncertain">
            {list.detected.encodingNote ?? 'The file is not UTF-8 and its encoding is a guess.'}
          </p>
        </Notice>
      ) : null}
      <div className="summary-tiles" data-testid="summary">
        {bars.map((b) => (
          <FilterButton key={b.key} to={b.filter} hintId={hintId}>
            <span className={`summary-swatch swatch-${b.key}`} aria-hidden="true" />
            <span className="summary-number" data-count={b.key}>
              {formatCount(b.n)}
            </span>
            <span className="summary-label">{b.label}</span>
          </FilterButton>
        ))}
        <FilterButton to="excluded" hintId={hintId}>
          <span className="summary-swatch swatch-excluded" aria-hidden="true" />
          <span className="summary-number" data-count="excluded">
            {formatCount(counts.excluded)}
          </span>
          <span className="summary-label">Excluded</span>
        </FilterButton>
      </div>
      {/* The charts' text alternative is the table below ("The figures as a table"). */}
      <div className="summary-bar" aria-hidden="true">
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
      <SuppressedSummary list={list} />
      <h4 className="subsection-title">Invalid by reason</h4>
      <ul className="reason-list">
        {reasons.map((r) => (
          <li key={r.code}>
            <FilterButton to={r.filter} hintId={hintId}>
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
      <EmptyVariables list={list} />
      <h4 className="subsection-title">Warnings (rows stay valid)</h4>
      <ul className="reason-list reason-list-warning">
        {WARNING_CODES.map((code) => (
          <li key={code}>
            <FilterButton to={`issue:${code}`} hintId={hintId}>
              <span className="reason-label">{ISSUE_LABELS[code]}</span>
              <span className="reason-bar" aria-hidden="true">
                <span style={{ width: `${percent(counts.issues[code], counts.rows)}%` }} />
              </span>
              <span className="reason-number" data-issue={code}>
                {formatCount(counts.issues[code])}
              </span>
            </FilterButton>
          </li>
        ))}
      </ul>
      <details className="summary-table">
        <summary>The figures as a table</summary>
        <table className="lists-table">
          <caption className="visually-hidden">Rows of the list by outcome and by issue</caption>
          <thead>
            <tr>
              <th scope="col">Rows</th>
              <th scope="col">Count</th>
              <th scope="col">Share of all rows</th>
            </tr>
          </thead>
          <tbody>
            {[
              ...bars.map((b) => ({ key: b.key, label: b.label, n: b.n })),
              { key: 'excluded', label: 'Excluded', n: counts.excluded },
              ...reasons.map((r) => ({ key: r.code, label: `Issue: ${ISSUE_LABELS[r.code]}`, n: r.n })),
              ...WARNING_CODES.map((code) => ({
                key: code,
                label: `Warning: ${ISSUE_LABELS[code]}`,
                n: counts.issues[code],
              })),
            ].map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.label}</th>
                <td>{formatCount(r.n)}</td>
                <td>{share(r.n)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All rows</th>
              <td>{formatCount(counts.rows)}</td>
              <td>100%</td>
            </tr>
          </tfoot>
        </table>
      </details>
    </section>
  );
}
