// The window of a big grid whose rows live in the back end: which rows are in view (with an
// overscan), where each one sits, and the fetch of that window through a WindowCache. The grid's
// owner keeps its keyboard and its cells; WindowedGrid.tsx draws the frame.
import type { RefObject, UIEvent } from 'react';
import { useEffect, useMemo, useState } from 'react';
import { scrollGeometry } from './scrollGeometry.ts';
import type { ScrollGeometry } from './scrollGeometry.ts';
import { useViewHeight } from './useViewHeight.ts';
import type { WindowCache } from './windowCache.ts';

export const GRID_HEADER_HEIGHT = 34;

export interface WindowedGridView {
  viewHeight: number;
  geometry: ScrollGeometry;
  /** Rows that fit the body at once (whole rows), and the rows a Page Up/Down moves. */
  rowsInView: number;
  pageRows: number;
  /** The indices to render: the view and the overscan on both sides. */
  indices: number[];
  /** Whether row `index` is among the rendered ones. */
  isRendered: (index: number) => boolean;
  /** The row's offset from the top of the body (rows scroll by transform, not by layout). */
  rowTop: (index: number) => number;
  /** Scrolls (as little as it can) so row `index` is in view; the scroll event updates the view. */
  reveal: (index: number) => void;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
}

/** `scrollRef` goes on the grid's scrolling element (WindowedGrid's `scrollRef`). */
export function useWindowedGrid<Row>({
  scrollRef,
  cache,
  total,
  rowHeight,
  overscan,
  version,
}: {
  scrollRef: RefObject<HTMLDivElement | null>;
  cache: WindowCache<Row>;
  total: number;
  rowHeight: number;
  overscan: number;
  /** Bumped when the rows behind the grid changed: the visible window is fetched again. */
  version: number;
}): WindowedGridView {
  const viewHeight = useViewHeight(scrollRef, 480);
  const [scrollTop, setScrollTop] = useState(0);
  // The cache fills in the background: each page that arrives re-renders the grid.
  const [, setTick] = useState(0);
  useEffect(() => cache.subscribe(() => setTick((t) => t + 1)), [cache]);

  const bodyHeight = Math.max(rowHeight, viewHeight - GRID_HEADER_HEIGHT);
  const geometry = useMemo(
    () => scrollGeometry(total, rowHeight, bodyHeight),
    [total, rowHeight, bodyHeight],
  );
  const firstExact = geometry.firstRow(scrollTop);
  const visible = Math.ceil(bodyHeight / rowHeight) + 1;
  const start = Math.max(0, Math.floor(firstExact) - overscan);
  const end = Math.min(total - 1, Math.floor(firstExact) + visible + overscan);
  useEffect(() => {
    cache.setVersion(version);
  }, [cache, version]);
  useEffect(() => {
    cache.ensure(start, end);
  }, [cache, start, end, version]);

  const rowsInView = Math.floor(bodyHeight / rowHeight);
  const indices: number[] = [];
  for (let i = start; i <= end; i++) indices.push(i);

  const reveal = (index: number) => {
    const el = scrollRef.current;
    if (!el) return;
    const first = geometry.firstRow(el.scrollTop);
    if (index < first) el.scrollTop = geometry.scrollTopFor(index);
    else if (index > first + rowsInView - 1) el.scrollTop = geometry.scrollTopFor(index - rowsInView + 1);
  };

  return {
    viewHeight,
    geometry,
    rowsInView,
    pageRows: Math.max(1, rowsInView - 1),
    indices,
    isRendered: (index) => index >= start && index <= end,
    rowTop: (index) => (index - firstExact) * rowHeight,
    reveal,
    onScroll: (event) => setScrollTop(event.currentTarget.scrollTop),
  };
}
