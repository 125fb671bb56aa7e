import { useEffect, useState } from 'react';
import type { RefObject } from 'react';

/**
 * The element's height (clientHeight), followed by a ResizeObserver, whose first report comes
 * after the browser has laid the page out. Read in a layout effect instead, it forced a layout of
 * the whole new view and a second render inside the task that mounted it (about 50 ms of a
 * million-row list's first render on a slow machine). `initial` until the first report.
 */
export function useViewHeight(ref: RefObject<HTMLElement | null>, initial: number): number {
  const [height, setHeight] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return height;
}
