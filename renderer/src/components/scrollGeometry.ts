// Scrolling through millions of rows: browsers cap an element's height (Chromium near 33.5M px,
// which 1M rows of 32 px already reach), so past a limit the canvas is shorter than the content
// and the scroll position maps proportionally onto the rows. Below the limit it is 1:1.

/** Canvas heights above this are scaled (well under every browser's cap). */
export const MAX_CANVAS_PX = 8_000_000;

export interface ScrollGeometry {
  /** Height of the scrollable canvas (the rows' part). */
  canvasHeight: number;
  /** The (fractional) row at the top of the view for a scrollTop. */
  firstRow(scrollTop: number): number;
  /** The scrollTop that puts (fractional) row `row` at the top of the view. */
  scrollTopFor(row: number): number;
}

export function scrollGeometry(
  rows: number,
  rowHeight: number,
  viewHeight: number,
  maxCanvas = MAX_CANVAS_PX,
): ScrollGeometry {
  const content = rows * rowHeight;
  const canvasHeight = Math.min(content, maxCanvas);
  const scrollRange = Math.max(0, canvasHeight - viewHeight);
  const contentRange = Math.max(0, content - viewHeight);
  const scale = scrollRange > 0 ? contentRange / scrollRange : 1;
  return {
    canvasHeight,
    firstRow: (scrollTop) => (Math.min(Math.max(0, scrollTop), scrollRange) * scale) / rowHeight,
    scrollTopFor: (row) => Math.min(scrollRange, Math.max(0, (row * rowHeight) / scale)),
  };
}
