import { realpathSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';

export type StaticLookup =
  { ok: true; file: string; size: number } | { ok: false; status: 400 | 404; reason: string };

/**
 * Maps a URL path to a file inside `root`, refusing anything that could escape it: undecodable
 * or NUL-containing paths, `..` segments (after decoding, so `%2e%2e` too), backslashes, and
 * symlinks that point outside. `/` is index.html; a path without an extension that matches no
 * file falls back to index.html (client-side routes). Shared by the browser host and app://.
 */
export function resolveStaticPath(root: string, urlPath: string): StaticLookup {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { ok: false, status: 400, reason: 'undecodable path' };
  }
  if (decoded.includes('\0') || decoded.includes('\\'))
    return { ok: false, status: 400, reason: 'bad characters' };
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return { ok: false, status: 400, reason: 'dot segment' };

  const realRoot = realpathSync(root);
  const inside = (path: string) => path === realRoot || path.startsWith(realRoot + sep);
  const candidate = resolve(realRoot, ...(segments.length ? segments : ['index.html']));
  if (!inside(candidate)) return { ok: false, status: 404, reason: 'outside root' };

  const found = statFile(candidate, inside);
  if (found) return { ok: true, ...found };
  if (extname(candidate) === '') {
    const index = statFile(resolve(realRoot, 'index.html'), inside);
    if (index) return { ok: true, ...index };
  }
  return { ok: false, status: 404, reason: 'not found' };
}

function statFile(path: string, inside: (p: string) => boolean): { file: string; size: number } | null {
  try {
    const real = realpathSync(path);
    if (!inside(real)) return null;
    const stat = statSync(real);
    return stat.isFile() ? { file: real, size: stat.size } : null;
  } catch {
    return null;
  }
}
