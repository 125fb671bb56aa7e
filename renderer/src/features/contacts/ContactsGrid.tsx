import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ContactList, ContactRow } from '../../../../shared/ipc/channels/contacts.ts';
import { toast } from '../../components/toastStore.ts';
import { rowStyle, WindowedGrid } from '../../components/WindowedGrid.tsx';
import { useWindowedGrid } from '../../components/useWindowedGrid.ts';
import { desk } from '../../desk/desk.ts';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { FILTER_OPTIONS, filterTotal } from './filters.ts';
import { formatCount } from '../../components/format.ts';
import { ISSUE_LABELS } from './labels.ts';
import { useListAgent } from '../../shared-listAgent/listAgentStore.ts';
import { RowCache } from './rowCache.ts';
import { rowIssues } from './rowIssues.ts';
import { ContactCell } from './ContactCell.tsx';
import type { ContactColumn } from './ContactCell.tsx';

const ROW_HEIGHT = 32;
const OVERSCAN = 10;

interface Editing {
  index: number;
  col: number;
  value: string;
}

/**
 * The rows of a list, a window at a time from SQLite (keyset-paged by the back end), in a grid
 * that scrolls through millions of rows. Keyboard: arrows, Page Up/Down, Home/End move; Enter or
 * F2 edits a cell (Enter saves, Escape cancels); Space on the Row or Status column excludes or
 * includes the row; Enter on a duplicate's Status cell goes to the row it repeats.
 */
