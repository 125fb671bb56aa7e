/**
 * URL decisions for the Electron main process, kept free of 'electron' so they are unit-tested.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

const parse = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

/** Our own page: app://desk/… (and nothing that merely starts with that text). */
export function isAppUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== null && parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
}

/**
 * A link the operator may open in their browser: https only, parsed with URL, no credentials in
 * it (`https://bank.example@evil.example` tricks), and a real host.
 */
export function externalUrl(url: string): string | null {
  const parsed = parse(url);
  if (!parsed || parsed.protocol !== 'https:') return null;
  if (parsed.username || parsed.password || !parsed.hostname) return null;
  return parsed.toString();
}
