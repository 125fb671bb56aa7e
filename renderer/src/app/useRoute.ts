import { useSyncExternalStore } from 'react';
import type { RouteId } from './routes.ts';
import { routeFromHash } from './routes.ts';

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** The current page, following the address bar's hash. */
export function useRoute(): RouteId {
  return useSyncExternalStore(subscribe, () => routeFromHash(window.location.hash));
}
