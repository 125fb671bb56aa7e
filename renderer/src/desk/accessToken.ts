/**
 * The browser host prints `http://127.0.0.1:<port>/#token=<token>`. The token lives in the URL
 * fragment so it never travels in a request line or a Referer. We read it once, remove it from the
 * address bar (so it is not left in history, bookmarks or screenshots) and keep it in memory only.
 */
export interface AddressBar {
  readonly hash: string;
  readonly pathname: string;
  readonly search: string;
}
export interface HistoryLike {
  readonly state: unknown;
  replaceState(data: unknown, unused: string, url?: string): void;
}

/** Reads `token` from a fragment such as `#token=abc` or `#token=abc&x=1`; null when absent or empty. */
export function tokenFromHash(hash: string): string | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.includes('token=')) return null;
  const token = new URLSearchParams(fragment).get('token');
  return token ? token : null;
}

/**
 * Takes the token out of the address bar. Returns it (or null) and replaces the fragment with the
 * default route, so a reload or a copied address does not carry the token.
 */
export function takeAccessToken(
  location: AddressBar,
  history: HistoryLike,
  defaultHash = '#/',
): string | null {
  const token = tokenFromHash(location.hash);
  if (token !== null || location.hash.includes('token=')) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}${defaultHash}`);
  }
  return token;
}
