import type { CSSProperties, KeyboardEvent, ReactNode, RefObject } from 'react';
import { GRID_HEADER_HEIGHT } from './useWindowedGrid.ts';
import type { WindowedGridView } from './useWindowedGrid.ts';

export interface GridColumn {
  key: string;
  label: string;
  width: number;
  numeric?: boolean;
  /** Set when the header sorts the grid; `sorted` says how it is sorted now. */
  sort?: { sorted: 'ascending' | 'descending' | 'none'; toggle: () => void };
}

/**
 * The frame of a windowed grid (useWindowedGrid.ts): one focusable element with role grid, a
 * sticky header row and the rendered rows, each placed by `rowStyle`. Row 1 is the header, so the
 * data rows' aria-rowindex starts at 2 and aria-rowcount is the total plus one.
 */
export function WindowedGrid({
  scrollRef,
  view,
  label,
  describedBy,
  total,
  columns,
  activeDescendant,
  emptyText,
  onKeyDown,
  renderRow,
}: {
  scrollRef: RefObject<HTMLDivElement | null>;
  view: WindowedGridView;
  label: string;
  describedBy: string | undefined;
  total: number;
  columns: readonly GridColumn[];
  activeDescendant: string | undefined;
  emptyText: string;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  renderRow: (index: number) => ReactNode;
}) {
  const totalWidth = gridWidth(columns);
  return (
    <div
      ref={scrollRef}
      className="grid-scroll"
      role="grid"
      aria-label={label}
      aria-describedby={describedBy}
      aria-rowcount={total + 1}
      aria-colcount={columns.length}
      aria-activedescendant={activeDescendant}
      tabIndex={0}
      onScroll={view.onScroll}
      onKeyDown={onKeyDown}
    >
      <div
        className="grid-canvas"
        style={{ height: view.geometry.canvasHeight + GRID_HEADER_HEIGHT, width: totalWidth }}
      >
        <div className="grid-sticky" style={{ height: view.viewHeight, width: totalWidth }}>
          <div
            className="grid-row grid-header"
            role="row"
            aria-rowindex={1}
            style={{ height: GRID_HEADER_HEIGHT }}
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
          <div className="grid-body" style={{ top: GRID_HEADER_HEIGHT }}>
            {total === 0 ? <p className="grid-empty muted">{emptyText}</p> : null}
            {view.indices.map((index) => renderRow(index))}
          </div>
        </div>
      </div>
    </div>
  );
}

export const gridWidth = (columns: readonly GridColumn[]): number =>
  columns.reduce((sum, c) => sum + c.width, 0);

/** Where a data row sits: moved by transform inside the sticky body. */
export const rowStyle = (view: WindowedGridView, index: number, height: number): CSSProperties => ({
  transform: `translateY(${view.rowTop(index)}px)`,
  height,
});
