import type { ContactRow } from '../../../../shared/ipc/channels/contacts.ts';
import { showBidiControls } from '../../../../shared/domain/visibleText.ts';
import { AlertIcon, ErrorIcon } from '../../components/icons.tsx';
import type { GridColumn } from '../../components/WindowedGrid.tsx';
import type { RowIssues } from './rowIssues.ts';

export interface ContactColumn extends GridColumn {
  /** Index into the row's cells for the file's own columns (editable), else -1. */
  cell: number;
}

/** What a cell of the contacts grid shows when it is not being edited. */
export function ContactCell({
  column,
  row,
  issues,
  onJump,
  onToggle,
}: {
  column: ContactColumn;
  row: ContactRow | undefined;
  issues: RowIssues | null;
  onJump: (row: number) => void;
  onToggle: (row: ContactRow) => void;
}) {
  if (!row) return <span className="grid-loading" aria-hidden="true" />;
  switch (column.key) {
    case 'row':
      return (
        <span className="row-number">
          {row.row}
          {row.edited ? (
            <span className="chip chip-edited" title="Edited">
              edited
            </span>
          ) : null}
        </span>
      );
    case 'status':
      return (
        <span className="status-cell">
          <span className={`badge-bucket bucket-${row.bucket}`}>
            {row.excluded
              ? 'Excluded'
              : row.bucket === 'valid'
                ? 'Valid'
                : row.bucket === 'invalid'
                  ? 'Invalid'
                  : 'Duplicate'}
          </span>
          {issues?.chips.map((chip) => (
            <span key={chip.text} className={`chip chip-${chip.code}`} title={chip.detail}>
              {chip.text}
            </span>
          ))}
          {row.duplicateOf > 0 ? (
            <button
              type="button"
              tabIndex={-1}
              className="link-button"
              onClick={() => onJump(row.duplicateOf)}
            >
              of row {row.duplicateOf}
            </button>
          ) : null}
          <button
            type="button"
            tabIndex={-1}
            className="link-button exclude-toggle"
            onClick={() => onToggle(row)}
          >
            {row.excluded ? 'include' : 'exclude'}
          </button>
        </span>
      );
    case 'e164':
      return row.e164 ? <span className="mono">{row.e164}</span> : <span className="muted">—</span>;
    default: {
      // Bidi controls shown by name (⟨RLO⟩): a cell reads as what it holds (visibleText.ts).
      const raw = row.cells[column.cell];
      const value = raw === undefined ? raw : showBidiControls(raw);
      const problem = issues?.cells.get(column.cell);
      if (problem) {
        // Marked by an icon, words and a dashed frame (CSS), not by colour alone.
        const empty = value === undefined || value.trim() === '';
        return (
          <span className="cell-issue" title={problem}>
            {issues?.warnings.has(column.cell) ? (
              <AlertIcon size={13} className="cell-issue-icon" />
            ) : (
              <ErrorIcon size={13} className="cell-issue-icon" />
            )}
            {empty ? (
              <em className="cell-issue-text">missing</em>
            ) : (
              <span className="cell-issue-value">{value}</span>
            )}
            <span className="visually-hidden"> ({problem})</span>
          </span>
        );
      }
      if (value === undefined)
        return (
          <span className="muted" title="This row has no such cell">
            ∅
          </span>
        );
      return <span title={value.length > 20 ? value : undefined}>{value}</span>;
    }
  }
}