export function ContactsGrid({ list }: { list: ContactList }) {
  const filter = useContacts((s) => s.filter);
  const setFilter = useContacts((s) => s.setFilter);
  const version = useContacts((s) => s.version);
  const focusRow = useContacts((s) => s.focusRow);
  const applyList = useContacts((s) => s.applyList);
  const jumpTo = useContacts((s) => s.jumpTo);
  const filterExtra = useContacts((s) => s.filterExtra);
  const gridId = useId().replace(/:/g, '');
  const [active, setActive] = useState({ index: 0, col: 3 });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const cache = useMemo(
    () => new RowCache(list.id, filter, (r) => desk().contacts.rows(r)),
    [list.id, filter],
  );
  // A filter outside the list's counts (an empty column) starts from the lint's count, then follows
  // the back end's count as pages arrive (it moves with edits).
  const extra = filterExtra?.filter === filter ? filterExtra : null;
  const total = extra ? (cache.total ?? extra.total) : filterTotal(list.counts, filter);

  const header = list.detected.header;
  const phoneIndex = header.indexOf(list.detected.phoneColumn);
  const columns: ContactColumn[] = useMemo(
    () => [
      { key: 'row', label: 'Row', width: 76, cell: -1 },
      { key: 'status', label: 'Status', width: 320, cell: -1 },
      { key: 'e164', label: 'E.164', width: 150, cell: -1 },
      ...header.map((h, i) => ({
        key: `c${i}`,
        label: i === phoneIndex ? `${h || `Column ${i + 1}`} (phone)` : h || `Column ${i + 1}`,
        width: i === phoneIndex ? 170 : 160,
        cell: i,
      })),
    ],
    [header, phoneIndex],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const view = useWindowedGrid({
    scrollRef,
    cache,
    total,
    rowHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
    version,
  });
  const { geometry, rowsInView } = view;

  // A jump (to the row a duplicate repeats) makes that row active; a new filter or list starts at
  // the top. (State adjusted while rendering, as React recommends for state that follows props.)
  const [seen, setSeen] = useState({ focusRow, filter, listId: list.id });
  if (seen.focusRow !== focusRow || seen.filter !== filter || seen.listId !== list.id) {
    setSeen({ focusRow, filter, listId: list.id });
    if (focusRow && focusRow !== seen.focusRow) setActive((a) => ({ index: focusRow.index, col: a.col }));
    else if (seen.filter !== filter || seen.listId !== list.id) setActive((a) => ({ index: 0, col: a.col }));
  }
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !focusRow) return;
    el.scrollTop = geometry.scrollTopFor(Math.max(0, focusRow.index - rowsInView / 2));
    el.focus();
  }, [focusRow, geometry, rowsInView]);
  useEffect(() => {
    const el = scrollRef.current;
    if (el && !useContacts.getState().focusRow) el.scrollTop = 0;
  }, [filter, list.id]);

  const activeIndex = Math.min(active.index, Math.max(0, total - 1));
  // The prompt preview shows the row the operator moves to in the grid.
  const previewFollows = useRef(false);
  useEffect(() => {
    if (!previewFollows.current) {
      previewFollows.current = true;
      return;
    }
    const agent = useListAgent.getState();
    if (agent.agentId && agent.previewFilter === filter && agent.pos !== activeIndex)
      void agent.showRow(activeIndex);
  }, [activeIndex, filter]);
  const cellId = (index: number, col: number) => `${gridId}-r${index}-c${col}`;

  const toggleExcluded = async (row: ContactRow) => {
    const result = await desk().contacts.setExcluded({
      listId: list.id,
      rows: [row.row],
      excluded: !row.excluded,
    });
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    cache.patch([{ ...row, excluded: !row.excluded }]);
    applyList(result.value.list);
    setAnnouncement(`Row ${row.row} ${row.excluded ? 'included again' : 'excluded from both files'}.`);
  };

  const save = async (edit: Editing) => {
    const row = cache.get(edit.index);
    const column = columns[edit.col];
    if (!row || !column || column.cell < 0) return;
    setSaving(true);
    const result = await desk().contacts.editCell({
      listId: list.id,
      row: row.row,
      column: column.cell,
      value: edit.value,
    });
    setSaving(false);
    setEditing(null);
    scrollRef.current?.focus();
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    cache.patch(result.value.changed);
    applyList(result.value.list);
    const after = result.value.changed.find((r) => r.row === row.row);
    if (after) {
      const others = result.value.changed.length - 1;
      setAnnouncement(
        `Row ${after.row} is now ${after.bucket}${after.issues.length ? ` (${after.issues.map((c) => ISSUE_LABELS[c]).join(', ')})` : ''}` +
          (others > 0
            ? `; ${formatCount(others)} other row${others === 1 ? '' : 's'} with the same number changed too.`
            : '.'),
      );
    }
  };

  const startEditing = (index: number, col: number) => {
    const row = cache.get(index);
    const column = columns[col];
    if (!row || !column || column.cell < 0) return;
    setEditing({ index, col, value: row.cells[column.cell] ?? '' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing || total === 0) return;
    const { pageRows } = view;
    let { index, col } = { index: activeIndex, col: active.col };
    switch (event.key) {
      case 'ArrowDown':
        index++;
        break;
      case 'ArrowUp':
        index--;
        break;
      case 'ArrowRight':
        col++;
        break;
      case 'ArrowLeft':
        col--;
        break;
      case 'PageDown':
        index += pageRows;
        break;
      case 'PageUp':
        index -= pageRows;
        break;
      case 'Home':
        if (event.ctrlKey) index = 0;
        else col = 0;
        break;
      case 'End':
        if (event.ctrlKey) index = total - 1;
        else col = columns.length - 1;
        break;
      case 'Enter':
      case 'F2': {
        event.preventDefault();
        const row = cache.get(index);
        if (columns[col]?.key === 'status' && row && row.duplicateOf > 0) void jumpTo(row.duplicateOf);
        else startEditing(index, col);
        return;
      }
      case ' ': {
        const key = columns[col]?.key;
        const row = cache.get(index);
        if ((key === 'row' || key === 'status') && row) {
          event.preventDefault();
          void toggleExcluded(row);
        }
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    index = Math.max(0, Math.min(total - 1, index));
    col = Math.max(0, Math.min(columns.length - 1, col));
    setActive({ index, col });
    view.reveal(index);
    const el = scrollRef.current;
    const column = document.getElementById(cellId(index, col));
    if (el && column) {
      // Keep the active column in view horizontally.
      const left = columns.slice(0, col).reduce((s, c) => s + c.width, 0);
      const width = columns[col]?.width ?? 0;
      if (left < el.scrollLeft) el.scrollLeft = left;
      else if (left + width > el.scrollLeft + el.clientWidth) el.scrollLeft = left + width - el.clientWidth;
    }
  };

  const activeRendered = view.isRendered(activeIndex);
  const filterLabel = extra?.label ?? FILTER_OPTIONS.find((o) => o.value === filter)?.label ?? filter;

  return (
    <section className="panel grid-section" aria-labelledby={`${gridId}-title`}>
      <div className="grid-toolbar">
        <h3 id={`${gridId}-title`} className="subsection-title">
          Rows
        </h3>
        <label className="grid-filter">
          <span>Show</span>
          <select
            className="select"
            value={filter}
            onChange={(e) => setFilter(e.target.value as typeof filter)}
            aria-label="Show rows"
          >
            {FILTER_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label} ({formatCount(filterTotal(list.counts, o.value))})
              </option>
            ))}
            {extra ? (
              <option value={extra.filter}>
                {extra.label} ({formatCount(total)})
              </option>
            ) : null}
          </select>
        </label>
        <span className="muted" data-testid="grid-total">
          {formatCount(total)} {total === 1 ? 'row' : 'rows'}
        </span>
      </div>
      <p className="field-hint" id={`${gridId}-help`}>
        Arrow keys move; Enter or F2 edits a cell (Enter saves, Escape cancels); Space on Row or Status
        excludes or includes the row; Enter on a duplicate&apos;s Status goes to the row it repeats.
      </p>
      {cache.error ? <p className="field-error">{cache.error}</p> : null}
      <WindowedGrid
        scrollRef={scrollRef}
        view={view}
        label={`Contacts: ${filterLabel}`}
        describedBy={`${gridId}-help`}
        total={total}
        columns={columns}
        activeDescendant={activeRendered && !editing ? cellId(activeIndex, active.col) : undefined}
        emptyText="No rows to show."
        onKeyDown={onKeyDown}
        renderRow={(index) => {
          const row = cache.get(index);
          const issues = row ? rowIssues(row, list) : null;
          const classes = [
            'grid-row',
            row ? `bucket-${row.bucket}` : 'grid-row-loading',
            row?.excluded ? 'is-excluded' : '',
            focusRow && row?.row === focusRow.row ? 'is-target' : '',
            index === activeIndex ? 'is-active-row' : '',
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <div
              key={index}
              role="row"
              aria-rowindex={index + 2}
              className={classes}
              style={rowStyle(view, index, ROW_HEIGHT)}
              data-row={row?.row}
            >
              {columns.map((c, col) => {
                const isActive = index === activeIndex && col === active.col;
                const isEditing = editing !== null && editing.index === index && editing.col === col;
                const cellIssue = c.cell >= 0 ? issues?.cells.get(c.cell) : undefined;
                return (
                  <div
                    key={c.key}
                    id={cellId(index, col)}
                    role="gridcell"
                    aria-colindex={col + 1}
                    aria-readonly={c.cell < 0 ? true : undefined}
                    className={[
                      'grid-cell',
                      `col-${c.key}`,
                      c.cell === phoneIndex ? 'is-phone' : '',
                      isActive ? 'is-active' : '',
                      cellIssue ? 'has-issue' : '',
                      cellIssue && issues?.warnings.has(c.cell) ? 'has-warning' : '',
                    ]
                      .filter(Boolean)
                      .join(' ')}
                    style={{ width: c.width }}
                    onMouseDown={() => setActive({ index, col })}
                    onDoubleClick={() => startEditing(index, col)}
                  >
                    {isEditing ? (
                      <input
                        className="grid-input"
                        aria-label={`${c.label}, row ${row?.row ?? ''}`}
                        value={editing.value}
                        disabled={saving}
                        autoFocus
                        onChange={(e) => setEditing({ ...editing, value: e.target.value })}
                        onKeyDown={(e) => {
                          e.stopPropagation();
                          if (e.key === 'Enter') {
                            e.preventDefault();
                            void save(editing);
                          } else if (e.key === 'Escape') {
                            e.preventDefault();
                            setEditing(null);
                            scrollRef.current?.focus();
                          }
                        }}
                        onBlur={() => {
                          if (!saving) setEditing(null);
                        }}
                      />
                    ) : (
                      <ContactCell
                        column={c}
                        row={row}
                        issues={issues}
                        onJump={(r) => void jumpTo(r)}
                        onToggle={(r) => void toggleExcluded(r)}
                      />
                    )}
                  </div>
                );
              })}
            </div>
          );
        }}
      />
      <p className="visually-hidden live-region" role="status" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}
