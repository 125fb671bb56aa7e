import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useViewHeight } from '../../components/useViewHeight.ts';
import type { WindowCache } from '../../components/windowCache.ts';
import { scrollGeometry } from '../contacts/scrollGeometry.ts';

const HEADER_HEIGHT = 34;
const OVERSCAN = 8;

export interface TableColumn<Row> {
  key: string;
  label: string;
  width: number;
  numeric?: boolean;
  render: (row: Row) => ReactNode;
  /** Set when the header sorts the table; `sorted` says how it is sorted now. */
  sort?: { sorted: 'ascending' | 'descending' | 'none'; toggle: () => void };
}

/**
 * A table of many rows that live in the back end: only the visible window is rendered and fetched
 * (through a WindowCache). Keyboard: arrows, Page Up/Down, Home/End move the active row; Enter
 * opens it (when the owner can open rows).
 */
export function WindowedTable<Row>({
  label,
  cache,
  total,
  columns,
  rowHeight,
  onOpen,
  rowKey,
  rowClass,
  help,
  version = 0,
}: {
  label: string;
  /** Bumped when the rows behind the table changed: the visible window is fetched again. */
  version?: number;
  cache: WindowCache<Row>;
  total: number;
  columns: Array<TableColumn<Row>>;
  rowHeight: number;
  onOpen?: (row: Row) => void;
  rowKey: (row: Row) => string;
  rowClass?: (row: Row) => string;
  help?: string;
}) {
  const id = useId().replace(/:/g, '');
  const scrollRef = useRef<HTMLDivElement>(null);
  const viewHeight = useViewHeight(scrollRef, 480);
  const [scrollTop, setScrollTop] = useState(0);
  const [active, setActive] = useState(0);
  const [, setTick] = useState(0);
  useEffect(() => cache.subscribe(() => setTick((t) => t + 1)), [cache]);

  // A new query (a new cache) starts at the top.
  const [seenCache, setSeenCache] = useState(cache);
  if (seenCache !== cache) {
    setSeenCache(cache);
    setActive(0);
  }
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [cache]);

  const bodyHeight = Math.max(rowHeight, viewHeight - HEADER_HEIGHT);
  const geometry = useMemo(
    () => scrollGeometry(total, rowHeight, bodyHeight),
    [total, rowHeight, bodyHeight],
  );
  const firstExact = geometry.firstRow(scrollTop);
  const visible = Math.ceil(bodyHeight / rowHeight) + 1;
  const start = Math.max(0, Math.floor(firstExact) - OVERSCAN);
  const end = Math.min(total - 1, Math.floor(firstExact) + visible + OVERSCAN);
  useEffect(() => {
    cache.setVersion(version);
  }, [cache, version]);
  useEffect(() => {
    cache.ensure(start, end);
  }, [cache, start, end, version]);

  const totalWidth = columns.reduce((sum, c) => sum + c.width, 0);
  const activeIndex = Math.min(active, Math.max(0, total - 1));
  const rowId = (index: number) => `${id}-row${index}`;

  const reveal = (index: number) => {
    const el = scrollRef.current;
    if (!el) return;
    const first = geometry.firstRow(el.scrollTop);
    const rowsInView = Math.floor(bodyHeight / rowHeight);
    if (index < first) el.scrollTop = geometry.scrollTopFor(index);
    else if (index > first + rowsInView - 1) el.scrollTop = geometry.scrollTopFor(index - rowsInView + 1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (total === 0 || event.target !== event.currentTarget) return;
    const page = Math.max(1, Math.floor(bodyHeight / rowHeight) - 1);
    let index = activeIndex;
    switch (event.key) {
      case 'ArrowDown':
        index++;
        break;
      case 'ArrowUp':
        index--;
        break;
      case 'PageDown':
        index += page;
        break;
      case 'PageUp':
        index -= page;
        break;
      case 'Home':
        index = 0;
        break;
      case 'End':
        index = total - 1;
        break;
      case 'Enter': {
        const row = cache.get(activeIndex);
        if (row && onOpen) {
          event.preventDefault();
          onOpen(row);
        }
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    index = Math.max(0, Math.min(total - 1, index));
    setActive(index);
    reveal(index);
  };

  const indices: number[] = [];
  for (let i = start; i <= end; i++) indices.push(i);
  const activeRendered = activeIndex >= start && activeIndex <= end && cache.get(activeIndex) !== undefined;

  return (
    <>
      {help ? (
        <p className="field-hint" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {cache.error ? <p className="field-error">{cache.error}</p> : null}
      <div
        ref={scrollRef}
        className="grid-scroll"
        role="grid"
        aria-label={label}
        aria-describedby={help ? `${id}-help` : undefined}
        aria-rowcount={total + 1}
        aria-colcount={columns.length}
        aria-activedescendant={activeRendered ? rowId(activeIndex) : undefined}
        tabIndex={0}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
      >
        <div
          className="grid-canvas"
          style={{ height: geometry.canvasHeight + HEADER_HEIGHT, width: totalWidth }}
        >
          <div className="grid-sticky" style={{ height: viewHeight, width: totalWidth }}>
            <div
              className="grid-row grid-header"
              role="row"
              aria-rowindex={1}
              style={{ height: HEADER_HEIGHT }}
            >
              {columns.map((c, col) => (
                <div
                  key={c.key}
                  role="columnheader"
                  aria-colindex={col + 1}
                  aria-sort={c.sort?.sorted}
                  className={`grid-cell${c.numeric ? ' is-number' : ''}`}
                  style={{ width: c.width }}
                >
                  {c.sort ? (
                    <button type="button" className="sort-button" onClick={c.sort.toggle}>
                      {c.label}
                      <span aria-hidden="true">
                        {c.sort.sorted === 'ascending' ? '▲' : c.sort.sorted === 'descending' ? '▼' : ''}
                      </span>
                    </button>
                  ) : (
                    c.label
                  )}
                </div>
              ))}
            </div>
            <div className="grid-body" style={{ top: HEADER_HEIGHT }}>
              {total === 0 ? <p className="grid-empty muted">Nothing to show.</p> : null}
              {indices.map((index) => {
                const row = cache.get(index);
                const top = (index - firstExact) * rowHeight;
                return (
                  <div
                    key={index}
                    id={rowId(index)}
                    role="row"
                    aria-rowindex={index + 2}
                    aria-selected={index === activeIndex ? true : undefined}
                    className={[
                      'grid-row',
                      onOpen ? 'calls-tr' : '',
                      index === activeIndex ? 'is-active' : '',
                      row && rowClass ? rowClass(row) : '',
                    ]
                      .filter(Boolean)
                      .join(' ')}
                    style={{ transform: `translateY(${top}px)`, height: rowHeight, width: totalWidth }}
                    data-key={row ? rowKey(row) : undefined}
                    onMouseDown={() => setActive(index)}
                    onClick={() => {
                      if (row && onOpen) onOpen(row);
                    }}
                  >
                    {columns.map((c, col) => (
                      <div
                        key={c.key}
                        role="gridcell"
                        aria-colindex={col + 1}
                        className={`grid-cell${c.numeric ? ' is-number' : ''}`}
                        style={{ width: c.width }}
                      >
                        {row ? c.render(row) : <span className="grid-loading" aria-hidden="true" />}
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      </div>
    </>
  );
}
