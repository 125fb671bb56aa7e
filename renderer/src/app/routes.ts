/** The app's pages. Hash routes (#/contacts) work the same under app:// and the browser host. */
export const routes = [
  { id: 'contacts', label: 'Contacts' },
  { id: 'campaigns', label: 'Campaigns' },
  { id: 'calls', label: 'Calls' },
  { id: 'do-not-call', label: 'Do not call' },
  { id: 'agents', label: 'Agents' },
  { id: 'settings', label: 'Settings' },
] as const;

export type RouteId = (typeof routes)[number]['id'];
export const defaultRoute: RouteId = 'contacts';

export const hrefFor = (id: RouteId) => `#/${id}`;

/** "#/settings" → "settings"; anything unknown → the default page. */
export function routeFromHash(hash: string): RouteId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return routes.some((r) => r.id === id) ? (id as RouteId) : defaultRoute;
}
