import { useEffect } from 'react';
import type { RefObject } from 'react';

/**
 * When a view replaces the one that had focus (an import starts, a list opens), focus falls to
 * <body> and a keyboard or screen-reader user is lost: this puts it on `target` (a heading with
 * tabIndex={-1}) on mount, but only then, so it never takes focus from where the operator put it.
 */
export function useFocusWhenLost(target: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) target.current?.focus();
  }, [target]);
}
