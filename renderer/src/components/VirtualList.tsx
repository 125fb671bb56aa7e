import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

export interface VirtualListProps<T> {
  /** Total rows; the data itself stays in the back end and arrives a window at a time. */
  count: number;
  /** The row at `index`, or undefined while it is still loading. */
  getItem: (index: number) => T | undefined;
  /** A stable key (an id, not the index) so rows keep identity while the window moves. */
  getKey: (index: number) => string | number;
  renderRow: (item: T | undefined, index: number) => ReactNode;
  /** Fixed row height in px: cheap to lay out for millions of rows. */
  rowHeight: number;
  overscan?: number;
  /** Called with the visible index range [start, end] so the owner can fetch that window. */
  onRangeChange?: (start: number, end: number) => void;
  ariaLabel: string;
  className?: string;
}

/** A list that renders only the visible rows (@tanstack/react-virtual), for big tables later. */
export function VirtualList<T>({
  count,
  getItem,
  getKey,
  renderRow,
  rowHeight,
  overscan = 8,
  onRangeChange,
  ariaLabel,
  className,
}: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    getItemKey: getKey,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? -1;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (first >= 0 && onRangeChange) onRangeChange(first, last);
  }, [first, last, onRangeChange]);

  return (
    <div
      ref={scrollRef}
      className={['virtual-list', className].filter(Boolean).join(' ')}
      role="list"
      aria-label={ariaLabel}
      tabIndex={0}
    >
      <div className="virtual-list-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => (
          <div
            key={item.key}
            role="listitem"
            aria-setsize={count}
            aria-posinset={item.index + 1}
            className="virtual-list-row"
            style={{ height: rowHeight, transform: `translateY(${item.start}px)` }}
          >
            {renderRow(getItem(item.index), item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
