import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { gridWidth, rowStyle, WindowedGrid } from '../../components/WindowedGrid.tsx';
import type { GridColumn } from '../../components/WindowedGrid.tsx';
import { useWindowedGrid } from '../../components/useWindowedGrid.ts';
import type { WindowCache } from '../../components/windowCache.ts';

const OVERSCAN = 8;

export interface TableColumn<Row> extends GridColumn {
  render: (row: Row) => ReactNode;
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
  const view = useWindowedGrid({ scrollRef, cache, total, rowHeight, overscan: OVERSCAN, version });
  const [active, setActive] = useState(0);

  // A new query (a new cache) starts at the top.
  const [seenCache, setSeenCache] = useState(cache);
  if (seenCache !== cache) {
    setSeenCache(cache);
    setActive(0);
  }
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [cache]);

  const totalWidth = gridWidth(columns);
  const activeIndex = Math.min(active, Math.max(0, total - 1));
  const rowId = (index: number) => `${id}-row${index}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (total === 0 || event.target !== event.currentTarget) return;
    let index = activeIndex;
    switch (event.key) {
      case 'ArrowDown':
        index++;
        break;
      case 'ArrowUp':
        index--;
        break;
      case 'PageDown':
        index += view.pageRows;
        break;
      case 'PageUp':
        index -= view.pageRows;
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
    view.reveal(index);
  };

  const activeRendered = view.isRendered(activeIndex) && cache.get(activeIndex) !== undefined;

  return (
    <>
      {help ? (
        <p className="field-hint" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {cache.error ? <p className="field-error">{cache.error}</p> : null}
      <WindowedGrid
        scrollRef={scrollRef}
        view={view}
        label={label}
        describedBy={help ? `${id}-help` : undefined}
        total={total}
        columns={columns}
        activeDescendant={activeRendered ? rowId(activeIndex) : undefined}
        emptyText="Nothing to show."
        onKeyDown={onKeyDown}
        renderRow={(index) => {
          const row = cache.get(index);
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
              style={{ ...rowStyle(view, index, rowHeight), width: totalWidth }}
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
        }}
      />
    </>
  );
}
